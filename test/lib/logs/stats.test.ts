import t from 'tap';
import { costTotals, createStatsCollector, createStatsReport, formatStats, statsObject } from '../../../lib/logs/stats.js';
import { applyStep } from '../../../lib/streams.js';

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
  t.same(stats.runs(), [{ runId: 'run_20260101000000_abcdef', provider: 'p', model: 'm', userTurns: 1, interruptedTurns: 0, modelTurns: 2, toolCalls: 2, toolsByName: new Map([['bash', 1], ['read_file', 1]]), toolsBySideEffect: new Map([['shell', 1], ['unknown', 1]]), tokens: { prompt: 5, completion: 2, total: 7, costUsd: 0.5 }, unpriced: true, outcome: 'error', exitCode: 4, errorCode: 'max_turns' }]);
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
  t.match(run, { model: 'm-[REDACTED]', errorCode: 'c_[REDACTED]' });
  t.same([...run!.toolsByName], [['tool_[REDACTED]', 1]]);
  const printed = JSON.stringify(statsObject(run!, 'json')) + formatStats(stats.runs());
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
  t.same([...stats.runs()[0]!.toolsBySideEffect], [['read', 1], ['write', 1]]);
  t.match(stats.runs(), [{ modelTurns: 3, toolCalls: 2, tokens: { prompt: 3, completion: 1, total: 4 }, outcome: 'incomplete', exitCode: 4, errorCode: 'incomplete' }]);
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

t.test('tool names that are names of Object.prototype are counted like any other', async (t) => {
  const names = ['toString', 'valueOf', 'hasOwnProperty', '__proto__', 'constructor', 'toString', '__proto__'];
  const stats = createStatsCollector();
  stats.item(e('run_start', { cwd: '/', provider: 'p', model: 'm' }));
  names.forEach((name, i) => stats.item(e('tool_call', { id: String(i), name, args: {} })));
  const [run] = stats.runs();
  t.same([...run!.toolsByName], [['toString', 2], ['valueOf', 1], ['hasOwnProperty', 1], ['__proto__', 2], ['constructor', 1]]);
  t.match(formatStats(stats.runs()), /by name +toString 2, valueOf 1, hasOwnProperty 1, __proto__ 2, constructor 1\n/);
  for (const format of ['json', 'stream-json'] as const) {
    const printed = JSON.parse(JSON.stringify(statsObject(run!, format)));
    const byName = printed.tools_by_name ?? printed.toolsByName;
    t.same(Object.entries(byName), [['toString', 2], ['valueOf', 1], ['hasOwnProperty', 1], ['__proto__', 2], ['constructor', 1]], format);
  }
});

t.test('a conversation: its user turns (interrupted ones said) apart from its model turns', async (t) => {
  const stats = createStatsCollector();
  [
    e('run_start', { cwd: '/', provider: 'p', model: 'm' }),
    e('turn_start', { turn: 1, content: 'a' }),
    e('text', { delta: 'x' }),
    e('final', { text: 'x' }),
    e('turn_end', { turn: 1, status: 'success' }),
    e('turn_start', { turn: 2, content: 'b' }),
    e('text', { delta: 'y' }),
    e('turn_end', { turn: 2, status: 'interrupted' }),
    e('turn_start', { turn: 3, content: 'c' }),
    e('turn_end', { turn: 3, status: 'interrupted' }),
    e('run_end', { status: 'success', exitCode: 0 }),
  ].forEach((item) => stats.item(item));
  t.equal(stats.skipped, 0);
  t.match(stats.runs(), [{ userTurns: 3, interruptedTurns: 2, modelTurns: 2 }]);
  t.match(formatStats(stats.runs()), /  user turns +3 \(2 interrupted\)\n  model turns +2\n/);
  const failedEarly = createStatsCollector();
  failedEarly.item(e('error', { code: 'usage', message: 'x', recoverable: false }));
  t.match(failedEarly.runs(), [{ userTurns: 0, modelTurns: 0 }], 'a run that failed before it started asked nothing');
});

