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
  t.notOk(limit.signal.aborted);
  caller.abort();
  t.ok(limit.signal.aborted);
  t.equal(limit.signal.reason.name, 'AbortError');
  t.equal(limit.expired, false);
});

t.test('the limit expiring stops the work and says so', async (t) => {
  const limit = timeLimit(new AbortController().signal, 1);
  // AbortSignal.timeout's timer does not keep the process alive: wait with one that does.
  while (!limit.signal.aborted) await sleep(5);
  t.equal(limit.expired, true);
  t.equal(limit.signal.reason.name, 'TimeoutError');
});
