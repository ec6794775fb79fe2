import { readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { NO_LAST_ANSWER, TURN_LIMIT_REQUEST, runAgent } from '../../../lib/agent/loop.js';
import { answerSchema } from '../../../lib/agent/answer-schema.js';
import { planTools, type PermissionSettings } from '../../../lib/tools/permissions.js';
import { allTools, createToolbox, toolboxFor, type Toolbox } from '../../../lib/tools/registry.js';
import { CancelledError, ZeroError } from '../../../lib/errors.js';
import type { Event, ImageInput } from '../../../lib/protocol/types.js';
import { createMeter, type Meter } from '../../../lib/agent/limits.js';
import type { ChatMessage } from '../../../lib/protocol/chat.js';
import type { Provider, ProviderChunk, TurnRequest } from '../../../lib/providers/types.js';
import { TextSpool } from '../../../lib/files/text-spool.js';
import { createPermissionDesk } from '../../../lib/agent/permission-desk.js';

/** A provider written inline: each turn is a function of what the model receives. */
function provider(turns: ((request: TurnRequest) => ProviderChunk[] | Error)[]): Provider & { seen: ChatMessage[][] } {
  const seen: ChatMessage[][] = [];
  let turn = 0;
  return {
    name: 'inline',
    model: 'inline-model',
    seen,
    async *turn(request) {
      seen.push(structuredClone(request.messages));
      const result = turns[turn++]?.(request) ?? new Error('no more turns');
      if (result instanceof Error) throw result;
      yield* result;
    },
  };
}

type RunOptions = { maxTurns?: number; signal?: AbortSignal; toolbox?: Toolbox; images?: ImageInput[]; history?: ChatMessage[]; meter?: Meter };

async function run(p: Provider, cwd: string, options: RunOptions = {}) {
  const events: Event[] = [];
  let error: unknown;
  try {
    const { toolbox = createToolbox(), maxTurns = 5, signal = new AbortController().signal, images, history, meter } = options;
    for await (const event of runAgent({ prompt: 'start', images, history, provider: p, toolbox, cwd, maxTurns, signal, meter })) events.push(event);
  } catch (caught) {
    error = caught;
  }
  return { events, error };
}

t.test('the model receives the whole conversation: prompt, its own text and calls, the results', async (t) => {
  const p = provider([
    () => [{ type: 'text', delta: 'Listing.' }, { type: 'tool_call', id: 'c1', name: 'list_directory', args: {} }],
    () => [{ type: 'text', delta: 'Two files.' }],
  ]);
  const { events, error } = await run(p, t.testdir({ 'a.txt': '', 'b.txt': '' }));
  t.equal(error, undefined);
  t.same(p.seen[1], [
    { role: 'user', content: 'start' },
    { role: 'assistant', content: 'Listing.', toolCalls: [{ id: 'c1', name: 'list_directory', args: {} }] },
    { role: 'tool', toolCallId: 'c1', name: 'list_directory', content: 'a.txt\nb.txt', isError: false },
  ]);
  t.same(events.at(-1), { type: 'final', text: 'Two files.' });
});

t.test("a provider's tool call ids the output schema refuses are replaced, the same in the events and the conversation", async (t) => {
  const odd = ['a b', '', 'a/../b', 'x'.repeat(300)];
  const p = provider([() => odd.map((id) => ({ type: 'tool_call' as const, id, name: 'list_directory', args: {} })), () => [{ type: 'text', delta: 'Done.' }]]);
  const { events } = await run(p, t.testdir({ 'a.txt': '' }));
  const ids = events.flatMap((event) => (event.type === 'tool_call' ? [event.id] : []));
  t.equal(ids.length, odd.length);
  t.equal(new Set(ids).size, odd.length, 'each call keeps an id of its own');
  for (const id of ids) t.match(id, /^call_[0-9a-f]{16}_\d$/);
  t.same(events.flatMap((event) => (event.type === 'tool_result' ? [event.id] : [])), ids, 'each result answers its call');
  t.same(p.seen[1]!.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])), ids, 'the provider sees the same ids');
});

