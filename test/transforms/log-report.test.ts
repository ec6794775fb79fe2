import t from 'tap';
import { logReport } from '../../transforms/log-report.js';
import type { LogItem } from '../../lib/logs/framing.js';
import { through } from '../helpers/streams.js';

const runId = 'run_20260101000000_abcdef';
const item = (lineNo: number, value: object): LogItem => ({ lineNo, value, raw: JSON.stringify(value) });

t.test('LogItems in, the report out as text; done is the summary once the report has ended', async (t) => {
  const { stream, done } = logReport();
  const out = (await through<Buffer>(stream, [item(1, { schemaVersion: 1, type: 'run_start', runId, cwd: '/', provider: 'p', model: 'm' }), { lineNo: 2, raw: 'x', problem: 'not a JSON object' }])).join('');
  t.equal(out, 'line 1: run run_20260101000000_abcdef: no run_end (the log ends at its last event)\nline 2: not a JSON object\ninvalid: 2 problems in 1 event, 1 run\n', 'in line order');
  t.same(await done, { valid: false, events: 1, runs: 1, problems: 2 });
});

t.test('json: one object per problem, then the summary', async (t) => {
  const { stream, done } = logReport({ format: 'json' });
  const out = (await through<Buffer>(stream, [{ lineNo: 1, raw: 'x', problem: 'not a JSON object' }])).join('');
  t.same(out.trimEnd().split('\n').map((line) => JSON.parse(line)), [{ type: 'problem', line: 1, problem: 'not a JSON object' }, { type: 'summary', valid: false, events: 0, runs: 0, problems: 1 }]);
  t.equal((await done).valid, false);
});
