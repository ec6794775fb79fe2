import t, { type Test } from 'tap';
import { CancelledError } from '../../../lib/errors.js';
import { createAnthropicProvider } from '../../../lib/providers/anthropic.js';
import type { ChatMessage } from '../../../lib/protocol/chat.js';
import type { ProviderChunk, ProviderOptions, TurnRequest } from '../../../lib/providers/types.js';
import { event, fakeApi, type Reply } from '../../helpers/sse-server.js';
import { limitFrom, timed } from '../../helpers/timing.js';
import { anthropicStream } from '../../helpers/wire.js';

const KEY = 'sk-ant-test-0123456789abcdef';
const hello: TurnRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

// Anthropic's SSE, frame by frame, as the Messages API streams it.
const messageStart = (input_tokens = 25) =>
  event('message_start', {
    type: 'message_start',
    message: { id: 'msg_01XFDUDYJgAACzvnptvVoYEL', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens, output_tokens: 1 } },
  });
const ping = event('ping', { type: 'ping' });
const textStart = (index: number) => event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
const textDelta = (index: number, text: string) => event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
const toolStart = (index: number, id: string, name: string) => event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } });
const jsonDelta = (index: number, partial_json: string) => event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
const blockStop = (index: number) => event('content_block_stop', { type: 'content_block_stop', index });
const messageDelta = (stop_reason: string, output_tokens: number) => event('message_delta', { type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage: { output_tokens } });
const messageStop = event('message_stop', { type: 'message_stop' });
const textReply = (...deltas: string[]) => [messageStart(), textStart(0), ping, ...deltas.map((delta) => textDelta(0, delta)), blockStop(0), messageDelta('end_turn', 15), messageStop];
const apiError = (type: string, message: string) => ({ type: 'error', error: { type, message } });

async function setup(t: Test, replies: Reply[], options: ProviderOptions = {}) {
  const api = await fakeApi(replies);
  t.teardown(() => api.close());
  const provider = createAnthropicProvider({ apiKey: KEY, baseURL: api.url, model: 'claude-test-1', ...options });
  return { api, provider };
}

/** Pulls the turn to its end; the chunks read so far and the error it ended with, if any. */
async function drain(turn: AsyncIterable<ProviderChunk>) {
  const chunks: ProviderChunk[] = [];
  try {
    for await (const chunk of turn) chunks.push(chunk);
    return { chunks, error: undefined };
  } catch (error) {
    return { chunks, error: error as Error & { code?: string; exitCode?: number } };
  }
}

const run = () => new AbortController().signal;

t.test('text deltas stream as they come, then usage; apiModel is what the API answered', async (t) => {
  const { provider } = await setup(t, [{ sse: textReply('Hel', 'lo', '!') }], { model: undefined });
  t.equal(provider.name, 'anthropic');
  t.equal(provider.model, 'claude-sonnet-4-6');
  t.equal(provider.apiModel, undefined);
  const { chunks, error } = await drain(provider.turn(hello, run()));
  t.equal(error, undefined);
  t.same(chunks, [
    { type: 'text', delta: 'Hel' },
    { type: 'text', delta: 'lo' },
    { type: 'text', delta: '!' },
    { type: 'usage', promptTokens: 25, completionTokens: 15 },
  ]);
  t.equal(provider.apiModel, 'claude-sonnet-4-5-20250929');
});

t.test('asked for, response_start comes at message_start, before the first text, apiModel known then', async (t) => {
  const { provider } = await setup(t, [{ sse: textReply('Hel', 'lo') }], { model: undefined });
  const chunks: ProviderChunk[] = [];
  let modelAtStart: string | undefined;
  for await (const chunk of provider.turn({ ...hello, responseStart: true }, run())) {
    if (chunk.type === 'response_start') modelAtStart = provider.apiModel;
    chunks.push(chunk);
  }
  t.same(chunks.map((chunk) => chunk.type), ['response_start', 'text', 'text', 'usage']);
  t.equal(modelAtStart, 'claude-sonnet-4-5-20250929');
});