t.test('the tools are offered to the provider at every turn', async (t) => {
  let offered: string[] = [];
  const p = provider([(request) => ((offered = request.tools.map((tool) => tool.name)), [{ type: 'text', delta: 'ok' }])]);
  await run(p, t.testdir({}));
  t.same(offered.sort(), ['glob', 'grep', 'list_directory', 'read_file']);
});

t.test('empty deltas are dropped; usage gets its total', async (t) => {
  const p = provider([() => [{ type: 'text', delta: '' }, { type: 'text', delta: 'x' }, { type: 'usage', completionTokens: 4 }, { type: 'usage', costUsd: 0.01 }]]);
  const { events } = await run(p, t.testdir({}));
  t.same(events, [
    { type: 'text', delta: 'x' },
    { type: 'usage', completionTokens: 4, totalTokens: 4 },
    { type: 'usage', costUsd: 0.01 },
    { type: 'final', text: 'x' },
  ]);
});

t.test('onResponseStart: asked for at every model call, its events written where the response begins', async (t) => {
  const answer = (request: TurnRequest): ProviderChunk[] => [...(request.responseStart ? [{ type: 'response_start' } as const] : []), { type: 'text', delta: 'Hi.' }];
  const p = provider([answer, answer]);
  const cwd = t.testdir({});
  let calls = 0;
  const onResponseStart = () => (calls++ === 0 ? [{ type: 'warning', message: 'began' } as Event] : []);
  const events: Event[] = [];
  for await (const event of runAgent({ prompt: 'start', provider: p, toolbox: createToolbox(), cwd, maxTurns: 5, signal: new AbortController().signal, onResponseStart })) events.push(event);
  t.same(events, [{ type: 'warning', message: 'began' }, { type: 'text', delta: 'Hi.' }, { type: 'final', text: 'Hi.' }]);
  t.same((await run(provider([answer]), cwd)).events, [{ type: 'text', delta: 'Hi.' }, { type: 'final', text: 'Hi.' }], 'not asked for without it');
});

t.test('a plain error thrown by a provider becomes a provider_error (exit 3), not a crash', async (t) => {
  const p = provider([() => new TypeError('socket hang up')]);
  const { error } = await run(p, t.testdir({}));
  t.ok(error instanceof ZeroError);
  t.match(error, { code: 'provider_error', exitCode: 3, message: 'Provider inline failed: socket hang up' });
});

t.test('tool calls of a failing turn are never announced', async (t) => {
  const p: Provider = {
    name: 'inline',
    model: 'm',
    async *turn() {
      yield { type: 'tool_call', id: 'c1', name: 'list_directory', args: {} };
      throw new Error('dropped connection');
    },
  };
  const { events, error } = await run(p, t.testdir({}));
  t.same(events, []);
  t.match(error, { code: 'provider_error' });
});

t.test('the turn limit: one more call asks for the answer, which is final; a tool it asks for does not run; then max_turns', async (t) => {
  const again = () => [{ type: 'text', delta: 'more' }, { type: 'tool_call', id: 'c', name: 'glob', args: { pattern: '*' } }] as ProviderChunk[];
  const last = (request: TurnRequest) => {
    t.equal(request.tools.length > 0, true, 'the tools are still described (Anthropic refuses tool history without them)');
    return [{ type: 'text', delta: 'Found two files; ' }, { type: 'text', delta: 'not done yet.' }, { type: 'tool_call', id: 'x', name: 'glob', args: { pattern: '**' } }, { type: 'usage', promptTokens: 9, completionTokens: 4 }] as ProviderChunk[];
  };
  const p = provider([again, again, last]);
  const { events, error } = await run(p, t.testdir({}), { maxTurns: 2 });
  t.equal(p.seen.length, 3, 'two turns, then the request for the answer');
  t.same(p.seen[2]!.at(-1), { role: 'user', content: TURN_LIMIT_REQUEST }, "Zero's words end the last request");
  t.equal(TURN_LIMIT_REQUEST, 'You have reached the tool-turn limit. Do not call tools. Give a concise final answer now: summarize what you completed, what you found, and any remaining blockers.');
  t.same(events.slice(-4), [
    { type: 'text', delta: 'Found two files; ' },
    { type: 'text', delta: 'not done yet.' },
    { type: 'usage', promptTokens: 9, completionTokens: 4, totalTokens: 13 },
    { type: 'final', text: 'Found two files; not done yet.' },
  ]);
  t.equal(events.filter((event) => event.type === 'tool_call').length, 2, 'the call in the last answer is neither announced nor run');
  t.match(error, { code: 'max_turns', exitCode: 4, message: /turn limit \(2\)/ });
});

