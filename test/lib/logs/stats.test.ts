import t from 'tap';
import { createStatsCollector, formatStats } from '../../../lib/logs/stats.js';

const e = (type: string, extra: Record<string, unknown> = {}) => ({ lineNo: 1, value: { schemaVersion: 1, type, runId: 'run_20260101000000_abcdef', ...extra } });

t.test('turns, tools, tokens, outcome', async (t) => {
  const stats = createStatsCollector();
  [
    e('run_start', { cwd: '/', provider: 'p', model: 'm' }),
    e('text', { delta: 'a' }),
    e('usage', { promptTokens: 1, completionTokens: 2, totalTokens: 3, costUsd: 0.5 }),
    e('tool_call', { id: '1', name: 'bash', sideEffect: 'shell' }),
    e('tool_result', { id: '1', status: 'ok', output: '', truncated: false }),
    e('tool_call', { id: '2', name: 'read_file' }),
    e('tool_result', { id: '2', status: 'ok', output: '', truncated: false }),
    e('usage', { promptTokens: 4 }),
    e('final', { text: 'a' }),
    e('error', { code: 'max_turns', message: 'x', recoverable: true }),
    e('run_end', { status: 'error', exitCode: 4 }),
  ].forEach((item) => stats.item(item));
  stats.item({ lineNo: 9, raw: 'x', problem: 'not a JSON object' });
  t.same(stats.runs(), [{ runId: 'run_20260101000000_abcdef', provider: 'p', model: 'm', turns: 2, toolCalls: 2, toolsByName: { bash: 1, read_file: 1 }, toolsBySideEffect: { shell: 1, unknown: 1 }, tokens: { prompt: 5, completion: 2, total: 7, costUsd: 0.5 }, outcome: 'error', exitCode: 4, errorCode: 'max_turns' }]);
  t.equal(stats.skipped, 1);
  const text = formatStats(stats.runs(), stats.skipped);
  t.match(text, /outcome +error \(exit 4\), error max_turns/);
  t.match(text, /cost \$0\.5000/);
  t.match(text, /1 line skipped/);
  t.equal(formatStats([]), 'No runs.\n');
});

t.test('model and tool names from the log are redacted', async (t) => {
  const token = ['ghp_', 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa'].join('');
  const loaded = 'zk7731Qm7TfRp2LxWc9VbN3sYdHg6JkAe5Uo';
  const stats = createStatsCollector({ secrets: [loaded] });
  [
    e('run_start', { cwd: '/', provider: 'p', model: `m-${loaded}` }),
    e('tool_call', { id: '1', name: `tool_${token}`, args: {} }),
    e('error', { code: `c_${loaded}`, message: 'x', recoverable: false }),
  ].forEach((item) => stats.item(item));
  const [run] = stats.runs();
  t.match(run, { model: 'm-[REDACTED]', toolsByName: { 'tool_[REDACTED]': 1 }, errorCode: 'c_[REDACTED]' });
  const printed = JSON.stringify(run) + formatStats(stats.runs());
  t.notMatch(printed, token);
  t.notMatch(printed, loaded);
});
