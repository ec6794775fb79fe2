import { Worker } from 'node:worker_threads';
import type { MatchDone, MatchReply, MatchRequest } from './grep_worker.js';

/**
 * Matches the lines of files against one pattern in a worker thread. Even RE2 can spend a minute on one
 * line of a few MB (a minified bundle) with a pattern such as "[a-m].{1,1000}[0-9]", and that must not hold
 * the main thread: SIGINT has to be heard at once, and the time limit has to stop the search. So the
 * worker is terminated, wherever it is in its work, when the search is aborted.
 */
export type LineMatcher = {
  /** Calls `onHit` with each "path:line:text" in the file, in order; resolves to how it went (the bytes of those hits, or why it was skipped). */
  matchFile(file: FileToMatch, onHit: (hit: string) => void): Promise<MatchDone>;
  /** Done with the matcher: its worker waits for the next search. */
  close(): void;
};

export type FileToMatch = Omit<MatchRequest, 'pattern'>;

type PendingFile = { onHit: (hit: string) => void; resolve: (done: MatchDone) => void; reject: (error: unknown) => void };

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(`./grep_worker.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url);

/** Workers of finished searches, kept so that the next grep need not start one (tens of ms, seconds under tap). */
const idleWorkers: Worker[] = [];
const MAX_IDLE_WORKERS = 2;

/** A matcher for `pattern` (already known to compile); aborting `signal` terminates its worker. */
export function startLineMatcher(pattern: string, signal: AbortSignal): LineMatcher {
  signal.throwIfAborted();
  const worker = idleWorkers.pop() ?? startWorker();
  worker.ref();
  let pending: PendingFile | undefined;
  let stopped: unknown;

  const onMessage = (message: MatchReply) => {
    if (pending === undefined) return;
    if ('hit' in message) return pending.onHit(message.hit);
    const file = pending;
    pending = undefined;
    if ('error' in message) return file.reject(new Error(message.error));
    const { done: _done, ...done } = message;
    file.resolve(done);
  };
  const stop = (reason: unknown) => {
    if (stopped !== undefined) return;
    stopped = reason;
    detach();
    pending?.reject(reason);
    pending = undefined;
    void worker.terminate();
  };
  const onAbort = () => stop(signal.reason);
  const onExit = () => stop(new Error("grep's worker thread exited unexpectedly."));
  const detach = () => {
    signal.removeEventListener('abort', onAbort);
    worker.off('message', onMessage).off('error', stop).off('exit', onExit);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  worker.on('message', onMessage).on('error', stop).on('exit', onExit);

  return {
    matchFile(file, onHit) {
      if (stopped !== undefined) return Promise.reject(stopped);
      return new Promise((resolve, reject) => {
        pending = { onHit, resolve, reject };
        worker.postMessage({ ...file, pattern } satisfies MatchRequest);
      });
    },
    close() {
      if (stopped !== undefined) return;
      const closed = new Error("grep's line matcher is closed.");
      if (pending !== undefined || idleWorkers.length >= MAX_IDLE_WORKERS) return stop(closed);
      stopped = closed;
      detach();
      worker.unref();
      idleWorkers.push(worker);
    },
  };
}

function startWorker(): Worker {
  const worker = FROM_SOURCE ? sourceWorker() : new Worker(WORKER_URL);
  // A worker that fails while idle is forgotten; while in use, the matcher's own listeners report the failure.
  worker.on('error', () => {});
  worker.on('exit', () => {
    const index = idleWorkers.indexOf(worker);
    if (index >= 0) idleWorkers.splice(index, 1);
  });
  return worker;
}

/**
 * The tests run the sources as TypeScript through tsx, whose loader a worker does not inherit on Node 20:
 * the worker imports its source through tsx's own API.
 */
function sourceWorker(): Worker {
  const load = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(WORKER_URL.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(load, { eval: true });
}
