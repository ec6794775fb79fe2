import t from 'tap';
import { buildTranscript, finalTurn, isLong, lineCount, redactTranscript, sizeLabel, TranscriptBuilder } from '../../../lib/render/transcript.js';

const R = 'run_20260101000000_abcdef';
const ev = (type: string, fields: Record<string, unknown> = {}, runId = R) => ({ schemaVersion: 1, type, runId, ...fields });

const toolRun = (runId = R) => [
  ev('run_start', { cwd: '/w', provider: 'scripted', model: 'm1', sessionId: 'zero_20260101000000_abcdef' }, runId),
  ev('text', { delta: 'Let me ' }, runId),
  ev('text', { delta: 'look.' }, runId),
  ev('usage', { promptTokens: 10, completionTokens: 2, totalTokens: 12 }, runId),
  ev('tool_call', { id: 'c1', name: 'read_file', args: { path: 'a.txt' }, sideEffect: 'read' }, runId),
  ev('tool_call', { id: 'c2', name: 'bash', args: { command: 'ls' }, sideEffect: 'shell' }, runId),
  ev('tool_result', { id: 'c1', status: 'ok', output: 'hello', truncated: false }, runId),
  ev('tool_result', { id: 'c2', status: 'error', output: 'denied', truncated: true }, runId),
  ev('text', { delta: 'Done.' }, runId),
  ev('usage', { promptTokens: 20, completionTokens: 3, totalTokens: 23, costUsd: 0.5 }, runId),
  ev('final', { text: 'Done.' }, runId),
  ev('run_end', { status: 'success', exitCode: 0 }, runId),
];

t.test('one run: turns, tool calls with results, tokens, outcome', async (t) => {
  const { runs, skipped } = buildTranscript(toolRun());
  t.equal(runs.length, 1);
  t.same(skipped, []);
  const [run] = runs;
  t.equal(run.runId, R);
  t.same(run.start, { cwd: '/w', provider: 'scripted', model: 'm1', sessionId: 'zero_20260101000000_abcdef' });
  t.equal(run.prompt, undefined, 'a plain exec log has no prompt');
  const turns = run.entries.flatMap((entry) => (entry.kind === 'turn' ? [entry.turn] : []));
  t.equal(turns.length, 2);
  t.equal(turns[0].text, 'Let me look.', 'deltas concatenated');
  t.same(turns[0].usage, { promptTokens: 10, completionTokens: 2, totalTokens: 12 });
  t.same(turns[0].tools, [
    { id: 'c1', name: 'read_file', args: { path: 'a.txt' }, sideEffect: 'read', result: { status: 'ok', output: 'hello', truncated: false } },
    { id: 'c2', name: 'bash', args: { command: 'ls' }, sideEffect: 'shell', result: { status: 'error', output: 'denied', truncated: true } },
  ]);
  t.equal(turns[1].text, 'Done.');
  t.same(turns[1].tools, []);
  t.same(run.tokens, { promptTokens: 30, completionTokens: 5, totalTokens: 35, costUsd: 0.5 });
  t.equal(run.final, 'Done.');
  t.same(run.outcome, { status: 'success', exitCode: 0 });
  t.equal(finalTurn(run), turns[1], 'the last turn is the final answer');
});

t.test('a session file: prompt lines give the prompt of the run after them; several runs, several sections', async (t) => {
  const R2 = 'run_20260101000001_zzzzzz';
  const { runs } = buildTranscript([
    { schemaVersion: 1, type: 'prompt', content: '  Summarise a.txt  ' },
    ...toolRun(),
    { schemaVersion: 1, type: 'prompt', content: 'And the tests?' },
    { schemaVersion: 1, type: 'message', role: 'user', content: 'Be brief.' },
    ev('run_start', { cwd: '/w', provider: 'scripted', model: 'm1' }, R2),
    ev('text', { delta: 'All green.' }, R2),
    ev('final', { text: 'All green.' }, R2),
    ev('run_end', { status: 'success', exitCode: 0 }, R2),
  ]);
  t.equal(runs.length, 2);
  t.equal(runs[0].prompt, 'Summarise a.txt');
  t.equal(runs[1].prompt, 'And the tests?\n\nBe brief.', 'prompts joined like the combine stage');
  t.equal(runs[1].runId, R2);
  t.equal(runs[1].final, 'All green.');
});