t.test('tool_use blocks: input_json_delta fragments assembled, calls in block order after the text', async (t) => {
  const sse = [
    messageStart(472), textStart(0), textDelta(0, 'Let me look.'), blockStop(0),
    toolStart(1, 'toolu_01A', 'read_file'), jsonDelta(1, ''), jsonDelta(1, '{"pa'), ping, jsonDelta(1, 'th": "src/'), jsonDelta(1, 'index.ts"}'), blockStop(1),
    toolStart(2, 'toolu_01B', 'list_files'), jsonDelta(2, '{"dir":'), jsonDelta(2, '"."}'), blockStop(2),
    messageDelta('tool_use', 89), messageStop,
  ];
  const { provider } = await setup(t, [{ sse }], { label: 'claude', model: 'claude-opus-4-1' });
  t.equal(provider.name, 'claude');
  t.equal(provider.model, 'claude-opus-4-1');
  const { chunks, error } = await drain(provider.turn(hello, run()));
  t.equal(error, undefined);
  t.same(chunks, [
    { type: 'text', delta: 'Let me look.' },
    { type: 'tool_call', id: 'toolu_01A', name: 'read_file', args: { path: 'src/index.ts' } },
    { type: 'tool_call', id: 'toolu_01B', name: 'list_files', args: { dir: '.' } },
    { type: 'usage', promptTokens: 472, completionTokens: 89 },
  ]);
});

t.test('a tool_use without input deltas has {} args; invalid JSON gives argsError, not a throw', async (t) => {
  const sse = [
    messageStart(), toolStart(0, 'toolu_1', 'list_files'), blockStop(0),
    toolStart(1, 'toolu_2', 'read_file'), jsonDelta(1, '{"path": '), jsonDelta(1, '"a.ts"'), blockStop(1),
    messageDelta('tool_use', 20), messageStop,
  ];
  const { provider } = await setup(t, [{ sse }]);
  const { chunks, error } = await drain(provider.turn(hello, run()));
  t.equal(error, undefined);
  t.same(chunks[0], { type: 'tool_call', id: 'toolu_1', name: 'list_files', args: {} });
  t.match(chunks[1], { type: 'tool_call', id: 'toolu_2', name: 'read_file', args: undefined, argsError: /not valid JSON.*\{"path": "a\.ts"/ });
  t.equal(chunks.length, 3);
});

t.test('the request: model, stream, max_tokens, earlier tool turns, tools, auth and version headers', async (t) => {
  const { api, provider } = await setup(t, [{ sse: textReply('done') }]);
  const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
  const request: TurnRequest = {
    messages: [
      { role: 'user', content: 'Read two files' },
      { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'toolu_1', name: 'read_file', args: { path: 'a' } }, { id: 'toolu_2', name: 'read_file', args: undefined, argsError: 'bad' }] },
      { role: 'tool', toolCallId: 'toolu_1', name: 'read_file', content: 'A', isError: false },
      { role: 'tool', toolCallId: 'toolu_2', name: 'read_file', content: 'bad', isError: true },
      { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_3', name: 'read_file', args: { path: 'b' } }] },
      { role: 'tool', toolCallId: 'toolu_3', name: 'read_file', content: 'no such file', isError: true },
    ],
    tools: [{ name: 'read_file', description: 'Read a file.', parameters: schema }],
  };
  await drain(provider.turn(request, run()));
  t.equal(api.received.length, 1);
  const [received] = api.received;
  t.equal(received.method, 'POST');
  t.equal(received.url, '/v1/messages');
  // SDK 1.x sends the API key as a bearer token (no x-api-key) and its own API version.
  t.equal(received.headers.authorization, `Bearer ${KEY}`);
  t.match(received.headers['anthropic-version'], /^\d{4}-\d{2}-\d{2}$/);
  t.match(received.body, { model: 'claude-test-1', max_tokens: 8192, stream: true });
  t.same(received.body.messages, [
    { role: 'user', content: 'Read two files' },
    { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } }, { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'A', is_error: false }, { type: 'tool_result', tool_use_id: 'toolu_2', content: 'bad', is_error: true }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_3', name: 'read_file', input: { path: 'b' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_3', content: 'no such file', is_error: true }] },
  ]);
  t.same(received.body.tools, [{ name: 'read_file', description: 'Read a file.', input_schema: schema }]);
});

