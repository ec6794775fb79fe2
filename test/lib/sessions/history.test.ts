import fc from '../../helpers/property.js';
import t from 'tap';
import { runAgent } from '../../../lib/agent/loop.js';
import { ProviderError } from '../../../lib/errors.js';
import type { Event } from '../../../lib/protocol/types.js';
import type { ChatMessage } from '../../../lib/protocol/chat.js';
import type { Provider, ProviderChunk } from '../../../lib/providers/types.js';
import { conversationFromEvents, historyChars, messageChars, trimHistory, UNANSWERED } from '../../../lib/sessions/history.js';
import { createToolbox } from '../../../lib/tools/registry.js';
import { recordedConversation } from '../../helpers/conversation.js';

const prompt = (content: string) => ({ schemaVersion: 1, type: 'prompt', content });
const stamp = (events: object[], runId: string) => events.map((event) => ({ schemaVersion: 1, runId, ...event }));

/** Two recorded runs of one session, as events.jsonl holds them: the second resumed the first. */
const recorded = [
  prompt('Which files are here? Read the notes.'),
  ...stamp(
    [
      { type: 'run_start', sessionId: 'zero_20240102030405_abc123', cwd: '/work', provider: 'scripted', model: 'scripted' },
      { type: 'text', delta: 'Let me ' },
      { type: 'text', delta: 'look.' },
      { type: 'usage', promptTokens: 10, completionTokens: 5, totalTokens: 15 },
      { type: 'tool_call', id: 'c1', name: 'list_directory', args: { path: '.' }, sideEffect: 'read' },
      { type: 'tool_result', id: 'c1', status: 'ok', output: 'notes.txt\nsrc/', truncated: false },
      { type: 'tool_call', id: 'c2', name: 'read_file', args: { path: 'missing.txt' }, sideEffect: 'read' },
      { type: 'tool_result', id: 'c2', status: 'error', output: 'File not found: missing.txt', truncated: false },
      { type: 'usage', promptTokens: 30, completionTokens: 4, totalTokens: 34 },
      { type: 'tool_call', id: 'c3', name: 'read_file', args: { path: 'notes.txt' }, sideEffect: 'read' },
      { type: 'tool_result', id: 'c3', status: 'ok', output: 'the secret ingredient is thyme', truncated: false },
      { type: 'text', delta: 'The notes say: thyme.' },
      { type: 'usage', promptTokens: 50, completionTokens: 6, totalTokens: 56 },
      { type: 'final', text: 'The notes say: thyme.' },
      { type: 'run_end', status: 'success', exitCode: 0 },
    ],
    'run_20240102030405_aaaaaa',
  ),
  prompt('And in src?'),
  ...stamp(
    [
      { type: 'run_start', sessionId: 'zero_20240102030405_abc123', cwd: '/work', provider: 'scripted', model: 'scripted' },
      { type: 'warning', message: 'History trimmed.' },
      { type: 'tool_call', id: 'c4', name: 'glob', args: { pattern: 'src/**' }, sideEffect: 'read' },
      { type: 'tool_result', id: 'c4', status: 'ok', output: 'src/a.ts', truncated: false },
      { type: 'text', delta: 'One file: src/a.ts.' },
      { type: 'final', text: 'One file: src/a.ts.' },
      { type: 'run_end', status: 'success', exitCode: 0 },
    ],
    'run_20240102030406_bbbbbb',
  ),
];

const expected: ChatMessage[] = [
  { role: 'user', content: 'Which files are here? Read the notes.' },
  {
    role: 'assistant',
    content: 'Let me look.',
    toolCalls: [
      { id: 'c1', name: 'list_directory', args: { path: '.' } },
      { id: 'c2', name: 'read_file', args: { path: 'missing.txt' } },
    ],
  },
  { role: 'tool', toolCallId: 'c1', name: 'list_directory', content: 'notes.txt\nsrc/', isError: false },
  { role: 'tool', toolCallId: 'c2', name: 'read_file', content: 'File not found: missing.txt', isError: true },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c3', name: 'read_file', args: { path: 'notes.txt' } }] },
  { role: 'tool', toolCallId: 'c3', name: 'read_file', content: 'the secret ingredient is thyme', isError: false },
  { role: 'assistant', content: 'The notes say: thyme.', toolCalls: [] },
  { role: 'user', content: 'And in src?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c4', name: 'glob', args: { pattern: 'src/**' } }] },
  { role: 'tool', toolCallId: 'c4', name: 'glob', content: 'src/a.ts', isError: false },
  { role: 'assistant', content: 'One file: src/a.ts.', toolCalls: [] },
];

