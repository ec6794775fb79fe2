import t from 'tap';
import { agent } from '../../transforms/agent.js';
import { ScriptedProvider, type ScriptTurn } from '../../lib/providers/scripted.js';
import { CancelledError } from '../../lib/errors.js';
import { settled } from '../helpers/timing.js';
import type { Event, ImageInput } from '../../lib/protocol/types.js';
import type { ChatMessage, Provider } from '../../lib/providers/types.js';
import { planTools } from '../../lib/tools/permissions.js';
import { allTools, toolboxFor } from '../../lib/tools/registry.js';
import { stamp } from '../../transforms/stamp.js';
import { checkAgainstSchema } from '../../lib/protocol/validate.js';
import { through, throughUntilError } from '../helpers/streams.js';

const types = (events: Event[]) => events.map((event) => event.type);

function run(turns: ScriptTurn[], cwd: string, extra: Partial<Parameters<typeof agent>[0]> = {}) {
  const provider = new ScriptedProvider(turns);
  return throughUntilError<Event>(agent({ provider, cwd, ...extra }), [{ prompt: 'What is in notes.txt?' }]);
}

t.test('a plain answer: run_start, the deltas, usage, final', async (t) => {
  const cwd = t.testdir({});
  const { out, error } = await run([{ chunks: ['Hello', ' there'], usage: { promptTokens: 3, completionTokens: 2 } }], cwd);
  t.equal(error, undefined);
  t.same(out, [
    { type: 'run_start', cwd, provider: 'scripted', model: 'scripted' },
    { type: 'text', delta: 'Hello' },
    { type: 'text', delta: ' there' },
    { type: 'usage', promptTokens: 3, completionTokens: 2, totalTokens: 5 },
    { type: 'final', text: 'Hello there' },
  ]);
});

t.test('warnings follow run_start', async (t) => {
  const { out } = await run([{ text: 'ok' }], t.testdir({}), { warnings: ['first', 'second'] });
  t.same(types(out).slice(0, 3), ['run_start', 'warning', 'warning']);
});

t.test('a tool round trip: the result reaches the model at the next turn', async (t) => {
  const cwd = t.testdir({ 'notes.txt': 'the secret ingredient is thyme\n' });
  const { out, error } = await run(
    [
      { chunks: ['Reading.'], toolCalls: [{ id: 'call_1', name: 'read_file', args: { path: 'notes.txt' } }] },
      { expect: { contains: ['What is in notes.txt?', 'Reading.', '"path":"notes.txt"', 'thyme'] }, text: 'It says thyme.' },
    ],
    cwd,
  );
  t.equal(error, undefined);
  t.same(types(out), ['run_start', 'text', 'tool_call', 'tool_result', 'text', 'final']);
  t.same(out[2], { type: 'tool_call', id: 'call_1', name: 'read_file', args: { path: 'notes.txt' }, sideEffect: 'read' });
  t.same(out[3], { type: 'tool_result', id: 'call_1', status: 'ok', output: '     1\tthe secret ingredient is thyme', truncated: false });
  t.same(out.at(-1), { type: 'final', text: 'It says thyme.' });
});

t.test('a tool error is a result, and the run goes on', async (t) => {
  const { out, error } = await run(
    [{ toolCalls: [{ id: 'c1', name: 'read_file', args: { path: '../outside.txt' } }, { id: 'c2', name: 'no_such_tool', args: {} }, { id: 'c3', name: 'glob', args: 'not an object' }] }, { text: 'done' }],
    t.testdir({}),
  );
  t.equal(error, undefined);
  const results = out.filter((event) => event.type === 'tool_result');
  t.same(results.map((r) => r.type === 'tool_result' && r.status), ['error', 'error', 'error']);
  t.match(results[0], { output: /outside the working directory/ });
  t.match(results[1], { output: /Unknown tool "no_such_tool"/ });
  const call3 = out.find((event) => event.type === 'tool_call' && event.id === 'c3');
  t.same(call3, { type: 'tool_call', id: 'c3', name: 'glob', sideEffect: 'read' }, 'args that are not an object are left out');
  t.same(out.at(-1), { type: 'final', text: 'done' });
});

t.test('a provider error keeps the deltas already streamed, then fails', async (t) => {
  const { out, error } = await run([{ chunks: ['par', 'tial'], error: { message: 'overloaded', status: 529 } }], t.testdir({}));
  t.same(types(out), ['run_start', 'text', 'text']);
  t.equal((error as { code?: string }).code, 'provider_error');
  t.match(error?.message, /turn 1 \(HTTP 529\): overloaded/);
});

