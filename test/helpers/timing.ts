import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A time limit for a test that needs something to happen well within it (the first
 * chunk of a stream before --idle-timeout, `echo` before a bash timeout): `times` what
 * a run of the same work took just now on this machine, at least `floorMs`, in whole
 * tenths of a second. A loaded CI runner makes everything several times slower, and
 * this scales with it instead of failing.
 */
export function limitFrom(measuredMs: number, { times = 10, floorMs = 300 } = {}): number {
  return Math.max(floorMs, Math.ceil((measuredMs * times) / 100) * 100);
}

/** Milliseconds `action` took. */
export async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

/**
 * Waits until `read()` stops changing: in-process stream work runs in microtasks, so a
 * value unchanged across a timer tick is settled whatever the machine's load (unlike a
 * fixed sleep, which may end before a slow machine got there).
 */
export async function settled(read: () => number, tickMs = 50): Promise<number> {
  for (;;) {
    const before = read();
    await sleep(tickMs);
    if (read() === before) return before;
  }
}