t.test('a recorded multi-turn, two-run session becomes the whole conversation', async (t) => {
  t.same(conversationFromEvents(recorded), expected);
});

/** Runs the real agent loop with turns written inline; returns what it emitted and what the model saw last. */
async function record(cwd: string, userPrompt: string, turns: (ProviderChunk[] | Error)[], maxTurns = 10) {
  const seen: ChatMessage[][] = [];
  let next = 0;
  const provider: Provider = {
    name: 'inline',
    model: 'inline',
    async *turn(request) {
      seen.push(structuredClone(request.messages));
      const turn = turns[next++] ?? new Error('no more turns');
      if (turn instanceof Error) {
        yield { type: 'text', delta: 'partial answer' };
        throw turn;
      }
      yield* turn;
    },
  };
  const events: Event[] = [];
  let error: unknown;
  try {
    for await (const event of runAgent({ prompt: userPrompt, provider, toolbox: createToolbox(), cwd, maxTurns, signal: new AbortController().signal })) events.push(event);
  } catch (caught) {
    error = caught;
  }
  return { events: [prompt(userPrompt), ...events], seen, error };
}

t.test('the rebuilt conversation is exactly what the agent loop itself sent the model', async (t) => {
  const cwd = t.testdir({ 'notes.txt': 'thyme\n', src: { 'a.ts': 'export {}\n' } });
  const { events, seen, error } = await record(cwd, 'Look around.', [
    [
      { type: 'text', delta: 'Listing ' },
      { type: 'text', delta: 'and reading.' },
      { type: 'tool_call', id: 'c1', name: 'list_directory', args: {} },
      { type: 'tool_call', id: 'c2', name: 'read_file', args: { path: 'notes.txt' } },
      { type: 'tool_call', id: 'c3', name: 'read_file', args: { path: 'nope.txt' } },
      { type: 'usage', promptTokens: 1, completionTokens: 1 },
    ],
    [{ type: 'usage', promptTokens: 2 }, { type: 'tool_call', id: 'c4', name: 'glob', args: { pattern: 'src/*' } }],
    [{ type: 'tool_call', id: 'c5', name: 'read_file', args: 'not an object' as unknown, argsError: 'Arguments are not valid JSON.' }, { type: 'usage', completionTokens: 3 }],
    [{ type: 'text', delta: 'Done.' }],
  ]);
  t.equal(error, undefined);
  t.equal(seen.length, 4);
  const rebuilt = conversationFromEvents(events);
  // What the model saw at its last turn, then its answer. The argument that was
  // not an object is recorded as none (the tool_call event leaves it out).
  const last = seen[3].map((m) => (m.role === 'assistant' ? { ...m, toolCalls: m.toolCalls.map(({ argsError: _e, ...call }) => (call.id === 'c5' ? { ...call, args: {} } : call)) } : m));
  t.same(rebuilt, [...last, { role: 'assistant', content: 'Done.', toolCalls: [] }]);
  t.equal(rebuilt.filter((m) => m.role === 'tool' && m.isError).length, 2, 'the missing file and the bad arguments');
});

