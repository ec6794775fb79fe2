import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a search tool (grep, glob) may run before it gives up, like the bash tool's timeout. */
export const SEARCH_TIME_LIMIT_MS = 30_000;

/**
 * Longest stretch of synchronous search work before handing the event loop back: the work resumes
 * in the same turn of the loop, and timers and signals (SIGINT) run on the next, so within two slices.
 */
const SLICE_MS = 50;

export type TimeLimit = {
  /** Aborts when the caller's signal does or when the time limit passes. */
  signal: AbortSignal;
  /** True once the limit (not the caller) stopped the work. */
  readonly expired: boolean;
  /** Lets timers and signal handlers run when the current slice of work has lasted long enough; throws if stopped. */
  pause(): Promise<void>;
};

/** Puts a piece of tool work under `limitMs` as well as under the caller's `signal`. */
export function timeLimit(signal: AbortSignal, limitMs: number): TimeLimit {
  const timeout = AbortSignal.timeout(limitMs);
  const combined = AbortSignal.any([signal, timeout]);
  let sliceStart = performance.now();
  return {
    signal: combined,
    get expired() {
      return timeout.aborted && !signal.aborted;
    },
    async pause() {
      if (performance.now() - sliceStart >= SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
      combined.throwIfAborted();
    },
  };
}

/** "30 s", "1.5 s", "0.001 s": a limit as a user reads it. */
export function formatLimit(limitMs: number): string {
  return `${limitMs / 1000} s`;
}
