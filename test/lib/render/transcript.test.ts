import t from 'tap';
import { createTranscript, MAX_SKIPPED, transcriptOf, type Piece } from '../../../lib/render/transcript.js';
import type { LogItem } from '../../../lib/logs/framing.js';
import { applyStep } from '../../../lib/streams.js';
import { createLogPlaces } from '../../../lib/logs/places.js';
import { recordedConversation } from '../../helpers/conversation.js';

const R = 'run_20260101000000_abcdef';
const R2 = 'run_20260101000001_zzzzzz';
const ev = (type: string, fields: Record<string, unknown> = {}, runId = R) => ({ schemaVersion: 1, type, runId, ...fields });
const kinds = (pieces: Piece[]) => pieces.map((piece) => piece.kind);
const ofKind = <K extends Piece['kind']>(pieces: Piece[], kind: K) => pieces.filter((piece): piece is Extract<Piece, { kind: K }> => piece.kind === kind);

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

t.test('one run: its heading, turns, tool calls with results, its outcome, then the end of the log', async (t) => {
  const pieces = transcriptOf(toolRun());
  t.same(kinds(pieces), ['run', 'turn', 'tool', 'tool', 'turn', 'run_end', 'log_end']);
  t.same(pieces[0], { kind: 'run', index: 1, runId: R, start: { cwd: '/w', provider: 'scripted', model: 'm1', sessionId: 'zero_20260101000000_abcdef' } }, 'a plain exec log has no prompt');
  const [first, second] = ofKind(pieces, 'turn').map((piece) => piece.turn);
  t.match(first, { index: 1, text: 'Let me look.', tools: true, final: false }, 'deltas joined');
  t.same(ofKind(pieces, 'tool').map((piece) => piece.call), [
    { id: 'c1', name: 'read_file', args: { path: 'a.txt' }, sideEffect: 'read', result: { status: 'ok', output: 'hello', truncated: false } },
    { id: 'c2', name: 'bash', args: { command: 'ls' }, sideEffect: 'shell', result: { status: 'error', output: 'denied', truncated: true } },
  ]);
  t.match(second, { index: 2, text: 'Done.', tools: false, final: true }, 'the last turn is the final answer');
  t.same(ofKind(pieces, 'run_end')[0]!.summary, { outcome: { status: 'success', exitCode: 0 }, tokens: { promptTokens: 30, completionTokens: 5, totalTokens: 35, costUsd: 0.5 }, turns: 2, toolCalls: 2 });
  t.same(pieces.at(-1), { kind: 'log_end', runs: 1, skipped: [], more: 0 });
});

t.test('a session file: prompt lines give the prompt of the run after them; several runs, several sections', async (t) => {
  const pieces = transcriptOf([
    { schemaVersion: 1, type: 'prompt', content: '  Summarise a.txt  ' },
    ...toolRun(),
    { schemaVersion: 1, type: 'prompt', content: 'And the tests?' },
    { schemaVersion: 1, type: 'message', role: 'user', content: 'Be brief.' },
    ev('run_start', { cwd: '/w', provider: 'scripted', model: 'm1' }, R2),
    ev('text', { delta: 'All green.' }, R2),
    ev('final', { text: 'All green.' }, R2),
    ev('run_end', { status: 'success', exitCode: 0 }, R2),
  ]);
  const runs = ofKind(pieces, 'run');
  t.match(runs, [{ index: 1, runId: R, prompt: 'Summarise a.txt' }, { index: 2, runId: R2, prompt: 'And the tests?\n\nBe brief.' }], 'prompts joined like the combine stage');
  t.match(ofKind(pieces, 'turn').at(-1), { turn: { text: 'All green.', final: true } });
  t.match(pieces.at(-1), { kind: 'log_end', runs: 2, skipped: [] }, 'prompt lines are not skipped');
});

t.test('a run is the events of one runId in a row: another runId ends it, an event without one joins it', async (t) => {
  const pieces = transcriptOf([
    ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
    { schemaVersion: 1, type: 'text', delta: 'no runId' },
    ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }, R2),
    ev('run_end', { status: 'success', exitCode: 0 }, R2),
    ev('warning', { message: 'late' }),
  ]);
  t.same(kinds(pieces), ['run', 'turn', 'run_end', 'run', 'run_end', 'run', 'warning', 'run_end', 'log_end']);
  t.match(ofKind(pieces, 'turn')[0], { turn: { text: 'no runId' } });
  const ends = ofKind(pieces, 'run_end').map((piece) => piece.summary);
  t.match(ends, [{ missingEnd: 'next run' }, { outcome: { status: 'success' } }, { missingEnd: 'log' }]);
  t.match(ofKind(pieces, 'run').map((piece) => piece.runId), [R, R2, R], 'a run seen before comes back as a section of its own');
});

