import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { formatLimit, SEARCH_TIME_LIMIT_MS, timeLimit } from '../../../lib/tools/time_limit.js';

t.test('the search limit is 30 s, written as a user reads it', async (t) => {
  t.equal(SEARCH_TIME_LIMIT_MS, 30_000);
  t.equal(formatLimit(SEARCH_TIME_LIMIT_MS), '30 s');
  t.equal(formatLimit(1), '0.001 s');
});

t.test('the caller aborting stops the work, and is not the limit expiring', async (t) => {
  const caller = new AbortController();
  const limit = timeLimit(caller.signal, 60_000);
  await limit.pause();
  caller.abort();
  t.ok(limit.signal.aborted);
  await t.rejects(limit.pause(), { name: 'AbortError' });
  t.equal(limit.expired, false);
});

t.test('the limit expiring stops the work and says so', async (t) => {
  const limit = timeLimit(new AbortController().signal, 1);
  // AbortSignal.timeout's timer does not keep the process alive: wait with one that does.
  while (!limit.signal.aborted) await sleep(5);
  t.equal(limit.expired, true);
  await t.rejects(limit.pause(), { name: 'TimeoutError' });
});

/** Synchronous work, as matching many lines in a row is. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

// setImmediate resumes the work in the same turn of the event loop; timers and signals are handled on the next one.
t.test('pause hands the event loop back once a slice of work has lasted 50 ms: timers run within two slices', async (t) => {
  const limit = timeLimit(new AbortController().signal, 60_000);
  let timerRan = false;
  setTimeout(() => (timerRan = true), 0);
  for (let slice = 0; slice < 2; slice++) {
    busy(60);
    await limit.pause();
  }
  t.ok(timerRan, 'a timer (or a signal handler) got to run');
});
