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

t.test('version 2 events are counted, not skipped; reasoning starts a turn like text', async (t) => {
  const v2 = (type: string, extra: Record<string, unknown> = {}) => ({ lineNo: 1, value: { ...e(type, extra).value, schemaVersion: 2 } });
  const stats = createStatsCollector();
  [
    v2('run_start', { cwd: '/', provider: 'p', model: 'm' }),
    v2('reasoning', { delta: 'first a read' }),
    v2('tool_call', { id: '1', name: 'read_file', sideEffect: 'read' }),
    v2('tool_result', { id: '1', name: 'read_file', status: 'ok', output: '', truncated: false }),
    v2('reasoning', { delta: 'then a write' }),
    v2('tool_call', { id: '2', name: 'write_file', sideEffect: 'write' }),
    v2('checkpoint', { checkpoint: { sequence: 1, tool: 'write_file', files: ['a'] } }),
    v2('permission_request', { id: '2', name: 'write_file', action: 'prompt', permission: 'write', permissionMode: 'auto', sideEffect: 'write', reason: 'no' }),
    v2('tool_result', { id: '2', name: 'write_file', status: 'error', output: 'no', truncated: false }),
    v2('usage', { promptTokens: 3, completionTokens: 1, totalTokens: 4 }),
    v2('final', { text: '' }),
    v2('error', { code: 'incomplete', message: 'x', recoverable: true }),
    v2('run_end', { status: 'incomplete', exitCode: 4 }),
  ].forEach((item) => stats.item(item));
  t.equal(stats.skipped, 0);
  t.match(stats.runs(), [{ turns: 3, toolCalls: 2, toolsBySideEffect: { read: 1, write: 1 }, tokens: { prompt: 3, completion: 1, total: 4 }, outcome: 'incomplete', exitCode: 4, errorCode: 'incomplete' }]);
  stats.item(e('reasoning', { delta: 'v1 has none' }));
  t.equal(stats.skipped, 1, 'reasoning in a version 1 line is not a valid event');
});

t.test('a session file\'s stored prompts are no run\'s and not skipped; a broken one is', async (t) => {
  const stats = createStatsCollector();
  stats.item({ lineNo: 1, value: { schemaVersion: 1, type: 'prompt', content: 'Hi' } });
  stats.item({ lineNo: 2, value: { schemaVersion: 2, type: 'message', role: 'user', content: 'Look', images: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }] } });
  stats.item(e('run_start', { cwd: '/', provider: 'p', model: 'm' }));
  t.equal(stats.skipped, 0);
  t.equal(stats.runs().length, 1);
  stats.item({ lineNo: 4, value: { schemaVersion: 1, type: 'prompt', content: '' } });
  t.equal(stats.skipped, 1, 'an empty prompt is no valid input event');
});
