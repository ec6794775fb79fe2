import t from 'tap';
import { agent } from '../../transforms/agent.js';
import { ScriptedProvider, type ScriptTurn } from '../../lib/providers/scripted.js';
import { CancelledError } from '../../lib/errors.js';
import { throughUntilError } from '../helpers/streams.js';
import { settled } from '../helpers/timing.js';
import type { Event } from '../../lib/protocol/types.js';

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
