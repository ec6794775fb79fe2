import t from 'tap';
import { runAgent } from '../../../lib/agent/loop.js';
import { createToolbox } from '../../../lib/tools/registry.js';
import { CancelledError, ZeroError } from '../../../lib/errors.js';
import type { Event } from '../../../lib/protocol/types.js';
import type { ChatMessage, Provider, ProviderChunk, TurnRequest } from '../../../lib/providers/types.js';

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

async function run(p: Provider, cwd: string, options: { maxTurns?: number; signal?: AbortSignal } = {}) {
  const events: Event[] = [];
  let error: unknown;
  try {
    await runAgent({ prompt: 'start', provider: p, toolbox: createToolbox(), cwd, maxTurns: options.maxTurns ?? 5, signal: options.signal ?? new AbortController().signal, emit: async (event) => void events.push(event) });
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

t.test('max turns: final with the last text, then max_turns', async (t) => {
  const again = () => [{ type: 'text', delta: 'more' }, { type: 'tool_call', id: 'c', name: 'glob', args: { pattern: '*' } }] as ProviderChunk[];
  const { events, error } = await run(provider([again, again, again]), t.testdir({}), { maxTurns: 2 });
  t.same(events.at(-1), { type: 'final', text: 'more' });
  t.match(error, { code: 'max_turns', exitCode: 4, message: /turn limit \(2\)/ });
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
