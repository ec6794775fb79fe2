import t from 'tap';
import { stats } from '../../transforms/stats.js';
import type { LogItem } from '../../lib/logs/framing.js';
import { through } from '../helpers/streams.js';

const runId = 'run_20260101000000_abcdef';
const item = (lineNo: number, value: object): LogItem => ({ lineNo, value: { schemaVersion: 1, runId, ...value } });

t.test('LogItems in, per-run totals out at the end of the log, as text or as one JSON object per run', async (t) => {
  const items = [
    item(1, { type: 'run_start', cwd: '/', provider: 'scripted', model: 'm' }),
    item(2, { type: 'text', delta: 'hi' }),
    item(3, { type: 'final', text: 'hi' }),
    item(4, { type: 'run_end', status: 'success', exitCode: 0 }),
  ];
  const text = (await through<Buffer>(stats('text'), items)).join('');
  t.match(text, new RegExp(`^run ${runId}\\n`));
  t.match(text, /outcome +success \(exit 0\)/);
  const json = (await through<Buffer>(stats('json'), items)).join('');
  const [first, totals] = json.trim().split('\n').map((line) => JSON.parse(line));
  t.same(totals, { type: 'cost_totals', by_model: {}, total_usd: 0, unpriced_models: [] });
  t.match(first, { type: 'run_stats', run_id: runId, model_turns: 1, outcome: 'success', exit_code: 0 });
});
