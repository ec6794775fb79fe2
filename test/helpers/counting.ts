/**
 * Runs `work` with `owner[method]` wrapped so that each call adds `weigh(its result)` to a sum, and returns the sum:
 * a count of the work a function does (characters sliced, character tests made), which a test can bound per
 * character of input where a time bound would flake on a busy machine.
 */
export function weighCalls<Owner extends object>(owner: Owner, method: keyof Owner, weigh: (result: unknown) => number, work: () => void): number {
  const original = owner[method] as (...args: unknown[]) => unknown;
  let sum = 0;
  owner[method] = function (this: unknown, ...args: unknown[]) {
    const result = original.apply(this, args);
    sum += weigh(result);
    return result;
  } as Owner[keyof Owner];
  try {
    work();
  } finally {
    owner[method] = original as Owner[keyof Owner];
  }
  return sum;
}