t.test('the turn limit: final with the last text, then max_turns', async (t) => {
  const loop: ScriptTurn = { text: 'again', toolCalls: [{ name: 'list_directory', args: {} }] };
  const { out, error } = await run([loop, loop, loop], t.testdir({}), { maxTurns: 2 });
  t.same(types(out), ['run_start', 'text', 'tool_call', 'tool_result', 'text', 'tool_call', 'tool_result', 'final']);
  t.same(out.at(-1), { type: 'final', text: 'again' });
  t.equal((error as { code?: string; exitCode?: number }).exitCode, 4);
});

t.test('every tool_call is answered before a later failure', async (t) => {
  const { out, error } = await run([{ toolCalls: [{ id: 'a', name: 'list_directory', args: {} }] }], t.testdir({}));
  t.same(types(out), ['run_start', 'tool_call', 'tool_result']);
  t.match(error?.message, /no turn 2/);
});

t.test('cancelling mid-stream stops the provider and fails with the reason', async (t) => {
  const controller = new AbortController();
  const provider = new ScriptedProvider([{ chunks: ['a', 'b', 'c', 'd', 'e'], delayMs: 30 }]);
  const stage = agent({ provider, cwd: t.testdir({}), signal: controller.signal });
  const seen: Event[] = [];
  stage.on('data', (event: Event) => {
    seen.push(event);
    if (event.type === 'text' && event.delta === 'b') controller.abort(new CancelledError('SIGTERM'));
  });
  const failed = new Promise<Error>((resolve) => stage.on('error', resolve));
  stage.end({ prompt: 'go' });
  const error = await failed;
  t.equal((error as { exitCode?: number }).exitCode, 143);
  t.same(types(seen), ['run_start', 'text', 'text']);
  t.ok(provider.handedOut < 5, 'the remaining chunks were never pulled');
});

t.test('cancelling before any prompt arrived fails at once', async (t) => {
  const controller = new AbortController();
  const stage = agent({ provider: new ScriptedProvider([]), cwd: t.testdir({}), signal: controller.signal });
  const failed = new Promise<Error>((resolve) => stage.on('error', resolve));
  controller.abort(new CancelledError('SIGINT'));
  t.equal(((await failed) as { exitCode?: number }).exitCode, 130);
});

t.test('a paused reader stops the provider (backpressure)', async (t) => {
  const provider = new ScriptedProvider([{ chunks: Array.from({ length: 1000 }, (_, i) => `chunk ${i} `) }]);
  const stage = agent({ provider, cwd: t.testdir({}) });
  stage.write({ prompt: 'go' });
  stage.end();
  await settled(() => provider.handedOut);
  t.ok(provider.handedOut <= 2, `handed out ${provider.handedOut} chunks while nobody read`);
  let count = 0;
  for await (const _event of stage) count++;
  t.equal(count, 1 + 1000 + 1, 'run_start, every delta, final');
});

const picture: ImageInput[] = [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }];

/** A provider that remembers what it was asked, answering "seen" each time. */
function listening(acceptsImages?: boolean): Provider & { asked: ChatMessage[][] } {
  const asked: ChatMessage[][] = [];
  return {
    name: 'listening',
    model: 'ears-1',
    acceptsImages,
    asked,
    async *turn(request) {
      asked.push(structuredClone(request.messages));
      yield { type: 'text', delta: 'seen' };
    },
  };
}

t.test('images go to the session and with the prompt to the model', async (t) => {
  const provider = listening();
  const begun: unknown[][] = [];
  const session = { begin: async (...args: unknown[]) => (begun.push(args), { sessionId: 'zero_20261201000000_abcdef', history: [], warnings: [] }) };
  const { out, error } = await throughUntilError<Event>(agent({ provider, cwd: t.testdir({}), session }), [{ prompt: 'What is this?', images: picture }]);
  t.equal(error, undefined);
  t.same(begun, [['What is this?', picture]]);
  t.same(provider.asked[0], [{ role: 'user', content: 'What is this?', images: picture }]);
  t.same(types(out), ['run_start', 'text', 'final']);
});