t.test('warnings, errors, a failed run, unanswered calls and orphan results', async (t) => {
  const { runs } = buildTranscript([
    ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
    ev('warning', { message: 'bash is disabled' }),
    ev('tool_call', { id: 'c1', name: 'read_file' }),
    ev('tool_result', { id: 'zz', status: 'ok', output: 'stray', truncated: false }),
    ev('error', { code: 'provider_error', message: 'upstream overloaded', recoverable: false }),
    ev('run_end', { status: 'error', exitCode: 3 }),
  ]);
  const [run] = runs;
  t.same(run.entries.map((entry) => entry.kind), ['warning', 'turn', 'orphan_result', 'error']);
  const turn = run.entries[1];
  t.ok(turn.kind === 'turn' && turn.turn.tools[0].result === undefined && turn.turn.tools[0].args === undefined);
  t.match(run.entries[3], { kind: 'error', code: 'provider_error', message: 'upstream overloaded', recoverable: false });
  t.same(run.outcome, { status: 'error', exitCode: 3 });
  t.equal(run.final, undefined);
  t.equal(finalTurn(run), undefined);
});

t.test('a torn log: no run_end; junk lines are listed as skipped', async (t) => {
  const builder = new TranscriptBuilder();
  builder.add(ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }), 1);
  builder.add(ev('text', { delta: 'Hal' }), 2);
  builder.add([1, 2], 3);
  builder.add({ hello: 'world' }, 4);
  builder.add(ev('mystery'), 5);
  builder.addProblem(6, 'not a JSON object');
  const { runs, skipped } = builder.finish();
  t.equal(runs[0].outcome, undefined);
  t.same(skipped, [
    { lineNo: 3, reason: 'not a JSON object' },
    { lineNo: 4, reason: 'no event type' },
    { lineNo: 5, reason: 'unknown event type "mystery"' },
    { lineNo: 6, reason: 'not a JSON object' },
  ]);
});

t.test('a prompt with no run after it is a section of its own; an empty log has none', async (t) => {
  t.same(buildTranscript([{ type: 'prompt', content: 'hi' }]).runs, [{ prompt: 'hi', entries: [], tokens: {} }]);
  t.same(buildTranscript([]), { runs: [], skipped: [] });
});

t.test('redactTranscript redacts joined deltas, args, results and the prompt', async (t) => {
  const key = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4';
  const { runs } = redactTranscript(
    buildTranscript([
      { type: 'prompt', content: `use ${key}` },
      ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
      ev('text', { delta: `key ${key.slice(0, 10)}` }),
      ev('text', { delta: key.slice(10) }),
      ev('tool_call', { id: 'c1', name: 'bash', args: { command: 'echo', apiKey: 'hunter2hunter2' } }),
      ev('tool_result', { id: 'c1', status: 'ok', output: `got ${key}`, truncated: false }),
      ev('final', { text: `key ${key}` }),
      ev('run_end', { status: 'success', exitCode: 0 }),
    ]),
  );
  const text = JSON.stringify(runs);
  t.notMatch(text, key);
  t.notMatch(text, 'hunter2hunter2');
  t.match(text, '[REDACTED]');
  t.ok(finalTurn(runs[0]), 'the final turn still matches the final text');
});

t.test('folding thresholds: more than 40 lines or 4 KB', async (t) => {
  t.equal(lineCount(''), 0);
  t.equal(lineCount('a\nb\n'), 2);
  t.equal(isLong(Array(40).fill('x').join('\n')), false);
  t.equal(isLong(Array(41).fill('x').join('\n')), true);
  t.equal(isLong('x'.repeat(4096)), false);
  t.equal(isLong('x'.repeat(4097)), true);
  t.equal(sizeLabel('a\nb'), '2 lines, 3 B');
  t.equal(sizeLabel('x'.repeat(5000)), '1 line, 4.9 KB');
});