t.test('the turn limit: a last answer that says nothing, or fails, gives Zero\'s fallback answer (and a failure a warning)', async (t) => {
  const call = () => [{ type: 'tool_call', id: 'c', name: 'glob', args: { pattern: '*' } }] as ProviderChunk[];
  const silent = await run(provider([call, () => [{ type: 'text', delta: '  ' }]]), t.testdir({}), { maxTurns: 1 });
  t.same(silent.events.at(-1), { type: 'final', text: NO_LAST_ANSWER });
  t.equal(NO_LAST_ANSWER, 'Agent reached maximum number of turns without a final answer.');
  t.match(silent.error, { code: 'max_turns' });
  const failing = await run(provider([call, () => new Error('socket hang up')]), t.testdir({}), { maxTurns: 1 });
  t.same(failing.events.slice(-2), [
    { type: 'warning', message: 'The last request for an answer at the turn limit failed: Provider inline failed: socket hang up' },
    { type: 'final', text: NO_LAST_ANSWER },
  ]);
  t.match(failing.error, { code: 'max_turns', exitCode: 4 });
});

t.test('the turn limit: a cancellation during the last request ends the run as cancelled', async (t) => {
  const controller = new AbortController();
  const call = () => [{ type: 'tool_call', id: 'c', name: 'glob', args: { pattern: '*' } }] as ProviderChunk[];
  const cancelled = () => {
    controller.abort(new CancelledError('SIGTERM'));
    return [{ type: 'text', delta: 'never shown' }] as ProviderChunk[];
  };
  const { events, error } = await run(provider([call, cancelled]), t.testdir({}), { maxTurns: 1, signal: controller.signal });
  t.notOk(events.some((event) => event.type === 'final'));
  t.match(error, { code: 'cancelled', exitCode: 143 });
});

t.test('an abort ends the run with its reason after the running tool is answered', async (t) => {
  const controller = new AbortController();
  const p = provider([
    () => {
      controller.abort(new CancelledError('SIGINT'));
      return [{ type: 'tool_call', id: 'c1', name: 'list_directory', args: {} }];
    },
  ]);
  const { events, error } = await run(p, t.testdir({}), { signal: controller.signal });
  t.same(events.map((event) => event.type), []);
  t.match(error, { code: 'cancelled', exitCode: 130 });
});

t.test('a provider that ends its stream quietly when cancelled: the run ends cancelled, not with a final', async (t) => {
  const controller = new AbortController();
  const p = provider([
    () => {
      controller.abort(new CancelledError('SIGINT'));
      return [];
    },
  ]);
  const { events, error } = await run(p, t.testdir({}), { signal: controller.signal });
  t.notOk(events.some((event) => event.type === 'final'));
  t.match(error, { code: 'cancelled', exitCode: 130 });
});

t.test('arguments the provider could not parse go back to the model as an error result', async (t) => {
  const p = provider([
    () => [{ type: 'tool_call', id: 'c1', name: 'read_file', args: undefined, argsError: 'The tool arguments are not valid JSON: {"path":' }],
    () => [{ type: 'text', delta: 'Sorry, retrying.' }],
  ]);
  const { events, error } = await run(p, t.testdir({}));
  t.equal(error, undefined);
  t.same(events.slice(0, 2), [
    { type: 'tool_call', id: 'c1', name: 'read_file', sideEffect: 'read' },
    { type: 'tool_result', id: 'c1', status: 'error', output: 'The tool arguments are not valid JSON: {"path":', truncated: false },
  ]);
  t.same(p.seen[1]?.at(-1), { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'The tool arguments are not valid JSON: {"path":', isError: true });
});