t.test('a torn log: no run_end; junk lines are listed as skipped, with their line', async (t) => {
  const items: LogItem[] = [
    { lineNo: 1, value: ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }) },
    { lineNo: 2, value: ev('text', { delta: 'Hal' }) },
    { lineNo: 3, value: [1, 2] },
    { lineNo: 4, value: { hello: 'world' } },
    { lineNo: 5, value: ev('mystery') },
    { lineNo: 6, raw: '{"ty', problem: 'not a JSON object' },
  ];
  const pieces = applyStep(createTranscript(), items);
  t.same(kinds(pieces), ['run', 'turn', 'run_end', 'log_end']);
  t.notOk(ofKind(pieces, 'run_end')[0]!.summary.outcome);
  t.same(ofKind(pieces, 'log_end')[0]!.skipped, [
    { lineNo: 3, reason: 'not a JSON object' },
    { lineNo: 4, reason: 'no event type' },
    { lineNo: 5, reason: 'unknown event type "mystery"' },
    { lineNo: 6, reason: 'not a JSON object' },
  ]);
});

t.test('skipped lines: the first MAX_SKIPPED listed, the others counted', async (t) => {
  const items: LogItem[] = Array.from({ length: MAX_SKIPPED + 5 }, (_, index) => ({ lineNo: index + 1, raw: 'junk', problem: 'not a JSON object' }));
  const [end] = applyStep(createTranscript(), items);
  t.match(end, { kind: 'log_end', runs: 0, more: 5 });
  t.equal(end!.kind === 'log_end' && end.skipped.length, MAX_SKIPPED);
});

t.test('a prompt with no run after it is a section of its own; an empty log has none', async (t) => {
  t.same(transcriptOf([{ type: 'prompt', content: 'hi' }]), [
    { kind: 'run', index: 1, prompt: 'hi' },
    { kind: 'run_end', summary: { tokens: {}, turns: 0, toolCalls: 0, missingEnd: 'log' } },
    { kind: 'log_end', runs: 1, skipped: [], more: 0 },
  ]);
  t.same(transcriptOf([]), [{ kind: 'log_end', runs: 0, skipped: [], more: 0 }]);
});

t.test('every piece is redacted as it is made: joined deltas, args, results, the prompt', async (t) => {
  const key = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4';
  const pieces = transcriptOf([
    { type: 'prompt', content: `use ${key}` },
    ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
    ev('text', { delta: `key ${key.slice(0, 10)}` }),
    ev('text', { delta: key.slice(10) }),
    ev('tool_call', { id: 'c1', name: 'bash', args: { command: 'echo', apiKey: 'hunter2hunter2' } }),
    ev('tool_result', { id: 'c1', status: 'ok', output: `got ${key}`, truncated: false }),
    ev('text', { delta: `key ${key}` }),
    ev('final', { text: `key ${key}` }),
    ev('run_end', { status: 'success', exitCode: 0 }),
  ]);
  const text = JSON.stringify(pieces);
  t.notMatch(text, key);
  t.notMatch(text, 'hunter2hunter2');
  t.match(text, '[REDACTED]');
  t.match(ofKind(pieces, 'turn').at(-1), { turn: { final: true } }, 'the final turn still matches the final text');
});