t.test('a run that failed mid-way counts up to where it stopped', async (t) => {
  const cwd = t.testdir({ 'notes.txt': 'thyme\n' });
  const { events, seen, error } = await record(cwd, 'Read the notes.', [
    [{ type: 'tool_call', id: 'c1', name: 'read_file', args: { path: 'notes.txt' } }, { type: 'usage', completionTokens: 1 }],
    new ProviderError('overloaded'),
  ]);
  t.ok(error instanceof ProviderError);
  const failed = [...events, { type: 'error', code: 'provider_error', message: 'overloaded', recoverable: false }, { type: 'run_end', status: 'error', exitCode: 3 }];
  const rebuilt = conversationFromEvents([...failed, prompt('Try again.')]);
  t.same(rebuilt, [...seen[1], { role: 'assistant', content: 'partial answer', toolCalls: [] }, { role: 'user', content: 'Try again.' }]);
});

t.test('turn limit: the answer to the last request (Zero\'s words, not recorded) follows the last tool result', async (t) => {
  const cwd = t.testdir({ 'notes.txt': 'thyme\n' });
  const { events, seen } = await record(
    cwd,
    'Loop.',
    [[{ type: 'text', delta: 'Reading.' }, { type: 'tool_call', id: 'c1', name: 'read_file', args: { path: 'notes.txt' } }], [{ type: 'text', delta: 'It says thyme.' }]],
    1,
  );
  t.match(events.at(-1), { type: 'final', text: 'It says thyme.' });
  t.equal(seen.length, 2, 'one turn, then the request for an answer');
  t.same(conversationFromEvents(events), [
    { role: 'user', content: 'Loop.' },
    { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'notes.txt' } }] },
    { role: 'tool', toolCallId: 'c1', name: 'read_file', content: (events.find((e) => e.type === 'tool_result') as { output: string }).output, isError: false },
    { role: 'assistant', content: 'It says thyme.', toolCalls: [] },
  ]);
});

t.test('a tool call never answered (the run was killed while it ran) is kept, and the model is told it has no result', async (t) => {
  t.same(
    conversationFromEvents([
      prompt('go'),
      { type: 'text', delta: 'Calling.' },
      { type: 'tool_call', id: 'a', name: 'read_file', args: { path: 'x' } },
      { type: 'tool_result', id: 'a', status: 'ok', output: 'X', truncated: false },
      { type: 'tool_call', id: 'b', name: 'bash', args: { command: 'make deploy' } },
    ]),
    [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'Calling.', toolCalls: [{ id: 'a', name: 'read_file', args: { path: 'x' } }, { id: 'b', name: 'bash', args: { command: 'make deploy' } }] },
      { role: 'tool', toolCallId: 'a', name: 'read_file', content: 'X', isError: false },
      { role: 'tool', toolCallId: 'b', name: 'bash', content: UNANSWERED, isError: true },
    ],
  );
  t.same(conversationFromEvents([prompt('go'), { type: 'tool_call', id: 'a', name: 'read_file', args: {} }, prompt('again')]), [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'read_file', args: {} }] },
    { role: 'tool', toolCallId: 'a', name: 'read_file', content: UNANSWERED, isError: true },
    { role: 'user', content: 'again' },
  ]);
});

t.test('a call id used again after its result is a later turn\'s call, kept with its own result (servers that number each turn\'s calls from 0)', async (t) => {
  t.same(
    conversationFromEvents([
      prompt('go'),
      { type: 'tool_call', id: 'call_0', name: 'write_file', args: { path: 'a', content: 'A' } },
      { type: 'tool_result', id: 'call_0', status: 'ok', output: 'wrote a', truncated: false },
      { type: 'tool_call', id: 'call_0', name: 'read_file', args: { path: 'a' } },
      { type: 'tool_result', id: 'call_0', status: 'ok', output: 'A', truncated: false },
      { type: 'final', text: 'done' },
    ]).slice(1),
    [
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'write_file', args: { path: 'a', content: 'A' } }] },
      { role: 'tool', toolCallId: 'call_0', name: 'write_file', content: 'wrote a', isError: false },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'read_file', args: { path: 'a' } }] },
      { role: 'tool', toolCallId: 'call_0', name: 'read_file', content: 'A', isError: false },
    ],
  );
});

t.test('a result without its call, and a turn with neither text nor calls, are dropped', async (t) => {
  t.same(
    conversationFromEvents([
      prompt('go'),
      { type: 'tool_result', id: 'z', status: 'ok', output: 'orphan', truncated: false },
      { type: 'final', text: '' },
      { type: 'run_end', status: 'success', exitCode: 0 },
    ]),
    [{ role: 'user', content: 'go' }],
  );
});