// Such arguments crashed the run: redacting and serializing the tool_call event recurse once per level.
t.test('tool arguments nested more than 256 levels deep: an error result the model can act on, no args anywhere', async (t) => {
  const deepArgs = JSON.parse(`{"path":${'['.repeat(5000)}${']'.repeat(5000)}}`);
  const p = provider([
    () => [{ type: 'tool_call', id: 'c1', name: 'read_file', args: deepArgs }],
    () => [{ type: 'text', delta: 'retrying' }],
  ]);
  const { events, error } = await run(p, t.testdir({}));
  t.equal(error, undefined);
  t.same(events.slice(0, 2), [
    { type: 'tool_call', id: 'c1', name: 'read_file', sideEffect: 'read' },
    { type: 'tool_result', id: 'c1', status: 'error', output: 'The tool arguments are nested more than 256 levels deep; send them with less nesting.', truncated: false },
  ]);
  t.same(p.seen[1]![1], { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', args: undefined, argsError: 'The tool arguments are nested more than 256 levels deep; send them with less nesting.' }] });
});

const planned = (settings: PermissionSettings) => toolboxFor(planTools(allTools, settings));
const calls = (...toolCalls: { id: string; name: string; args: unknown }[]) => () => toolCalls.map((call) => ({ type: 'tool_call' as const, ...call }));
const answer = (text: string) => () => [{ type: 'text' as const, delta: text }];

t.test('a tool the plan does not allow (bash with no sandbox): permission_request, then the denied result the model always got', async (t) => {
  const dir = t.testdir({});
  const p = provider([calls({ id: 'b1', name: 'bash', args: { command: 'touch ran' } }), answer('ok')]);
  const { events, error } = await run(p, dir, { toolbox: planned({}) });
  t.equal(error, undefined);
  const reason = 'Permission required: bash runs shell commands outside a sandbox, which this run does not allow. Re-run with --auto high or --skip-permissions-unsafe to allow it.';
  t.same(events.slice(0, 3), [
    { type: 'tool_call', id: 'b1', name: 'bash', args: { command: 'touch ran' }, sideEffect: 'shell' },
    { type: 'permission_request', id: 'b1', name: 'bash', action: 'prompt', permission: 'prompt', permissionMode: 'auto', sideEffect: 'shell', reason },
    { type: 'tool_result', id: 'b1', status: 'error', output: reason, truncated: false },
  ]);
  t.same(p.seen[1]?.at(-1), { role: 'tool', toolCallId: 'b1', name: 'bash', content: reason, isError: true });
  t.same(readdirSync(dir), [], 'it never ran');
});

t.test('--auto low: a write inside is auto-allowed, recorded by a permission_decision before its checkpoint', async (t) => {
  const dir = t.testdir({ 'a.txt': 'keep\n' });
  const p = provider([calls({ id: 'w1', name: 'write_file', args: { path: 'a.txt', content: 'new\n' } }), answer('ok')]);
  const { events } = await run(p, dir, { toolbox: planned({}) });
  t.same(events.slice(0, 4), [
    { type: 'tool_call', id: 'w1', name: 'write_file', args: { path: 'a.txt', content: 'new\n' }, sideEffect: 'write' },
    { type: 'permission_decision', id: 'w1', name: 'write_file', action: 'allow', permission: 'prompt', permissionGranted: true, decisionReason: 'Auto-allowed at --auto low: a write inside the working directory and the --add-dir directories.' },
    { type: 'checkpoint', checkpoint: { sequence: 1, tool: 'write_file', files: ['a.txt'] } },
    { type: 'tool_result', id: 'w1', status: 'ok', output: 'Overwrote "a.txt" with 4 bytes (it had 5 bytes).', truncated: false, changedFiles: ['a.txt'] },
  ]);
  t.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'new\n');
});

t.test('--auto low: a write outside gets no decision, only the path sandbox\'s refusal; a write into .git is refused for want of a permission', async (t) => {
  const dir = t.testdir({ root: { '.git': { hooks: {} } }, outside: {} });
  const root = join(dir, 'root');
  const p = provider([
    calls({ id: 'w1', name: 'write_file', args: { path: '../outside/x', content: 'x' } }, { id: 'w2', name: 'write_file', args: { path: '.git/hooks/pre-commit', content: 'curl evil' } }),
    answer('ok'),
  ]);
  const { events } = await run(p, root, { toolbox: planned({}) });
  t.same(events.map((event) => event.type), ['tool_call', 'permission_request', 'tool_result', 'tool_call', 'permission_request', 'tool_result', 'text', 'final']);
  t.match(events[1], { block: { code: 'outside_workspace', path: '../outside/x' } });
  t.match(events[4], { id: 'w2', permissionMode: 'auto', reason: /^Permission required: write_file would change \.git\/hooks\/pre-commit/ });
  t.notOk('block' in events[4]!, 'the plan, not the path sandbox');
  t.same(readdirSync(join(dir, 'outside')), []);
  t.same(readdirSync(join(root, '.git/hooks')), []);
});

t.test('a tool disabled by --disabled-tools is a plain error: no permission would allow it', async (t) => {
  const p = provider([calls({ id: 'g1', name: 'grep', args: { pattern: 'x' } }), answer('ok')]);
  const { events } = await run(p, t.testdir({}), { toolbox: planned({ disabled: ['grep'] }) });
  t.same(events.map((event) => event.type), ['tool_call', 'tool_result', 'text', 'final']);
});

t.test('a path the sandbox refuses: permission_request with its block, in the run\'s permission mode', async (t) => {
  const dir = t.testdir({ outside: {}, root: {} });
  const root = join(dir, 'root');
  symlinkSync('../outside', join(root, 'out'));
  const p = provider([
    calls({ id: 'w1', name: 'write_file', args: { path: 'out/x.txt', content: 'x' } }, { id: 'r1', name: 'read_file', args: { path: '../outside' } }),
    answer('ok'),
  ]);
  const { events } = await run(p, root, { toolbox: planned({ auto: 'high' }) });
  t.same(events.map((event) => event.type), ['tool_call', 'permission_request', 'tool_result', 'tool_call', 'permission_request', 'tool_result', 'text', 'final']);
  const writeReason = 'Path "out/x.txt" is outside the working directory and the --add-dir directories.';
  t.same(events[1], {
    type: 'permission_request', id: 'w1', name: 'write_file', action: 'prompt', permission: 'prompt', permissionMode: 'unsafe', sideEffect: 'write', reason: writeReason,
    block: { code: 'symlink_traversal', toolName: 'write_file', action: 'deny', path: 'out/x.txt', reason: writeReason, recoverable: false },
  });
  t.same(events[2], { type: 'tool_result', id: 'w1', status: 'error', output: writeReason, truncated: false });
  t.match(events[4], { permission: 'allow', sideEffect: 'read', block: { code: 'outside_workspace', toolName: 'read_file', path: '../outside' } });
  t.same(readdirSync(join(dir, 'outside')), []);
});

t.test('tool call ids repeated in one turn are made unique, with a warning, before results and the next request name them', async (t) => {
  const dir = t.testdir({ 'a.txt': 'A', 'b.txt': 'B', 'c.txt': 'C' });
  const read = (id: string, path: string) => ({ id, name: 'read_file', args: { path } });
  const p = provider([calls(read('c1', 'a.txt'), read('c1', 'b.txt'), read('c1_2', 'c.txt')), answer('read')]);
  const { events, error } = await run(p, dir);
  t.equal(error, undefined);
  t.same(events.map((event) => event.type), ['warning', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'text', 'final']);
  t.same(events[0], { type: 'warning', message: 'The model gave the id "c1" to more than one tool call in a turn; this read_file call is "c1_3" in the events and in what the model is told.' });
  t.same(events.filter((event) => event.type === 'tool_result').map((event) => [event.id, event.output]), [['c1', '     1\tA'], ['c1_3', '     1\tB'], ['c1_2', '     1\tC']]);
  t.same(p.seen[1]?.[1], { role: 'assistant', content: '', toolCalls: [read('c1', 'a.txt'), read('c1_3', 'b.txt'), read('c1_2', 'c.txt')] });
  t.same(p.seen[1]?.slice(2).map((message) => message.role === 'tool' && message.toolCallId), ['c1', 'c1_3', 'c1_2']);
});

// Its checkpoint's targets threw before they returned a promise, and the run ended as a crash, exit 1.
t.test('a patch apply_patch cannot read is an error tool_result; the model tries again and the run goes on', async (t) => {
  const dir = t.testdir({ 'a.txt': 'a\n' });
  const rename = 'diff --git a/a.txt b/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to b.txt\n';
  const p = provider([calls({ id: 'p1', name: 'apply_patch', args: { patch: 'hello' } }), calls({ id: 'p2', name: 'apply_patch', args: { patch: rename } }), answer('renamed')]);
  const { events, error } = await run(p, dir, { toolbox: planned({ auto: 'high' }) });
  t.equal(error, undefined);
  t.same(events.map((event) => event.type), ['tool_call', 'tool_result', 'tool_call', 'checkpoint', 'tool_result', 'text', 'final']);
  t.match(events[1], { type: 'tool_result', id: 'p1', status: 'error', output: /^The patch changes no file/ });
  t.match(events[3], { type: 'checkpoint', checkpoint: { files: ['a.txt', 'b.txt'] } });
  t.match(events[4], { type: 'tool_result', id: 'p2', status: 'ok', output: 'renamed a.txt → b.txt (+0 -0)', changedFiles: ['a.txt', 'b.txt'] });
  t.same(readdirSync(dir), ['b.txt']);
});

t.test('checkpoints before each call that changes files, numbered in the run; changedFiles on its result', async (t) => {
  const dir = t.testdir({ 'a.txt': 'one\n' });
  const p = provider([
    calls(
      { id: 'e1', name: 'edit_file', args: { path: 'a.txt', old_string: 'one', new_string: 'two' } },
      { id: 'l1', name: 'list_directory', args: {} },
      { id: 'e2', name: 'edit_file', args: { path: 'a.txt', old_string: 'absent', new_string: 'x' } },
    ),
    calls({ id: 'p1', name: 'apply_patch', args: { patch: '--- /dev/null\n+++ b/sub/new.txt\n@@ -0,0 +1 @@\n+hi\n' } }),
    answer('done'),
  ]);
  const { events } = await run(p, dir, { toolbox: planned({ auto: 'high' }) });
  t.same(events.map((event) => event.type), [
    ...['tool_call', 'checkpoint', 'tool_result'],
    ...['tool_call', 'tool_result'],
    ...['tool_call', 'checkpoint', 'tool_result'],
    ...['tool_call', 'checkpoint', 'tool_result'],
    ...['text', 'final'],
  ]);
  const checkpoints = events.filter((event) => event.type === 'checkpoint');
  t.same(checkpoints, [
    { type: 'checkpoint', checkpoint: { sequence: 1, tool: 'edit_file', files: ['a.txt'] } },
    { type: 'checkpoint', checkpoint: { sequence: 2, tool: 'edit_file', files: ['a.txt'] } },
    { type: 'checkpoint', checkpoint: { sequence: 3, tool: 'apply_patch', files: ['sub/new.txt'] } },
  ]);
  const results = events.filter((event) => event.type === 'tool_result');
  t.same(results.map((result) => result.type === 'tool_result' && result.changedFiles), [['a.txt'], undefined, undefined, ['sub/new.txt']], 'a failed edit changed nothing');
  t.equal(readFileSync(join(dir, 'sub/new.txt'), 'utf8'), 'hi\n');
});

t.test('images go with the prompt in the run\'s first user message, after the earlier conversation', async (t) => {
  const images: ImageInput[] = [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }];
  const history: ChatMessage[] = [{ role: 'user', content: 'before' }, { role: 'assistant', content: 'earlier', toolCalls: [] }];
  const p = provider([calls({ id: 'l1', name: 'list_directory', args: {} }), answer('a picture')]);
  await run(p, t.testdir({}), { images, history });
  t.same(p.seen[0], [...history, { role: 'user', content: 'start', images }]);
  t.same(p.seen[1]?.slice(0, 3), p.seen[0], 'and stay there for the next turn');
  const plain = provider([answer('ok')]);
  await run(plain, t.testdir({}), { images: [] });
  t.same(plain.seen[0], [{ role: 'user', content: 'start' }], 'no images: no images field');
});