t.test('no tools: the field is left out', async (t) => {
  const { api, provider } = await setup(t, [{ sse: textReply('x') }]);
  await drain(provider.turn(hello, run()));
  t.notOk('tools' in api.received[0].body);
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const GIF = 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==';

t.test('images: one base64 image block each, in order, before the text block (left out when empty)', async (t) => {
  const { api, provider } = await setup(t, [{ sse: textReply('ok') }]);
  const messages: ChatMessage[] = [
    { role: 'user', content: 'Which is bigger?', images: [{ mediaType: 'image/png', data: PNG }, { mediaType: 'image/gif', data: GIF }] },
    { role: 'assistant', content: 'Same size.', toolCalls: [] },
    { role: 'user', content: '', images: [{ mediaType: 'image/jpeg', data: '/9j/2Q==' }] },
    { role: 'user', content: 'and now?', images: [] },
  ];
  await drain(provider.turn({ messages, tools: [] }, run()));
  t.same(api.received[0].body.messages, [
    {
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: GIF } },
        { type: 'text', text: 'Which is bigger?' },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'Same size.' }] },
    { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/2Q==' } }] },
    { role: 'user', content: 'and now?' },
  ]);
});

t.test('acceptsImages: true unless the profile says otherwise', async (t) => {
  t.equal(createAnthropicProvider({ apiKey: KEY }).acceptsImages, true);
  t.equal(createAnthropicProvider({ apiKey: KEY, acceptsImages: false }).acceptsImages, false);
});

t.test('--reasoning-budget turns extended thinking on, with max_tokens room for the answer above it; none without', async (t) => {
  const { api, provider } = await setup(t, [{ sse: textReply('ok') }], { reasoningBudget: 2048 });
  await drain(provider.turn(hello, run()));
  t.same(api.received[0].body.thinking, { type: 'enabled', budget_tokens: 2048 });
  t.equal(api.received[0].body.max_tokens, 2048 + 8192);

  const plain = await setup(t, [{ sse: textReply('ok') }]);
  await drain(plain.provider.turn(hello, run()));
  t.notOk('thinking' in plain.api.received[0].body);
  t.equal(plain.api.received[0].body.max_tokens, 8192);
});

t.test('-r/--reasoning-effort is a thinking budget: low 4096, medium 10000, high 24000 tokens (minimal 1024); --reasoning-budget wins', async (t) => {
  for (const [effort, budget] of [['minimal', 1024], ['low', 4096], ['medium', 10_000], ['high', 24_000]] as const) {
    const { api, provider } = await setup(t, [{ sse: textReply('ok') }], { reasoningEffort: effort });
    await drain(provider.turn(hello, run()));
    t.same(api.received[0].body.thinking, { type: 'enabled', budget_tokens: budget }, effort);
    t.equal(api.received[0].body.max_tokens, budget + 8192);
    t.notOk('reasoning_effort' in api.received[0].body);
  }
  const both = await setup(t, [{ sse: textReply('ok') }], { reasoningEffort: 'high', reasoningBudget: 2000 });
  await drain(both.provider.turn(hello, run()));
  t.same(both.api.received[0].body.thinking, { type: 'enabled', budget_tokens: 2000 });
});

t.test("a profile's auth header: x-api-key with the key alone replaces the SDK's bearer token; custom headers go along", async (t) => {
  const { api, provider } = await setup(t, [{ sse: textReply('ok') }], { auth: { authHeader: 'x-api-key', customHeaders: { 'X-Region': 'eu' } } });
  const { error } = await drain(provider.turn(hello, run()));
  t.equal(error, undefined);
  t.equal(api.received[0].headers['x-api-key'], KEY);
  t.notOk('authorization' in api.received[0].headers);
  t.equal(api.received[0].headers['x-region'], 'eu');
});

const SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds7fPrE3fPmL2GV7T0KxnEaP';
const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7';