t.test('tool names, ids, error codes, skipped reasons and the run id are redacted too', async (t) => {
  const token = ['ghp_', 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa'].join('');
  const pieces = transcriptOf([
    ev('run_start', { cwd: '/w', provider: 'p', model: `m-${token}` }),
    ev('tool_call', { id: `call_${token}`, name: `tool_${token}`, args: {}, sideEffect: token }),
    ev('tool_result', { id: `call_${token}`, status: 'ok', output: '', truncated: false }),
    ev('tool_result', { id: `orphan_${token}`, status: 'ok', output: '', truncated: false }),
    ev('error', { code: `c_${token}`, message: 'x', recoverable: false }),
    // a hand-edited run_end: its status was printed as it was
    ev('run_end', { status: `s_${token}`, exitCode: 1 }),
    ev(`bogus_${token}`, {}, `run_${token}`),
  ]);
  t.notMatch(JSON.stringify(pieces), token);
  t.match(ofKind(pieces, 'tool')[0], { call: { name: 'tool_[REDACTED]', id: /^redacted_[0-9a-f]{16}$/, result: { status: 'ok' } } }, 'the call keeps its result');
});

t.test('version 2: reasoning joins its turn, a permission_request is a note on its call, checkpoints are known', async (t) => {
  const v2 = (type: string, fields: Record<string, unknown> = {}) => ({ ...ev(type, fields), schemaVersion: 2 });
  const pieces = transcriptOf([
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
  t.match(ofKind(pieces, 'turn').map((piece) => piece.turn), [
    { reasoning: 'The file is outside.', text: '', tools: true },
    { reasoning: 'Say so.', text: 'I could not.', final: true },
  ]);
  t.match(ofKind(pieces, 'tool')[0], { call: { id: 'c1', result: { status: 'error' } } });
  t.same(ofKind(pieces, 'tool')[0]!.call.permissions, [
    { decision: 'refused', asked: false, reason: 'Path is outside.', code: 'outside_workspace' },
    { decision: 'denied', asked: false, reason: 'no' },
  ], 'the sandbox refused it (its code), then a decision came');
  t.same(ofKind(pieces, 'log_end')[0]!.skipped, [{ lineNo: 11, reason: 'permission_request for no tool_call "nope"' }], 'only the request naming no call');
  t.notOk(ofKind(transcriptOf(toolRun()), 'turn').some((piece) => 'reasoning' in piece.turn), 'a version 1 turn has no reasoning');
});

t.test('reasoning and permission notes are redacted too, reasoning joined first', async (t) => {
  const key = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4';
  const v2 = (type: string, fields: Record<string, unknown> = {}) => ({ ...ev(type, fields), schemaVersion: 2 });
  const text = JSON.stringify(
    transcriptOf([
      v2('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
      v2('reasoning', { delta: `use ${key.slice(0, 12)}` }),
      v2('reasoning', { delta: key.slice(12) }),
      v2('tool_call', { id: 'c1', name: 'bash' }),
      v2('permission_request', { id: 'c1', name: 'bash', action: 'prompt', permission: 'shell', permissionMode: 'auto', sideEffect: 'shell', reason: `runs ${key}` }),
      v2('tool_result', { id: 'c1', name: 'bash', status: 'error', output: 'no', truncated: false }),
    ]),
  );
  t.notMatch(text, key.slice(8, 20));
  t.match(text, 'use [REDACTED]');
  t.match(text, 'runs [REDACTED]');
});

t.test('pieces go out as the log is read: a finished turn is handed on before the run ends', async (t) => {
  const step = createTranscript();
  const out: Piece[] = [];
  const write = (value: unknown) => step.write({ lineNo: out.length + 1, value }, (piece) => void out.push(piece));
  for (const value of toolRun().slice(0, 7)) write(value);
  t.same(kinds(out), ['run', 'turn', 'tool'], 'the first call is shown once its result is in; the second still waits');
  write(toolRun()[7]);
  t.same(kinds(out), ['run', 'turn', 'tool', 'tool']);
});

t.test('a conversation: each user turn, its work and its answer, how it ended, permissions asked and decided', async (t) => {
  const { events } = recordedConversation();
  const pieces = transcriptOf(events);
  t.same(kinds(pieces).filter((kind) => kind !== 'turn' && kind !== 'tool'), ['run', 'user_turn', 'turn_end', 'user_turn', 'turn_end', 'user_turn', 'turn_end', 'user_turn', 'turn_end', 'user_turn', 'turn_end', 'run_end', 'log_end']);
  t.match(pieces[0], { kind: 'run', conversation: true });
  t.notOk('prompt' in pieces[0]!, 'the session\'s stored prompt is the first user turn\'s message, shown there');
  t.same(ofKind(pieces, 'user_turn').map((piece) => [piece.turn, piece.content]), [
    [1, 'Write "Remember the milk." in NOTE.md.'],
    [2, 'Now replace the README.'],
    [3, 'Run the build.'],
    [4, 'Then deploy it.'],
    [5, 'What happened?'],
  ]);
  t.same(ofKind(pieces, 'turn_end').map(({ turn, status, worked }) => [turn, status, worked]), [[1, 'success', true], [2, 'success', true], [3, 'interrupted', true], [4, 'interrupted', false], [5, 'success', true]]);
  t.same(ofKind(pieces, 'tool').map((piece) => piece.call.permissions), [
    [{ decision: 'allowed', asked: true, reason: 'The client allowed this write_file call.' }],
    [{ decision: 'denied', asked: true, reason: 'The client denied permission to run this write_file call. Their reason: keep the README' }],
    [{ decision: 'allowed', asked: true, reason: 'The client allowed this bash call.' }],
  ], 'what was decided, not the text written for the client');
  t.same(ofKind(pieces, 'turn').filter((piece) => piece.turn.final).map((piece) => piece.turn.text), ['Done: NOTE.md holds your note.', 'You said no, so the README is as it was.', 'The build was stopped before it finished, so nothing was deployed.'], 'each answer once');
  t.match(ofKind(pieces, 'run_end')[0]!.summary, { turns: 6, toolCalls: 3, userTurns: 5, interruptedTurns: 2 });
});

t.test('a conversation without a session file (exec\'s stdout, heartbeats first): no "prompt not recorded" note, the turns carry it', async (t) => {
  const pieces = transcriptOf([
    ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
    ev('heartbeat'),
    ev('turn_start', { turn: 1, content: 'Hi' }),
    ev('text', { delta: 'Hello.' }),
    ev('final', { text: 'Hello.' }),
    ev('turn_end', { turn: 1, status: 'success' }),
    ev('run_end', { status: 'success', exitCode: 0 }),
  ]);
  t.same(pieces[0], { kind: 'run', index: 1, runId: R, start: { cwd: '/w', provider: 'p', model: 'm' }, conversation: true });
  t.same(kinds(pieces), ['run', 'user_turn', 'turn', 'turn_end', 'run_end', 'log_end']);
});

t.test('permissions: one remembered for the session (a decision with no request), one never answered', async (t) => {
  const v2 = (type: string, fields: Record<string, unknown> = {}) => ({ ...ev(type, fields), schemaVersion: 2 });
  const ask = (id: string) => v2('permission_request', { id, name: 'bash', action: 'prompt', permission: 'prompt', permissionMode: 'ask', sideEffect: 'shell', reason: 'Permission required: … Answer with a permission_response naming this id' });
  const pieces = transcriptOf([
    v2('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
    v2('tool_call', { id: 'c1', name: 'bash', args: {} }),
    v2('permission_decision', { id: 'c1', name: 'bash', action: 'allow', permission: 'prompt', permissionGranted: true, decisionReason: 'The client allowed bash for the rest of this session.' }),
    v2('tool_result', { id: 'c1', name: 'bash', status: 'ok', output: '', truncated: false }),
    v2('tool_call', { id: 'c2', name: 'bash', args: {} }),
    ask('c2'),
  ]);
  t.same(ofKind(pieces, 'tool').map((piece) => piece.call.permissions), [[{ decision: 'allowed', asked: false, reason: 'The client allowed bash for the rest of this session.' }], [{ decision: 'asked', asked: true, reason: 'Permission required: … Answer with a permission_response naming this id' }]]);
  const many = transcriptOf([v2('run_start', {}), v2('tool_call', { id: 'c1', name: 'bash' }), ...Array.from({ length: 10 }, () => ask('c1'))]);
  t.equal(ofKind(many, 'tool')[0]!.call.permissions!.length, 8, 'a pile of them is bounded');
  t.equal(ofKind(many, 'log_end')[0]!.skipped.length, 2);
});

t.test('several files: a skipped line is named in its file', async (t) => {
  const places = createLogPlaces();
  places.start('a.jsonl', 1);
  places.start('b.jsonl', 4);
  const pieces = applyStep(createTranscript({ places }), [{ lineNo: 2, raw: 'x', problem: 'not JSON' }, { lineNo: 5, raw: 'y', problem: 'not JSON' }]);
  t.same(ofKind(pieces, 'log_end')[0]!.skipped, [{ lineNo: 2, file: 'a.jsonl', reason: 'not JSON' }, { lineNo: 2, file: 'b.jsonl', reason: 'not JSON' }]);
});