t.test('a tool error is a result, and the run goes on: a path outside, an unknown tool, arguments that are not an object', async (t) => {
  const calls: ProviderChunk[] = [
    { type: 'tool_call', id: 'c1', name: 'read_file', args: { path: '../outside.txt' } },
    { type: 'tool_call', id: 'c2', name: 'no_such_tool', args: {} },
    { type: 'tool_call', id: 'c3', name: 'glob', args: 'not an object' },
  ];
  const { events, error } = await run(provider([() => calls, () => [{ type: 'text', delta: 'done' }]]), t.testdir({}));
  t.equal(error, undefined);
  const results = events.filter((event) => event.type === 'tool_result');
  t.same(results.map((r) => r.type === 'tool_result' && r.status), ['error', 'error', 'error']);
  t.match(results[0], { output: /outside the working directory/ });
  t.match(results[1], { output: /Unknown tool "no_such_tool"/ });
  t.same(events.find((event) => event.type === 'tool_call' && event.id === 'c3'), { type: 'tool_call', id: 'c3', name: 'glob', sideEffect: 'read' }, 'args that are not an object are left out');
  t.same(events.at(-1), { type: 'final', text: 'done' });
});

t.test('every tool_call is answered before a later failure: the call, its result, then the next turn fails', async (t) => {
  const p = provider([() => [{ type: 'tool_call', id: 'a', name: 'list_directory', args: {} }], () => new Error('dropped connection')]);
  const { events, error } = await run(p, t.testdir({}));
  t.same(events.map((event) => event.type), ['tool_call', 'tool_result']);
  t.match(error, { code: 'provider_error', message: /dropped connection/ });
});