t.test('thinking: thinking_delta pieces are reasoning chunks as they come, each block whole with its signature at its end, then the text', async (t) => {
  const sse = anthropicStream({ thinking: [{ thinking: ['The user ', 'greets me.'], signature: SIGNATURE }, { redacted: REDACTED }], text: ['Hi', ' there.'], usage: [40, 90] });
  const { provider } = await setup(t, [{ sse }], { reasoningBudget: 1024 });
  const { chunks, error } = await drain(provider.turn(hello, run()));
  t.equal(error, undefined);
  t.same(chunks, [
    { type: 'reasoning', delta: 'The user ' },
    { type: 'reasoning', delta: 'greets me.' },
    { type: 'reasoning_block', block: { type: 'thinking', thinking: 'The user greets me.', signature: SIGNATURE } },
    { type: 'reasoning_block', block: { type: 'redacted_thinking', data: REDACTED } },
    { type: 'text', delta: 'Hi' },
    { type: 'text', delta: ' there.' },
    { type: 'usage', promptTokens: 40, completionTokens: 90 },
  ]);
});

t.test('a thinking block that arrives whole in its content_block_start (a compatible server) is reasoning too', async (t) => {
  const start = event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: 'All at once.', signature: 'sig-1' } });
  const { provider } = await setup(t, [{ sse: [messageStart(), start, blockStop(0), textStart(1), textDelta(1, 'Done.'), blockStop(1), messageDelta('end_turn', 9), messageStop] }]);
  const { chunks } = await drain(provider.turn(hello, run()));
  t.same(chunks.slice(0, 3), [
    { type: 'reasoning', delta: 'All at once.' },
    { type: 'reasoning_block', block: { type: 'thinking', thinking: 'All at once.', signature: 'sig-1' } },
    { type: 'text', delta: 'Done.' },
  ]);
});

/** The assistant message the agent loop keeps from a turn's chunks. */
function assistantFrom(chunks: ProviderChunk[]): ChatMessage {
  return {
    role: 'assistant',
    content: chunks.map((chunk) => (chunk.type === 'text' ? chunk.delta : '')).join(''),
    toolCalls: chunks.flatMap((chunk) => (chunk.type === 'tool_call' ? [{ id: chunk.id, name: chunk.name, args: chunk.args }] : [])),
    reasoningBlocks: chunks.flatMap((chunk) => (chunk.type === 'reasoning_block' ? [chunk.block] : [])),
  };
}

t.test('a tool loop with thinking on: the next request sends the thinking blocks back first, verbatim with their signature', async (t) => {
  const first = anthropicStream({
    thinking: [{ thinking: ['I should read ', 'the notes.'], signature: SIGNATURE }, { redacted: REDACTED }],
    text: ['Reading.'],
    toolCalls: [{ id: 'toolu_01', name: 'read_file', args: '{"path":"notes.txt"}' }],
  });
  const { api, provider } = await setup(t, [{ sse: first }, { sse: anthropicStream({ text: ['Friday.'] }) }], { reasoningBudget: 4096 });
  const turn1 = await drain(provider.turn(hello, run()));
  const messages: ChatMessage[] = [...hello.messages, assistantFrom(turn1.chunks), { role: 'tool', toolCallId: 'toolu_01', name: 'read_file', content: 'ship on Friday', isError: false }];
  const turn2 = await drain(provider.turn({ messages, tools: [] }, run()));
  t.equal(turn2.error, undefined);
  t.same(api.received[1].body.messages, [
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should read the notes.', signature: SIGNATURE },
        { type: 'redacted_thinking', data: REDACTED },
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'notes.txt' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'ship on Friday', is_error: false }] },
  ]);
  t.same(api.received[1].body.thinking, { type: 'enabled', budget_tokens: 4096 });
});

t.test('anthropic-compatible without a key: a placeholder key, never ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL from the environment', async (t) => {
  const fromEnv = await fakeApi([{ sse: textReply('wrong server') }]);
  t.teardown(() => fromEnv.close());
  const saved = { ...process.env };
  t.teardown(() => void (process.env = saved));
  Object.assign(process.env, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_AUTH_TOKEN: 'sk-ant-token-from-env', ANTHROPIC_BASE_URL: fromEnv.url });

  const { api, provider } = await setup(t, [{ sse: textReply('ok') }], { apiKey: undefined, label: 'anthropic-compatible' });
  const { error } = await drain(provider.turn(hello, run()));
  t.equal(error, undefined);
  t.equal(api.received[0].headers.authorization, 'Bearer not-needed');
  t.notOk('x-api-key' in api.received[0].headers);
  t.equal(fromEnv.received.length, 0);
  // Without a base URL the SDK's own default, not the environment's (asked of the client: a request would reach the real API).
  const client = (createAnthropicProvider({ apiKey: KEY }) as unknown as { client: { baseURL: string } }).client;
  t.equal(client.baseURL, 'https://api.anthropic.com');
  t.throws(() => createAnthropicProvider({}), { code: 'provider_error', message: /ANTHROPIC_API_KEY/ });
});

