import t from 'tap';
import { pickRun } from '../../transforms/pick-run.js';
import type { LogItem } from '../../lib/logs/framing.js';
import { through, throughUntilError } from '../helpers/streams.js';

const e = (runId: string, type: string, lineNo: number): LogItem => ({ lineNo, value: { runId, type, ...(type === 'run_end' ? { exitCode: 0 } : {}) } });

t.test('one run of the log comes out as { value, lineNo }; pick names it', async (t) => {
  const { stream, pick } = pickRun('b');
  const out = await through(stream, [e('a', 'run_start', 1), e('b', 'run_start', 2), e('a', 'run_end', 3), e('b', 'run_end', 4)]);
  t.same(out, [{ value: { runId: 'b', type: 'run_start' }, lineNo: 2 }, { value: { runId: 'b', type: 'run_end', exitCode: 0 }, lineNo: 4 }]);
  t.equal(pick.chosen, 'b');
  t.equal(pick.exitCode, 0);
});

t.test('a run that never ends fails the stage at the end, after what it gave', async (t) => {
  const { out, error } = await throughUntilError(pickRun().stream, [e('a', 'run_start', 1)]);
  t.match(error, { code: 'usage_error', message: /has no run_end/ });
  t.ok(out.length <= 1);
});