t.test('a tool\'s notice (which sandbox a command runs in) comes once, as a warning before its first call', async (t) => {
  const p = provider([calls({ id: 'b1', name: 'bash', args: { command: 'true' } }, { id: 'b2', name: 'bash', args: { command: 'true' } }), answer('ok')]);
  const { events } = await run(p, t.testdir({}), { toolbox: toolboxFor(planTools(allTools, { auto: 'high' }), undefined, 'Commands run here.') });
  t.same(events.map((event) => event.type), ['warning', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'text', 'final']);
  t.same(events[0], { type: 'warning', message: 'Commands run here.' });
});

t.test('a budget spent at the turn limit ends the run as budget_exceeded, not with the fallback answer', async (t) => {
  const again = () => [{ type: 'tool_call', id: 'c', name: 'glob', args: { pattern: '*' } }, { type: 'usage', promptTokens: 1_000_000 }] as ProviderChunk[];
  const p = provider([again, () => [{ type: 'text', delta: 'never asked' }]]);
  const meter = createMeter({ price: { inputPerMTok: 1, outputPerMTok: 1 }, maxBudgetUsd: 1 });
  const { events, error } = await run(p, t.testdir({}), { maxTurns: 1, meter });
  t.equal(p.seen.length, 1, 'the last request for an answer is not made');
  t.match(events.find((event) => event.type === 'usage'), { costUsd: 1 });
  t.notOk(events.some((event) => event.type === 'final' || event.type === 'warning'));
  t.match(error, { code: 'budget_exceeded', exitCode: 4 });
});