t.test('429 with Retry-After, then a good stream: the SDK retries and the turn succeeds', async (t) => {
  const { api, provider } = await setup(t, [{ status: 429, headers: { 'retry-after': '0' }, json: apiError('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit') }, { sse: textReply('ok') }]);
  const { chunks, error } = await drain(provider.turn(hello, run()));
  t.equal(error, undefined);
  t.same(chunks[0], { type: 'text', delta: 'ok' });
  t.equal(api.received.length, 2);
});

for (const status of [529, 500]) {
  t.test(`${status} beyond maxRetries: provider_error, exit 3, after 1 + maxRetries requests`, async (t) => {
    const json = status === 529 ? apiError('overloaded_error', 'Overloaded') : apiError('api_error', 'Internal server error');
    const { api, provider } = await setup(t, [{ status, headers: { 'retry-after-ms': '5' }, json }], { maxRetries: 1 });
    const { chunks, error } = await drain(provider.turn(hello, run()));
    t.same(chunks, []);
    t.match(error, { code: 'provider_error', exitCode: 3, message: new RegExp(`HTTP ${status}.*${status === 529 ? 'Overloaded' : 'Internal server error'}`) });
    t.equal(api.received.length, 2);
  });
}

t.test('401: fails at once, says the key was refused, never shows the key', async (t) => {
  const { api, provider } = await setup(t, [{ status: 401, json: apiError('authentication_error', 'invalid x-api-key') }]);
  const { error } = await drain(provider.turn(hello, run()));
  t.match(error, { code: 'provider_error', exitCode: 3, message: /anthropic refused the API key \(HTTP 401\): invalid x-api-key/ });
  t.notMatch(error!.message, KEY);
  t.equal(api.received.length, 1);
});

t.test('connection dropped mid-stream: the deltas already read, then provider_error', async (t) => {
  // The server cuts the socket right after the ping, which may be lost with it.
  const sse = [messageStart(), textStart(0), textDelta(0, 'one'), textDelta(0, 'two'), ping, textDelta(0, 'three'), blockStop(0), messageDelta('end_turn', 3), messageStop];
  const { provider } = await setup(t, [{ sse, drop: 5, delayMs: 5 }]);
  const { chunks, error } = await drain(provider.turn(hello, run()));
  t.same(chunks, [{ type: 'text', delta: 'one' }, { type: 'text', delta: 'two' }]);
  t.match(error, { code: 'provider_error', exitCode: 3, message: /anthropic connection failed/ });
});

t.test('a stream that ends cleanly before message_stop: provider_error', async (t) => {
  const { provider } = await setup(t, [{ sse: textReply('one').slice(0, 4) }]);
  const { chunks, error } = await drain(provider.turn(hello, run()));
  t.same(chunks, [{ type: 'text', delta: 'one' }]);
  t.match(error, { code: 'provider_error', exitCode: 3, message: /ended before message_stop/ });
});

t.test('a malformed SSE chunk: provider_error after the deltas before it', async (t) => {
  const sse = [messageStart(), textStart(0), textDelta(0, 'fine'), 'event: content_block_delta\ndata: {oops\n\n', messageStop];
  const { provider } = await setup(t, [{ sse }]);
  const { chunks, error } = await drain(provider.turn(hello, run()));
  t.same(chunks, [{ type: 'text', delta: 'fine' }]);
  t.match(error, { code: 'provider_error', exitCode: 3, message: /anthropic sent a malformed stream chunk/ });
});