t.test('-o json is snake_case like every -o json; -o stream-json camelCase like the protocol, with turns kept', async (t) => {
  const items = [e('run_start', { cwd: '/', provider: 'p', model: 'm' }), e('tool_call', { id: '1', name: 'read_file', args: {}, sideEffect: 'read' }), e('usage', { promptTokens: 1, costUsd: 0.25 }), e('run_end', { status: 'success', exitCode: 0 })];
  const [json] = applyStep(createStatsReport('json'), items).map((line) => JSON.parse(line));
  t.same(json, {
    type: 'run_stats',
    run_id: 'run_20260101000000_abcdef',
    provider: 'p',
    model: 'm',
    user_turns: 1,
    interrupted_turns: 0,
    model_turns: 1,
    tool_calls: 1,
    tools_by_name: { read_file: 1 },
    tools_by_side_effect: { read: 1 },
    tokens: { prompt: 1, completion: 0, total: 1, cost_usd: 0.25 },
    outcome: 'success',
    exit_code: 0,
  });
  const [stream] = applyStep(createStatsReport('stream-json'), items).map((line) => JSON.parse(line));
  t.same(stream, {
    type: 'run_stats',
    runId: 'run_20260101000000_abcdef',
    provider: 'p',
    model: 'm',
    userTurns: 1,
    interruptedTurns: 0,
    modelTurns: 1,
    turns: 1,
    toolCalls: 1,
    toolsByName: { read_file: 1 },
    toolsBySideEffect: { read: 1 },
    tokens: { prompt: 1, completion: 0, total: 1, costUsd: 0.25 },
    outcome: 'success',
    exitCode: 0,
  });
});

t.test('cost totals per run, per model and overall; the models with no price are named and left out of the total', async (t) => {
  const run = (id: string, model: string, ...usage: Record<string, unknown>[]) => [
    { lineNo: 1, value: { schemaVersion: 2, type: 'run_start', runId: id, cwd: '/', provider: 'p', model } },
    ...usage.map((counts) => ({ lineNo: 2, value: { schemaVersion: 2, type: 'usage', runId: id, ...counts } })),
    { lineNo: 3, value: { schemaVersion: 2, type: 'run_end', runId: id, status: 'success', exitCode: 0 } },
  ];
  const items = [
    ...run('run_20260101000000_aaaaaa', 'gpt-4.1', { promptTokens: 1000, costUsd: 0.1 }, { promptTokens: 1000, costUsd: 0.2 }),
    ...run('run_20260101000000_bbbbbb', 'gpt-4.1', { promptTokens: 1000, costUsd: 0.0057 }),
    ...run('run_20260101000000_cccccc', 'claude-haiku-4-5', { promptTokens: 10, costUsd: 0.25 }),
    ...run('run_20260101000000_dddddd', 'local-llm', { promptTokens: 10 }),
  ];
  const stats = createStatsCollector();
  items.forEach((item) => stats.item(item));
  const totals = costTotals(stats.runs());
  t.same(Object.fromEntries(totals.byModel), { 'gpt-4.1': 0.3057, 'claude-haiku-4-5': 0.25 });
  t.equal(totals.totalUsd, 0.5557);
  t.same(totals.unpricedModels, ['local-llm']);
  const text = formatStats(stats.runs());
  t.match(text, /run run_20260101000000_aaaaaa\n[^]*cost \$0\.3000/);
  t.match(text, /\ncost\n  gpt-4\.1 +\$0\.3057\n  claude-haiku-4-5 +\$0\.2500\n  total +\$0\.5557\n  no price +local-llm \(not in the total\)\n/);
  const json = applyStep(createStatsReport('json'), items).join('').trim().split('\n').map((line) => JSON.parse(line));
  t.same(json.at(-1), { type: 'cost_totals', by_model: { 'gpt-4.1': 0.3057, 'claude-haiku-4-5': 0.25 }, total_usd: 0.5557, unpriced_models: ['local-llm'] });
  t.same(json.slice(0, -1).map((line) => line.tokens.cost_usd), [0.3, 0.0057, 0.25, undefined]);
  const camel = JSON.parse(applyStep(createStatsReport('stream-json'), items).join('').trim().split('\n').at(-1)!);
  t.same(camel, { type: 'cost_totals', byModel: { 'gpt-4.1': 0.3057, 'claude-haiku-4-5': 0.25 }, totalUsd: 0.5557, unpricedModels: ['local-llm'] });
});