t.test('redactTranscript: tool names, ids, error codes and the run id are redacted too', async (t) => {
  const token = ['ghp_', 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa'].join('');
  const transcript = buildTranscript([
    ev('run_start', { cwd: '/w', provider: 'p', model: `m-${token}` }),
    ev('tool_call', { id: `call_${token}`, name: `tool_${token}`, args: {}, sideEffect: token }),
    ev('tool_result', { id: `call_${token}`, status: 'ok', output: '', truncated: false }),
    ev('tool_result', { id: `orphan_${token}`, status: 'ok', output: '', truncated: false }),
    ev('error', { code: `c_${token}`, message: 'x', recoverable: false }),
    // a hand-edited run_end: its status was printed as it was
    ev('run_end', { status: `s_${token}`, exitCode: 1 }),
    ev(`bogus_${token}`),
  ]);
  const redacted = redactTranscript(transcript);
  t.notMatch(JSON.stringify(redacted), token);
  const turn = redacted.runs[0]!.entries.find((entry) => entry.kind === 'turn');
  t.match(turn, { turn: { tools: [{ name: 'tool_[REDACTED]', id: /^redacted_[0-9a-f]{16}$/, result: { status: 'ok' } }] } }, 'the call keeps its result');
});

t.test('version 2: reasoning joins its turn, a permission_request is a note on its call, checkpoints are known', async (t) => {
  const v2 = (type: string, fields: Record<string, unknown> = {}) => ({ ...ev(type, fields), schemaVersion: 2 });
  const { runs, skipped } = buildTranscript([
    v2('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
    v2('reasoning', { delta: 'The file is ' }),
    v2('reasoning', { delta: 'outside.' }),
    v2('tool_call', { id: 'c1', name: 'write_file', args: { path: '../x' }, sideEffect: 'write' }),
    v2('checkpoint', { checkpoint: { sequence: 1, tool: 'write_file', files: ['../x'] } }),
    v2('permission_request', { id: 'c1', name: 'write_file', action: 'prompt', permission: 'prompt', permissionMode: 'unsafe', sideEffect: 'write', reason: 'Path is outside.', block: { code: 'outside_workspace', reason: 'Path is outside.' } }),
    v2('permission_decision', { id: 'c1', name: 'write_file', action: 'deny', permission: 'write', permissionGranted: false, decisionReason: 'no' }),
    v2('tool_result', { id: 'c1', name: 'write_file', status: 'error', output: 'Path is outside.', truncated: false }),
    v2('reasoning', { delta: 'Say so.' }),
    v2('text', { delta: 'I could not.' }),
    v2('permission_request', { id: 'nope', name: 'bash', action: 'prompt', permission: 'shell', permissionMode: 'auto', sideEffect: 'shell', reason: 'r' }),
    v2('final', { text: 'I could not.' }),
    v2('run_end', { status: 'success', exitCode: 0 }),
  ]);
  const turns = runs[0]!.entries.flatMap((entry) => (entry.kind === 'turn' ? [entry.turn] : []));
  t.match(turns, [
    { reasoning: 'The file is outside.', text: '', tools: [{ id: 'c1', permission: { reason: 'Path is outside.', code: 'outside_workspace' }, result: { status: 'error' } }] },
    { reasoning: 'Say so.', text: 'I could not.', tools: [] },
  ]);
  t.same(skipped, [{ reason: 'permission_request for no tool_call "nope"' }], 'only the request naming no call');
  t.equal(buildTranscript(toolRun()).runs[0]!.entries.some((entry) => entry.kind === 'turn' && 'reasoning' in entry.turn), false, 'a version 1 turn has no reasoning');
});

t.test('redactTranscript: reasoning and permission notes too, reasoning joined first', async (t) => {
  const key = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4';
  const v2 = (type: string, fields: Record<string, unknown> = {}) => ({ ...ev(type, fields), schemaVersion: 2 });
  const redacted = redactTranscript(
    buildTranscript([
      v2('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
      v2('reasoning', { delta: `use ${key.slice(0, 12)}` }),
      v2('reasoning', { delta: key.slice(12) }),
      v2('tool_call', { id: 'c1', name: 'bash' }),
      v2('permission_request', { id: 'c1', name: 'bash', action: 'prompt', permission: 'shell', permissionMode: 'auto', sideEffect: 'shell', reason: `runs ${key}` }),
      v2('tool_result', { id: 'c1', name: 'bash', status: 'error', output: 'no', truncated: false }),
    ]),
  );
  const text = JSON.stringify(redacted);
  t.notMatch(text, key.slice(8, 20));
  t.match(text, 'use [REDACTED]');
  t.match(text, 'runs [REDACTED]');
});