t.test('spoolAfterChars: a long answer is not held; its final carries the spool, the text read back whole', async (t) => {
  const pieces = Array.from({ length: 50 }, (_, index) => `piece ${index} 😀 `);
  const p = provider([() => pieces.map((delta) => ({ type: 'text', delta }))]);
  const events: Event[] = [];
  for await (const event of runAgent({ prompt: 'start', provider: p, toolbox: createToolbox(), cwd: t.testdir({}), maxTurns: 5, signal: new AbortController().signal, spoolAfterChars: 100 })) events.push(event);
  const final = events.at(-1) as { type: string; text?: string; spool?: TextSpool };
  t.equal(final.type, 'final');
  t.equal(final.text, '', 'no string of the answer');
  t.ok(final.spool?.spooled, 'the answer is in its spool');
  t.equal(final.spool?.text(), pieces.join(''));
  t.same(
    events.filter((event) => event.type === 'text').map((event) => (event as { delta: string }).delta),
    pieces,
    'the deltas stream as without a spool',
  );
});

t.test('spoolAfterChars: a short answer is a string as without it; a long text before tool calls goes whole in the next request', async (t) => {
  const long = 'x'.repeat(500);
  const p = provider([() => [{ type: 'text', delta: long }, { type: 'tool_call', id: 'c1', name: 'list_directory', args: {} }], () => [{ type: 'text', delta: 'Short.' }]]);
  const events: Event[] = [];
  for await (const event of runAgent({ prompt: 'start', provider: p, toolbox: createToolbox(), cwd: t.testdir({ 'a.txt': '' }), maxTurns: 5, signal: new AbortController().signal, spoolAfterChars: 100 })) events.push(event);
  t.same(p.seen[1]![1], { role: 'assistant', content: long, toolCalls: [{ id: 'c1', name: 'list_directory', args: {} }] }, 'the spooled text, read back');
  t.same(events.at(-1), { type: 'final', text: 'Short.' });
});