t.test('a final without text deltas still gives the answer', async (t) => {
  t.same(conversationFromEvents([prompt('go'), { type: 'run_start' }, { type: 'final', text: 'Answer.' }]), [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: 'Answer.', toolCalls: [] },
  ]);
});

t.test('user message input events count as prompts; other input and unknown events are ignored', async (t) => {
  t.same(
    conversationFromEvents([
      { schemaVersion: 1, type: 'message', role: 'user', content: 'hi' },
      { schemaVersion: 1, type: 'message', role: 'system', content: 'no' },
      { type: 'something_new', delta: 'x' },
      { type: 'text', delta: 42 },
      { type: 'tool_call', id: 1, name: 'x' },
      { type: 'text', delta: 'hello' },
    ]),
    [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', toolCalls: [] },
    ],
  );
});

t.test('version 2: a recorded message with images gives them back with its text; reasoning is not part of the conversation', async (t) => {
  const image = { mediaType: 'image/png', data: 'iVBORw0KGgo=' };
  t.same(
    conversationFromEvents([
      { schemaVersion: 2, type: 'message', role: 'user', content: 'What is this?', images: [image, { mediaType: 'image/png' }] },
      ...stamp([{ type: 'reasoning', delta: 'A tiny PNG.' }, { type: 'text', delta: 'A pixel.' }, { type: 'final', text: 'A pixel.' }], 'run_20240102030405_abc123'),
      { schemaVersion: 2, type: 'message', role: 'user', content: '', images: [image] },
    ]),
    [
      { role: 'user', content: 'What is this?', images: [image] },
      { role: 'assistant', content: 'A pixel.', toolCalls: [] },
      { role: 'user', content: '', images: [image] },
    ],
    'a malformed image is left out, a message of images alone is kept',
  );
});

t.test('no events, no conversation', async (t) => {
  t.same(conversationFromEvents([]), []);
});

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string, ...calls: [string, string, unknown][]): ChatMessage => ({ role: 'assistant', content, toolCalls: calls.map(([id, name, args]) => ({ id, name, args })) });
const tool = (id: string, content: string): ChatMessage => ({ role: 'tool', toolCallId: id, name: 'read_file', content, isError: false });

t.test('size: content, plus tool call names and arguments', async (t) => {
  t.equal(messageChars(user('abc')), 3);
  t.equal(messageChars(tool('c', 'abcd')), 4);
  t.equal(messageChars(assistant('ab', ['c', 'read_file', { path: 'x' }])), 2 + 9 + JSON.stringify({ path: 'x' }).length);
  t.equal(messageChars(assistant('', ['c', 'f', undefined])), 1 + 2);
  t.equal(historyChars([user('ab'), assistant('cd')]), 4);
});

t.test('trim: a history that fits is kept whole', async (t) => {
  const history = [user('aaaa'), assistant('bbbb')];
  t.same(trimHistory(history, 8), { messages: history, trimmed: false });
  t.same(trimHistory([], 0), { messages: [], trimmed: false });
});

t.test('trim: whole user turns go from the oldest end until it fits', async (t) => {
  const history = [
    user('1111'),
    assistant('', ['c1', 'read_file', {}]),
    tool('c1', 'x'.repeat(100)),
    assistant('done'),
    user('2222'),
    assistant('bbbb'),
    user('3333'),
    assistant('', ['c2', 'read_file', {}]),
    tool('c2', 'yyyy'),
    assistant('cccc'),
  ];
  const { messages, trimmed } = trimHistory(history, 40);
  t.equal(trimmed, true);
  t.same(messages, history.slice(4));
  t.same(trimHistory(history, 30).messages, history.slice(6));
  t.same(trimHistory(history, 20), { messages: [], trimmed: true }, 'the newest turn alone does not fit: nothing is kept');
});

