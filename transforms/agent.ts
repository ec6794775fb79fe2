import { Duplex } from 'node:stream';
import { runAgent } from '../lib/agent/loop.js';
import { UsageError } from '../lib/errors.js';
import type { Event, ImageInput, PromptRequest } from '../lib/protocol/types.js';
import type { ChatMessage, Provider } from '../lib/providers/types.js';
import type { Toolbox } from '../lib/tools/registry.js';

export type AgentOptions = {
  provider: Provider;
  cwd: string;
  maxTurns?: number;
  toolbox?: Toolbox;
  sessionId?: string;
  /** More directories write tools may change (--add-dir), besides cwd. */
  extraRoots?: string[];
  /** Emitted as `warning` events right after `run_start`. */
  warnings?: string[];
  /** The run's session: called with the prompt when the run starts; names the session and gives the earlier conversation. */
  session?: { begin(prompt: string, images?: ImageInput[]): Promise<{ sessionId: string; history: ChatMessage[]; warnings: string[] }> };
  /** Aborting ends the run: the reason (a ZeroError such as CancelledError) becomes the stage's error. */
  signal?: AbortSignal;
};

export const DEFAULT_MAX_TURNS = 12;

function runStart({ provider, cwd }: AgentOptions, sessionId?: string): Event {
  return { type: 'run_start', ...(sessionId ? { sessionId } : {}), cwd, provider: provider.name, model: provider.model, ...(provider.apiModel ? { apiModel: provider.apiModel } : {}) };
}

function imagesRefused(provider: Provider): UsageError {
  return new UsageError(`The prompt has images, but provider ${provider.name} (model ${provider.model}) does not take images. Send it without images, or choose a provider whose model takes them.`);
}

/**
 * `{ prompt, images }` → unstamped output events: run_start, warnings, then the agent
 * loop's events (run_start comes with the first of them, or with the failure). The readable side holds at most one event: each push waits
 * until the reader has taken the previous one, so the loop (and the provider
 * behind it) stops while downstream is full, and a failure never drops an event
 * that was already produced: the stage errors only once its buffer is empty.
 */
export function agent(options: AgentOptions): Duplex {
  const signal = options.signal ?? new AbortController().signal;
  let started = false;
  let wakeReader: (() => void) | undefined;

  const wake = () => {
    wakeReader?.();
    wakeReader = undefined;
  };

  const readerTookAll = () => new Promise<void>((resolve) => (wakeReader = resolve));

  // Once cancelled, events are no longer held back: the loop is winding down and must reach its end.
  const push = async (event: Event) => {
    if (!stream.push(event) && !signal.aborted) await readerTookAll();
  };

  // run_start waits for the run's first event, so it can name the model the API answered with.
  let announced = false;
  let sessionId = options.sessionId;
  const warnings = [...(options.warnings ?? [])];
  const announce = async () => {
    if (announced) return;
    announced = true;
    await push(runStart(options, sessionId));
    for (const message of warnings) await push({ type: 'warning', message });
  };

  const emit = async (event: Event) => {
    await announce();
    await push(event);
  };

  const stream = new Duplex({
    readableObjectMode: true,
    writableObjectMode: true,
    readableHighWaterMark: 1,
    writableHighWaterMark: 1,
    read: wake,
    write({ prompt, images }: PromptRequest, _encoding, callback) {
      started = true;
      const { provider, cwd } = options;
      // Refused before a session or a model request exists, as other bad input is.
      if (images?.length && provider.acceptsImages === false) return callback(imagesRefused(provider));
      (async () => {
        const start = await options.session?.begin(prompt, images);
        if (start) {
          sessionId = start.sessionId;
          warnings.push(...start.warnings);
        }
        const history = start?.history ?? [];
        // the tools load when a run needs them: a log tool, which builds its chain beside this one, never does
        const toolbox = options.toolbox ?? (await import('../lib/tools/registry.js')).createToolbox();
        await runAgent({ prompt, images, history, provider, toolbox, cwd, extraRoots: options.extraRoots, maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS, signal, emit });
      })().then(
        () => callback(),
        async (error: Error) => {
          await announce();
          while (stream.readableLength > 0 && !stream.destroyed) await readerTookAll();
          callback(error);
        },
      );
    },
    final(callback) {
      stream.push(null);
      callback();
    },
    destroy(error, callback) {
      wake();
      callback(error);
    },
  });

  signal.addEventListener('abort', () => {
    wake();
    if (!started) stream.destroy(signal.reason);
  }, { once: true });

  return stream;
}
