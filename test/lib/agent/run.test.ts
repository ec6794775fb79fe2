import t from 'tap';
import { createAgentRun, type AgentOptions } from '../../../lib/agent/run.js';
import type { ConversationItem } from '../../../lib/agent/conversation.js';
import { CancelledError } from '../../../lib/errors.js';
import type { Event, ImageInput, PromptRequest } from '../../../lib/protocol/types.js';
import type { ChatMessage } from '../../../lib/protocol/chat.js';
import type { Provider } from '../../../lib/providers/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { createOpenAIProvider } from '../../../lib/providers/openai.js';
import { data, fakeApi } from '../../helpers/sse-server.js';

const types = (events: Event[]) => events.map((event) => event.type);

/** Puts the items, closes the input, and pulls every event; the failure they end with, if any. */
async function pull(options: AgentOptions, items: (PromptRequest | ConversationItem)[]) {
  const run = createAgentRun(options);
  for (const item of items) await run.put(item);
  run.close();
  const events: Event[] = [];
  let error: (Error & { code?: string; exitCode?: number }) | undefined;
  try {
    for await (const event of run.events) events.push(event);
  } catch (caught) {
    error = caught as Error;
  }
  return { events, error };
}

/** A session that records what it was told and names itself. */
function session(warnings: string[] = []) {
  const begun: unknown[][] = [];
  return { begun, begin: async (...args: unknown[]) => (begun.push(args), { sessionId: 'zero_20261201000000_abcdef', history: [] as ChatMessage[], warnings }) };
}

/** A provider that remembers what it was asked, answering "seen" each time. */
function listening(acceptsImages?: boolean): Provider & { asked: ChatMessage[][] } {
  const asked: ChatMessage[][] = [];
  return {
    name: 'listening',
    model: 'ears-1',
    apiModel: 'ears-1-2026',
    acceptsImages,
    asked,
    async *turn(request) {
      asked.push(structuredClone(request.messages));
      yield { type: 'text', delta: 'seen' };
    },
  };
}

const picture: ImageInput[] = [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }];

t.test('run_start first (the session id, the model the API names), then the warnings, the run\'s and the session\'s', async (t) => {
  const cwd = t.testdir({});
  const { events, error } = await pull({ provider: listening(), cwd, warnings: ['first'], session: session(['trimmed']) }, [{ prompt: 'hi' }]);
  t.equal(error, undefined);
  t.same(events, [
    { type: 'run_start', sessionId: 'zero_20261201000000_abcdef', cwd, provider: 'listening', model: 'ears-1', apiModel: 'ears-1-2026' },
    { type: 'warning', message: 'first' },
    { type: 'warning', message: 'trimmed' },
    { type: 'text', delta: 'seen' },
    { type: 'final', text: 'seen' },
  ]);
});

t.test('images go to the session and with the prompt to the model', async (t) => {
  const provider = listening();
  const opened = session();
  const { events, error } = await pull({ provider, cwd: t.testdir({}), session: opened }, [{ prompt: 'What is this?', images: picture }]);
  t.equal(error, undefined);
  t.same(opened.begun, [['What is this?', picture]]);
  t.same(provider.asked[0], [{ role: 'user', content: 'What is this?', images: picture }]);
  t.same(types(events), ['run_start', 'text', 'final']);
});

t.test('images for a provider that takes none: a usage error alone, before a session or a model request', async (t) => {
  for (const multiTurn of [false, true]) {
    const provider = listening(false);
    const opened = session();
    const item = multiTurn ? { kind: 'turn' as const, prompt: 'What is this?', images: picture } : { prompt: 'What is this?', images: picture };
    const { events, error } = await pull({ provider, cwd: t.testdir({}), session: opened, multiTurn }, [item]);
    t.match(error, { code: 'usage_error', exitCode: 2, message: /provider listening \(model ears-1\) does not take images/ });
    t.same(events, [], 'no run_start: the run never began');
    t.same(opened.begun, []);
    t.same(provider.asked, []);
  }
});

t.test('run_start and the warnings go out as soon as the model\'s response begins, before its first text', async (t) => {
  const chunk = (delta: object) => data({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1-2025-04-14', choices: [{ index: 0, delta, finish_reason: null }] });
  // the role chunk, then nothing: the first text has not come
  const api = await fakeApi([{ sse: [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hi' })], stall: 1 }]);
  t.teardown(() => api.close());
  const controller = new AbortController();
  const provider = createOpenAIProvider({ apiKey: 'sk-test-0123456789abcdefghij', baseURL: `${api.url}/v1`, maxRetries: 0 });
  const run = createAgentRun({ provider, cwd: t.testdir({}), warnings: ['first'], signal: controller.signal });
  await run.put({ prompt: 'hi' });
  run.close();
  const first = await Promise.race([run.events.next(), new Promise<{ value: string }>((resolve) => setTimeout(() => resolve({ value: 'nothing within 5 s' }), 5000).unref())]);
  t.match(first.value, { type: 'run_start', model: 'gpt-4.1', apiModel: 'gpt-4.1-2025-04-14' });
  t.same((await run.events.next()).value, { type: 'warning', message: 'first' });
  t.equal(api.framesWritten(), 1, 'while the server has sent the role chunk alone');
  const next = run.events.next();
  controller.abort(new CancelledError('SIGINT'));
  t.match(await next.catch((error: unknown) => error), { exitCode: 130 }, 'the run still ends as it would');
});

t.test('a failure once the run began still has its run_start; a signal before the prompt fails alone', async (t) => {
  const failed = await pull({ provider: new ScriptedProvider([]), cwd: t.testdir({}) }, [{ prompt: 'go' }]);
  t.same(types(failed.events), ['run_start']);
  t.match(failed.error, { code: 'provider_error' });
  const controller = new AbortController();
  const run = createAgentRun({ provider: new ScriptedProvider([]), cwd: t.testdir({}), signal: controller.signal });
  const first = run.events.next();
  controller.abort(new CancelledError('SIGINT'));
  t.match(await first.catch((error: unknown) => error), { exitCode: 130 });
  const empty = await pull({ provider: new ScriptedProvider([]), cwd: t.testdir({}) }, []);
  t.same(empty, { events: [], error: undefined }, 'an input that ended without a prompt has no events');
});

t.test('multiTurn: one run_start and one session for the whole conversation, opened with the first turn', async (t) => {
  const opened = session();
  const turns = [{ kind: 'turn' as const, prompt: 'one' }, { kind: 'turn' as const, prompt: 'two' }];
  const { events, error } = await pull({ provider: listening(), cwd: t.testdir({}), session: opened, multiTurn: true }, turns);
  t.equal(error, undefined);
  t.same(types(events), ['run_start', 'turn_start', 'text', 'final', 'turn_end', 'turn_start', 'text', 'final', 'turn_end']);
  t.same(opened.begun, [['one', undefined]]);
});