t.test('trim: messages before the first user message go first, with the oldest turn', async (t) => {
  const history = [assistant('orphan'), user('1'), assistant('a'), user('2'), assistant('b')];
  t.same(trimHistory(history, 4).messages, [user('1'), assistant('a'), user('2'), assistant('b')]);
  t.same(trimHistory(history, 3).messages, [user('2'), assistant('b')]);
});

t.test('property: trimming drops the fewest whole turns and never orphans a tool message', async () => {
  const turn = fc
    .tuple(fc.string({ maxLength: 20 }), fc.array(fc.tuple(fc.string({ maxLength: 10 }), fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 })), { maxLength: 3 }))
    .map(([prompt, steps]) => {
      const messages: ChatMessage[] = [user(prompt)];
      steps.forEach(([text, results], s) => {
        messages.push(assistant(text, ...results.map((_, r): [string, string, unknown] => [`c${s}_${r}`, 'read_file', { r }])));
        results.forEach((result, r) => messages.push(tool(`c${s}_${r}`, result)));
      });
      return messages;
    });
  fc.assert(
    fc.property(fc.array(turn, { maxLength: 6 }), fc.nat({ max: 400 }), (turns, max) => {
      const history = turns.flat();
      const { messages, trimmed } = trimHistory(history, max);
      const dropped = history.length - messages.length;
      if (historyChars(history) <= max) return !trimmed && dropped === 0;
      // A suffix that starts a user turn (or is empty) and fits…
      if (!trimmed || messages.some((m, i) => m !== history[dropped + i])) return false;
      if (messages.length && messages[0].role !== 'user') return false;
      if (historyChars(messages) > max && messages.length) return false;
      // …every tool message still follows its call…
      const called = new Set(messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((c) => c.id) : [])));
      if (messages.some((m) => m.role === 'tool' && !called.has(m.toolCallId))) return false;
      // …and keeping one more turn would not have fit.
      const starts = history.map((m, i) => (m.role === 'user' ? i : -1)).filter((i) => i >= 0 && i < dropped);
      const previous = starts.at(-1);
      return previous === undefined || historyChars(history.slice(previous)) > max;
    }),
  );
});

t.test('a recorded conversation: a queued turn the interrupt cancelled is not resent, the interrupted turn\'s work is', async (t) => {
  const { events } = recordedConversation();
  const users = conversationFromEvents(events).filter((message) => message.role === 'user').map((message) => message.content);
  t.same(users, ['Write "Remember the milk." in NOTE.md.', 'Now replace the README.', 'Run the build.', 'What happened?'], 'not "Then deploy it."');
  const history = conversationFromEvents(events);
  const build = history.findIndex((message) => message.role === 'user' && message.content === 'Run the build.');
  t.match(history.slice(build), [{ role: 'user', content: 'Run the build.' }, { role: 'assistant', content: 'Running the build.' }, { role: 'tool', isError: true }, { role: 'user', content: 'What happened?' }, { role: 'assistant' }]);
  t.equal(history.length, build + 5);
});

t.test('a conversation\'s first turn cancelled before it ran: its stored prompt is not resent either', async (t) => {
  const run = (turn: number, status: string) => stamp([{ type: 'turn_start', turn, content: `m${turn}` }, { type: 'turn_end', turn, status }], 'run_20240102030405_conv01');
  const events = [prompt('m1'), ...stamp([{ type: 'run_start', cwd: '/w', provider: 'p', model: 'm' }], 'run_20240102030405_conv01'), ...run(1, 'interrupted'), ...run(2, 'interrupted')];
  t.same(conversationFromEvents(events), []);
  const answered = [prompt('m1'), ...stamp([{ type: 'run_start', cwd: '/w', provider: 'p', model: 'm' }, { type: 'turn_start', turn: 1, content: 'm1' }, { type: 'text', delta: 'Half' }, { type: 'turn_end', turn: 1, status: 'interrupted' }], 'run_20240102030405_conv01')];
  t.same(conversationFromEvents(answered), [{ role: 'user', content: 'm1' }, { role: 'assistant', content: 'Half', toolCalls: [] }], 'a turn that said something stays, its partial answer too');
});