t.test('spoolAfterChars with --output-schema: the check reads the answer whole, and the final is its JSON text', async (t) => {
  const answer = { name: 'answer', schema: { type: 'object' }, strict: false, retries: 0, check: (text: string) => ({ ok: true as const, text, value: JSON.parse(text) as unknown }) };
  const json = JSON.stringify({ items: Array.from({ length: 40 }, (_, index) => `item ${index}`) });
  const p = provider([() => [{ type: 'text', delta: json.slice(0, 200) }, { type: 'text', delta: json.slice(200) }]]);
  const events: Event[] = [];
  for await (const event of runAgent({ prompt: 'start', provider: p, toolbox: createToolbox(), cwd: t.testdir({}), maxTurns: 5, signal: new AbortController().signal, spoolAfterChars: 100, answer })) events.push(event);
  t.same(events.at(-1), { type: 'final', text: json, structured: JSON.parse(json) });
});

t.test('spoolAfterChars with --output-schema: an answer sent back is read from its spool once, for its check and the retry request', async (t) => {
  const answer = answerSchema(JSON.stringify({ type: 'object', required: ['items'] }), 'schema.json', 1);
  const wrong = JSON.stringify({ other: 'x'.repeat(300) });
  const right = JSON.stringify({ items: 'y'.repeat(300) });
  const p = provider([() => [{ type: 'text', delta: wrong }], () => [{ type: 'text', delta: right }]]);
  let reads = 0;
  const text = Object.getOwnPropertyDescriptor(TextSpool.prototype, 'text')!.value as (this: TextSpool) => string;
  TextSpool.prototype.text = function (this: TextSpool) {
    reads++;
    return text.call(this);
  };
  t.teardown(() => void (TextSpool.prototype.text = text));
  const events: Event[] = [];
  for await (const event of runAgent({ prompt: 'start', provider: p, toolbox: createToolbox(), cwd: t.testdir({}), maxTurns: 5, signal: new AbortController().signal, spoolAfterChars: 100, answer })) events.push(event);
  t.same(events.at(-1), { type: 'final', text: right, structured: JSON.parse(right) });
  t.equal((p.seen[1]![1] as { content: string }).content, wrong, 'the retry request holds the answer sent back');
  t.equal(reads, 2, 'each answer read back once');
});

t.test('--permission-prompt stdio: an answer given as the request is read, before the next event is asked for, is heard', async (t) => {
  const notices: string[] = [];
  const permissions = createPermissionDesk((message) => notices.push(message), 2_000);
  const p = provider([calls({ id: 'b1', name: 'bash', args: { command: 'touch ran' } }), answer('ok')]);
  const dir = t.testdir({});
  const events: Event[] = [];
  for await (const event of runAgent({ prompt: 'start', provider: p, toolbox: planned({ ask: true }), cwd: dir, maxTurns: 5, signal: new AbortController().signal, permissions })) {
    events.push(event);
    if (event.type === 'permission_request') permissions.answer({ id: event.id, decision: 'deny', reason: 'not now' });
  }
  t.same(notices, [], 'the answer found its request');
  t.match(events.find((event) => event.type === 'permission_decision'), { id: 'b1', action: 'deny', decisionReason: /Their reason: not now/ });
  t.same(readdirSync(dir), [], 'it never ran');
});

t.test('--permission-prompt stdio: a reader that stops at the request leaves no answer waiting, nor its timer', async (t) => {
  const permissions = createPermissionDesk(() => {}, 60_000);
  const p = provider([calls({ id: 'b1', name: 'bash', args: { command: 'touch ran' } }), answer('ok')]);
  const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  const before = timers();
  for await (const event of runAgent({ prompt: 'start', provider: p, toolbox: planned({ ask: true }), cwd: t.testdir({}), maxTurns: 5, signal: new AbortController().signal, permissions })) {
    if (event.type === 'permission_request') break;
  }
  t.equal(timers(), before);
});
