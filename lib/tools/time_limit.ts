/** How long a search tool (grep, glob) may run before it gives up, like the bash tool's timeout. */
export const SEARCH_TIME_LIMIT_MS = 30_000;

export type TimeLimit = {
  /** Aborts when the caller's signal does or when the time limit passes. */
  signal: AbortSignal;
  /** True once the limit (not the caller) stopped the work. */
  readonly expired: boolean;
};

/** Puts a piece of tool work under `limitMs` as well as under the caller's `signal`. */
export function timeLimit(signal: AbortSignal, limitMs: number): TimeLimit {
  const timeout = AbortSignal.timeout(limitMs);
  return {
    signal: AbortSignal.any([signal, timeout]),
    get expired() {
      return timeout.aborted && !signal.aborted;
    },
  };
}

/** "30 s", "1.5 s", "0.001 s": a limit as a user reads it. */
export function formatLimit(limitMs: number): string {
  return `${limitMs / 1000} s`;
}