t.test('an event whose fields have other types than the wire format\'s: provider_error naming the field, never its value', async (t) => {
  const delta = (value: unknown) => event('content_block_delta', { type: 'content_block_delta', index: 0, delta: value });
  const cases: Array<[string, string, RegExp]> = [
    ['text a number', delta({ type: 'text_delta', text: 5 }), /delta\.text is a number, not a string/],
    ['thinking an object', delta({ type: 'thinking_delta', thinking: { a: 1 } }), /delta\.thinking is an object, not a string/],
    ['no delta', event('content_block_delta', { type: 'content_block_delta', index: 0 }), /delta is undefined, not an object/],
    ['a tool id a number', event('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 7, name: 'read_file', input: {} } }), /content_block\.id is a number, not a string/],
    ['output tokens a string', event('message_delta', { type: 'message_delta', delta: {}, usage: { output_tokens: 'lots' } }), /usage\.output_tokens is a string, not a whole number/],
  ];
  for (const [name, bad, message] of cases) {
    const { provider } = await setup(t, [{ sse: [messageStart(), textStart(0), textDelta(0, 'fine'), bad, messageStop] }]);
    const { chunks, error } = await drain(provider.turn(hello, run()));
    t.same(chunks, [{ type: 'text', delta: 'fine' }], name);
    t.match(error, { code: 'provider_error', exitCode: 3, message: /^anthropic sent a malformed stream chunk: / }, name);
    t.match((error as Error).message, message, name);
  }
});

t.test('an error event inside the stream: provider_error naming it', async (t) => {
  const sse = [messageStart(), textStart(0), textDelta(0, 'par'), event('error', apiError('overloaded_error', 'Overloaded')), messageStop];
  const { api, provider } = await setup(t, [{ sse }]);
  const { chunks, error } = await drain(provider.turn(hello, run()));
  t.same(chunks, [{ type: 'text', delta: 'par' }]);
  t.match(error, { code: 'provider_error', exitCode: 3, message: 'anthropic reported an error in the stream (overloaded_error): Overloaded' });
  t.equal(api.received.length, 1, 'a stream already under way is not retried');
});

t.test('a stalled stream ends at the idle timeout, not in a hang', async (t) => {
  // Ten times what a whole turn took just now, and at least 1.5 s: a busy machine can pause a process for tenths of a second.
  const baseline = await setup(t, [{ sse: textReply('before') }]);
  const idle = limitFrom(await timed(() => drain(baseline.provider.turn(hello, run()))), { floorMs: 1500 });
  const { provider } = await setup(t, [{ sse: textReply('before'), stall: 4 }], { idleTimeoutMs: idle });
  const { chunks, error } = await drain(provider.turn(hello, run()));
  t.same(chunks, [{ type: 'text', delta: 'before' }]);
  t.match(error, { code: 'provider_error', exitCode: 3, message: `anthropic stream stalled: no data for ${idle / 1000} s (--idle-timeout).` });
});

t.test('the whole-call timeout ends a slow stream', async (t) => {
  const { provider } = await setup(t, [{ sse: textReply('a', 'b', 'c', 'd', 'e'), delayMs: 80 }], { timeoutMs: 300, idleTimeoutMs: 5000 });
  const { chunks, error } = await drain(provider.turn(hello, run()));
  t.ok(chunks.length < 5);
  t.match(error, { code: 'provider_error', exitCode: 3, message: /timed out after 0.3 s \(--timeout\)/ });
});

t.test('the run cancelled mid-stream: its CancelledError is thrown', async (t) => {
  const { provider } = await setup(t, [{ sse: textReply('a', 'b'), stall: 4 }]);
  const controller = new AbortController();
  const reason = new CancelledError('SIGINT');
  const chunks: ProviderChunk[] = [];
  let thrown: unknown;
  try {
    for await (const chunk of provider.turn(hello, controller.signal)) {
      chunks.push(chunk);
      controller.abort(reason);
    }
  } catch (error) {
    thrown = error;
  }
  t.equal(thrown, reason);
  t.same(chunks, [{ type: 'text', delta: 'a' }]);
});

t.test('a run already cancelled: no request is made', async (t) => {
  const { api, provider } = await setup(t, [{ sse: textReply('a') }]);
  const reason = new CancelledError('SIGTERM');
  const { error } = await drain(provider.turn(hello, AbortSignal.abort(reason)));
  t.equal(error, reason);
  t.equal(api.received.length, 0);
});