t.test('images for a provider that takes none: a usage error naming it, before a session or a model request', async (t) => {
  const provider = listening(false);
  let begun = false;
  const session = { begin: async () => ((begun = true), { sessionId: 'zero_20261201000000_abcdef', history: [], warnings: [] }) };
  const { out, error } = await throughUntilError<Event>(agent({ provider, cwd: t.testdir({}), session }), [{ prompt: 'What is this?', images: picture }]);
  t.match(error, { code: 'usage_error', exitCode: 2, message: /provider listening \(model ears-1\) does not take images/ });
  t.same(out, []);
  t.notOk(begun);
  t.same(provider.asked, []);
  const { error: noImages } = await throughUntilError<Event>(agent({ provider: listening(false), cwd: t.testdir({}) }), [{ prompt: 'Plain text.' }]);
  t.equal(noImages, undefined, 'without images it takes the prompt');
});

/** A scripted run of the agent stage, its events stamped in `version` (as the output chain writes them). */
async function stamped(version: 1 | 2, turns: ScriptTurn[], cwd: string, auto: 'low' | 'high') {
  const plan = planTools(allTools, { auto });
  const stage = agent({ provider: new ScriptedProvider(turns), cwd, toolbox: toolboxFor(plan), warnings: plan.warnings });
  const stamping = stage.pipe(stamp({ schemaVersion: version, runId: 'run_20261201000000_abcdef' }));
  stage.end({ prompt: 'go' });
  const out: Record<string, unknown>[] = [];
  for await (const event of stamping) out.push(event);
  return out;
}

const writeThenEdit: ScriptTurn[] = [
  { toolCalls: [{ id: 'w1', name: 'write_file', args: { path: 'notes.txt', content: 'draft\n' } }, { id: 'r1', name: 'read_file', args: { path: '../elsewhere.txt' } }] },
  { toolCalls: [{ id: 'e1', name: 'edit_file', args: { path: 'notes.txt', old_string: 'draft', new_string: 'final' } }] },
  { text: 'done' },
];

for (const auto of ['low', 'high'] as const) {
  t.test(`--auto ${auto}, schema version 2: checkpoint, permission_request and changedFiles, every event valid`, async (t) => {
    const out = await stamped(2, writeThenEdit, t.testdir({}), auto);
    for (const event of out) {
      const verdict = checkAgainstSchema('output.v2', event);
      t.ok(verdict.ok, `${String(event.type)} is valid version 2 ${verdict.ok ? '' : `${verdict.field}: ${verdict.problem}`}`);
    }
    const readRefusal = { type: 'permission_request', id: 'r1', name: 'read_file', permission: 'allow', block: { code: 'outside_workspace', path: '../elsewhere.txt' } };
    if (auto === 'low') {
      t.same(types(out as Event[]), ['run_start', 'tool_call', 'permission_request', 'tool_result', 'tool_call', 'permission_request', 'tool_result', 'tool_call', 'permission_request', 'tool_result', 'text', 'final']);
      t.match(out[2], { type: 'permission_request', id: 'w1', name: 'write_file', action: 'prompt', permission: 'prompt', permissionMode: 'auto', sideEffect: 'write', reason: /^Permission required/ });
      t.match(out[3], { type: 'tool_result', id: 'w1', name: 'write_file', status: 'error', output: /^Permission required/ });
      t.notOk('changedFiles' in out[3]!);
      t.match(out[5], { ...readRefusal, permissionMode: 'auto' });
    } else {
      t.same(types(out as Event[]), ['run_start', 'warning', 'tool_call', 'checkpoint', 'tool_result', 'tool_call', 'permission_request', 'tool_result', 'tool_call', 'checkpoint', 'tool_result', 'text', 'final']);
      t.match(out[3], { type: 'checkpoint', checkpoint: { sequence: 1, tool: 'write_file', files: ['notes.txt'] } });
      t.match(out[4], { type: 'tool_result', id: 'w1', name: 'write_file', status: 'ok', changedFiles: ['notes.txt'] });
      t.match(out[6], { ...readRefusal, permissionMode: 'unsafe' });
      t.match(out[9], { checkpoint: { sequence: 2, tool: 'edit_file', files: ['notes.txt'] } });
      t.match(out[10], { name: 'edit_file', status: 'ok', changedFiles: ['notes.txt'] });
    }
  });

  t.test(`--auto ${auto}, schema version 1: the same run as before, valid version 1`, async (t) => {
    const out = await stamped(1, writeThenEdit, t.testdir({}), auto);
    const expected = auto === 'low' ? ['run_start'] : ['run_start', 'warning'];
    t.same(types(out as Event[]), [...expected, 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'text', 'final']);
    for (const event of out) {
      t.ok(checkAgainstSchema('output', event).ok, `${String(event.type)} is valid version 1`);
      if (event.type === 'tool_result') t.same(Object.keys(event).sort(), ['id', 'output', 'runId', 'schemaVersion', 'status', 'truncated', 'type']);
    }
  });
}
