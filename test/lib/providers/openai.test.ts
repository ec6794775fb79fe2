import t, { type Test } from 'tap';
import { CancelledError, ProviderError } from '../../../lib/errors.js';
import { createOpenAIProvider } from '../../../lib/providers/openai.js';
import type { ChatMessage } from '../../../lib/protocol/chat.js';
import type { Provider, ProviderChunk, ProviderOptions, TurnRequest } from '../../../lib/providers/types.js';
import { data, fakeApi, type Reply } from '../../helpers/sse-server.js';
import { limitFrom, timed } from '../../helpers/timing.js';
import { openaiStream, type ReasoningField } from '../../helpers/wire.js';

const KEY = 'sk-test-0123456789abcdefghij';
const API_MODEL = 'gpt-4.1-2025-04-14';

/** One `chat.completion.chunk` frame exactly as OpenAI streams it. */
function frame(delta: Record<string, unknown>, finishReason: string | null = null) {
  return data({
    id: 'chatcmpl-BxQ7dzS1Jm0f3nTq',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: API_MODEL,
    service_tier: 'default',
    system_fingerprint: 'fp_b3f1157249',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  });
}
const usageFrame = (prompt: number, completion: number) =>
  data({
    id: 'chatcmpl-BxQ7dzS1Jm0f3nTq',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: API_MODEL,
    service_tier: 'default',
    system_fingerprint: 'fp_b3f1157249',
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  });
const DONE = data('[DONE]');
const role = frame({ role: 'assistant', content: '', refusal: null });
const text = (content: string) => frame({ content });
const toolStart = (index: number, id: string, name: string) =>
  frame({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] });
const toolArgs = (index: number, piece: string) => frame({ tool_calls: [{ index, function: { arguments: piece } }] });
const helloStream = [role, text('Hel'), text('lo'), frame({}, 'stop'), usageFrame(12, 2), DONE];

const prompt: TurnRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

async function serve(t: Test, replies: Reply[]) {
  const api = await fakeApi(replies);
  t.teardown(() => api.close());
  return api;
}

function provider(url: string, options: ProviderOptions = {}): Provider {
  return createOpenAIProvider({ apiKey: KEY, baseURL: `${url}/v1`, maxRetries: 0, ...options });
}

/** Every chunk the turn yields, and what it threw (if anything). */
async function run(p: Provider, request = prompt, signal = new AbortController().signal, onChunk?: (chunk: ProviderChunk) => void) {
  const chunks: ProviderChunk[] = [];
  try {
    for await (const chunk of p.turn(request, signal)) {
      chunks.push(chunk);
      onChunk?.(chunk);
    }
    return { chunks, error: undefined };
  } catch (error) {
    return { chunks, error };
  }
}

t.test('text deltas as they arrive, then usage; apiModel from the stream', async (t) => {
  const api = await serve(t, [{ sse: helloStream }]);
  const p = provider(api.url);
  t.equal(p.name, 'openai');
  t.equal(p.model, 'gpt-4.1');
  t.equal(p.apiModel, undefined);
  const { chunks, error } = await run(p);
  t.equal(error, undefined);
  t.same(chunks, [
    { type: 'text', delta: 'Hel' },
    { type: 'text', delta: 'lo' },
    { type: 'usage', promptTokens: 12, completionTokens: 2 },
  ]);
  t.equal(p.apiModel, API_MODEL);
  t.equal(createOpenAIProvider({ apiKey: KEY, model: 'gpt-5', label: 'openai-compatible' }).name, 'openai-compatible');
  t.equal(createOpenAIProvider({ apiKey: KEY, model: 'gpt-5' }).model, 'gpt-5');
});

t.test('asked for, response_start comes with the first chunk (the role chunk, no text yet), apiModel known then', async (t) => {
  const api = await serve(t, [{ sse: helloStream }]);
  const p = provider(api.url);
  let modelAtStart: string | undefined;
  const { chunks, error } = await run(p, { ...prompt, responseStart: true }, undefined, (chunk) => {
    if (chunk.type === 'response_start') modelAtStart = p.apiModel;
  });
  t.equal(error, undefined);
  t.same(chunks.map((chunk) => chunk.type), ['response_start', 'text', 'text', 'usage'], 'once, before the text');
  t.equal(modelAtStart, API_MODEL);
});

t.test('response_start waits for a chunk that names the model: Azure opens with a prompt_filter_results chunk whose model is ""', async (t) => {
  const filters = data({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] });
  const api = await serve(t, [{ sse: [filters, ...helloStream] }]);
  const p = provider(api.url);
  let modelAtStart: string | undefined;
  const { chunks, error } = await run(p, { ...prompt, responseStart: true }, undefined, (chunk) => {
    if (chunk.type === 'response_start') modelAtStart = p.apiModel;
  });
  t.equal(error, undefined);
  t.same(chunks.map((chunk) => chunk.type), ['response_start', 'text', 'text', 'usage']);
  t.equal(modelAtStart, API_MODEL, 'run_start, written at response_start, names the model the API answered with');
});

t.test('tool-call fragments are assembled by index and yielded whole, in index order, at the end', async (t) => {
  const api = await serve(t, [
    {
      sse: [
        frame({ role: 'assistant', content: null, refusal: null }),
        toolStart(0, 'call_Rk1', 'read_file'),
        toolArgs(0, '{"pa'),
        toolArgs(0, 'th": "src/'),
        toolStart(1, 'call_Gp2', 'grep'),
        toolArgs(1, '{"pattern":'),
        toolArgs(0, 'index.ts"}'),
        toolArgs(1, ' "TODO", "path"'),
        toolArgs(1, ': "."}'),
        frame({}, 'tool_calls'),
        usageFrame(80, 41),
        DONE,
      ],
    },
  ]);
  const { chunks, error } = await run(provider(api.url));
  t.equal(error, undefined);
  t.same(chunks, [
    { type: 'usage', promptTokens: 80, completionTokens: 41 },
    { type: 'tool_call', id: 'call_Rk1', name: 'read_file', args: { path: 'src/index.ts' } },
    { type: 'tool_call', id: 'call_Gp2', name: 'grep', args: { pattern: 'TODO', path: '.' } },
  ]);
});

t.test('invalid JSON arguments give argsError, not a failure; missing arguments are {}', async (t) => {
  const api = await serve(t, [
    { sse: [toolStart(0, 'call_Bad', 'read_file'), toolArgs(0, '{"path": "a'), toolStart(1, 'call_Empty', 'list'), frame({}, 'tool_calls'), DONE] },
  ]);
  const { chunks, error } = await run(provider(api.url));
  t.equal(error, undefined);
  t.equal(chunks.length, 2);
  t.match(chunks[0], { type: 'tool_call', id: 'call_Bad', name: 'read_file', args: undefined, argsError: /not valid JSON.*\{"path": "a/ });
  t.same(chunks[1], { type: 'tool_call', id: 'call_Empty', name: 'list', args: {} });
});

t.test('a call sent whole in one fragment without an id (some local servers) still gets an id', async (t) => {
  const api = await serve(t, [{ sse: [frame({ tool_calls: [{ index: 0, function: { name: 'list', arguments: '{"path":"."}' } }] }), frame({}, 'tool_calls'), DONE] }]);
  const { chunks, error } = await run(provider(api.url));
  t.equal(error, undefined);
  t.same(chunks, [{ type: 'tool_call', id: 'call_1_0', name: 'list', args: { path: '.' } }]);
});

t.test('the request: model, stream with usage, earlier tool calls and results, tool schemas, bearer key', async (t) => {
  const api = await serve(t, [{ sse: helloStream }]);
  const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false };
  const messages: ChatMessage[] = [
    { role: 'user', content: 'fix it' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'read_file', args: { path: 'a.ts' } }, { id: 'call_2', name: 'list', args: undefined }] },
    { role: 'tool', toolCallId: 'call_1', name: 'read_file', content: 'const a = 1;', isError: false },
    { role: 'tool', toolCallId: 'call_2', name: 'list', content: 'No such directory', isError: true },
    { role: 'assistant', content: 'Done reading.', toolCalls: [] },
    { role: 'user', content: 'thanks' },
  ];
  const { error } = await run(provider(api.url, { model: 'gpt-4.1-mini' }), { messages, tools: [{ name: 'read_file', description: 'Reads a file.', parameters }] });
  t.equal(error, undefined);
  t.equal(api.received.length, 1);
  const [request] = api.received;
  t.equal(request.method, 'POST');
  t.equal(request.url, '/v1/chat/completions');
  t.equal(request.headers.authorization, `Bearer ${KEY}`);
  t.same(request.body, {
    model: 'gpt-4.1-mini',
    messages: [
      { role: 'user', content: 'fix it' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
          { id: 'call_2', type: 'function', function: { name: 'list', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'const a = 1;' },
      { role: 'tool', tool_call_id: 'call_2', content: 'No such directory' },
      { role: 'assistant', content: 'Done reading.' },
      { role: 'user', content: 'thanks' },
    ],
    tools: [{ type: 'function', function: { name: 'read_file', description: 'Reads a file.', parameters } }],
    stream: true,
    stream_options: { include_usage: true },
  });
});

t.test('no tools: no tools field; a local server needs no key', async (t) => {
  const api = await serve(t, [{ sse: helloStream }]);
  const { error } = await run(createOpenAIProvider({ baseURL: `${api.url}/v1`, model: 'llama3.2', label: 'openai-compatible' }));
  t.equal(error, undefined);
  t.notOk('tools' in api.received[0].body);
  t.equal(api.received[0].body.model, 'llama3.2');
  t.equal(api.received[0].headers.authorization, 'Bearer not-needed');
  t.throws(() => createOpenAIProvider({}), { code: 'provider_error', message: /OPENAI_API_KEY/ });
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const JPEG = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHR8eHR0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2Q==';

t.test('images: content parts, the text first (left out when empty), one data URL per image in order', async (t) => {
  const api = await serve(t, [{ sse: helloStream }]);
  const messages: ChatMessage[] = [
    { role: 'user', content: 'What differs?', images: [{ mediaType: 'image/png', data: PNG }, { mediaType: 'image/jpeg', data: JPEG }] },
    { role: 'assistant', content: 'The colour.', toolCalls: [] },
    { role: 'user', content: '', images: [{ mediaType: 'image/webp', data: 'UklGRg==' }] },
    { role: 'user', content: 'and this?', images: [] },
  ];
  const { error } = await run(provider(api.url), { messages, tools: [] });
  t.equal(error, undefined);
  t.same(api.received[0].body.messages, [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What differs?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${JPEG}` } },
      ],
    },
    { role: 'assistant', content: 'The colour.' },
    { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/webp;base64,UklGRg==' } }] },
    { role: 'user', content: 'and this?' },
  ]);
});

t.test('acceptsImages: true unless the profile says otherwise', async (t) => {
  t.equal(createOpenAIProvider({ apiKey: KEY }).acceptsImages, true);
  t.equal(createOpenAIProvider({ baseURL: 'http://127.0.0.1:1/v1', acceptsImages: false }).acceptsImages, false);
});

for (const field of ['reasoning_content', 'reasoning'] satisfies ReasoningField[]) {
  t.test(`\`${field}\` deltas are reasoning chunks, before the text and never in it`, async (t) => {
    const api = await serve(t, [{ sse: openaiStream({ reasoning: ['The user ', 'says hi.'], reasoningField: field, text: ['Hel', 'lo'], usage: [12, 30] }) }]);
    const { chunks, error } = await run(provider(api.url));
    t.equal(error, undefined);
    t.same(chunks, [
      { type: 'reasoning', delta: 'The user ' },
      { type: 'reasoning', delta: 'says hi.' },
      { type: 'text', delta: 'Hel' },
      { type: 'text', delta: 'lo' },
      { type: 'usage', promptTokens: 12, completionTokens: 30 },
    ]);
  });
}

t.test('one delta with both fields: reasoning_content wins, and comes before that delta\'s content', async (t) => {
  const api = await serve(t, [
    { sse: [role, frame({ reasoning_content: 'from vLLM', reasoning: 'from Ollama' }), frame({ reasoning: 'done thinking', content: 'Hi.' }), frame({ reasoning_content: null, content: '!' }), frame({}, 'stop'), DONE] },
  ]);
  const { chunks, error } = await run(provider(api.url));
  t.equal(error, undefined);
  t.same(chunks, [
    { type: 'reasoning', delta: 'from vLLM' },
    { type: 'reasoning', delta: 'done thinking' },
    { type: 'text', delta: 'Hi.' },
    { type: 'text', delta: '!' },
  ]);
});

t.test('nothing of reasoning goes back to the server: the assistant message is its text and tool calls', async (t) => {
  const api = await serve(t, [{ sse: helloStream }]);
  const messages: ChatMessage[] = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'Hello.', toolCalls: [], reasoningBlocks: [{ type: 'thinking', thinking: 'greet back', signature: 'sig' }] },
    { role: 'user', content: 'bye' },
  ];
  await run(provider(api.url), { messages, tools: [] });
  t.same(api.received[0].body.messages[1], { role: 'assistant', content: 'Hello.' });
});

const rateLimited = { error: { message: 'Rate limit reached for gpt-4.1 on tokens per min (TPM).', type: 'tokens', param: null, code: 'rate_limit_exceeded' } };

t.test('429 with Retry-After is retried by the SDK, then succeeds', async (t) => {
  const api = await serve(t, [{ status: 429, headers: { 'retry-after': '0' }, json: rateLimited }, { sse: helloStream }]);
  const { chunks, error } = await run(provider(api.url, { maxRetries: 2 }));
  t.equal(error, undefined);
  t.equal(chunks.length, 3);
  t.equal(api.received.length, 2);
});

t.test('5xx beyond --max-retries: ProviderError after backoff, exit 3', async (t) => {
  const api = await serve(t, [{ status: 500, json: { error: { message: 'The server had an error', type: 'server_error' } } }]);
  const started = Date.now();
  const { error } = await run(provider(api.url, { maxRetries: 1 }));
  t.ok(error instanceof ProviderError);
  t.match(error, { code: 'provider_error', exitCode: 3, message: /HTTP 500.*The server had an error/ });
  t.equal(api.received.length, 2);
  // No Retry-After: the SDK's own backoff, 0.5 s minus up to 25 % jitter.
  t.ok(Date.now() - started >= 370, 'waited before the retry');
});

t.test('429 still refused after the retries says so', async (t) => {
  const api = await serve(t, [{ status: 429, headers: { 'retry-after-ms': '5' }, json: rateLimited }]);
  const { error } = await run(provider(api.url, { maxRetries: 2 }));
  t.match(error, { code: 'provider_error', message: /rate limit \(HTTP 429\) persisted/ });
  t.equal(api.received.length, 3);
});

t.test('401/403 fail at once, saying the key was refused, without the key', async (t) => {
  for (const status of [401, 403]) {
    const api = await serve(t, [
      { status, json: { error: { message: 'Incorrect API key provided: sk-test-***********ghij.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } },
    ]);
    const { error } = await run(provider(api.url, { maxRetries: 2 }));
    t.match(error, { code: 'provider_error', exitCode: 3, message: new RegExp(`refused the API key \\(HTTP ${status}\\)`) });
    t.notMatch((error as Error).message, KEY);
    t.equal(api.received.length, 1, `${status} is not retried`);
  }
});

t.test('a connection dropped mid-stream: the deltas so far, then ProviderError', async (t) => {
  // Dropped before the usage frame; the delay lets earlier frames flush (the helper's drop discards unsent ones).
  const api = await serve(t, [{ sse: helloStream, drop: 4, delayMs: 20 }]);
  const { chunks, error } = await run(provider(api.url, { maxRetries: 2 }));
  t.same(chunks, [{ type: 'text', delta: 'Hel' }, { type: 'text', delta: 'lo' }]);
  t.ok(error instanceof ProviderError);
  t.match(error, { code: 'provider_error', exitCode: 3, message: /^openai connection failed: terminated/ });
  t.equal(api.received.length, 1, 'a stream already under way is not retried');
});

t.test('a malformed SSE chunk: ProviderError after the deltas so far', async (t) => {
  const api = await serve(t, [{ sse: [role, text('Hel'), data('{not json'), text('lo'), DONE] }]);
  const { chunks, error } = await run(provider(api.url));
  t.same(chunks, [{ type: 'text', delta: 'Hel' }]);
  t.match(error, { code: 'provider_error', exitCode: 3, message: /malformed stream chunk/ });
});

t.test('a chunk whose fields have other types than the wire format\'s: ProviderError naming the field, never its value, after the deltas so far', async (t) => {
  const usage = (fields: Record<string, unknown>) => data({ id: 'x', object: 'chat.completion.chunk', model: API_MODEL, choices: [], usage: fields });
  const cases: Array<[string, string, RegExp]> = [
    ['content a number', frame({ content: 5 }), /delta\.content is a number, not a string/],
    ['content an object', frame({ content: { text: 'x' } }), /delta\.content is an object, not a string/],
    ['reasoning an array', frame({ reasoning_content: ['x'] }), /delta\.reasoning_content is an array of string, not a string/],
    ['a tool call id a number', frame({ tool_calls: [{ index: 0, id: 7, function: { name: 'read_file', arguments: '' } }] }), /delta\.tool_calls\[\]\.id is a number, not a string/],
    ['a tool name an array', frame({ tool_calls: [{ index: 0, id: 'c', function: { name: ['read_file'] } }] }), /function\.name is an array of string, not a string/],
    ['tokens a string', usage({ prompt_tokens: 'lots', completion_tokens: 5 }), /usage\.prompt_tokens is a string, not a whole number, 0 or more/],
    ['tokens negative', usage({ prompt_tokens: 1, completion_tokens: -100000000 }), /usage\.completion_tokens is a number, not a whole number, 0 or more/],
    ['no choices list', data({ id: 'x', choices: { 0: {} } }), /choices is an object, not a list/],
    ['a chunk that is null', data('null'), /a chunk is null, not an object/],
    ['a chunk that is a string', data('"str"'), /a chunk is a string, not an object/],
    ['a model that is a number', data({ id: 'x', model: 4, choices: [] }), /model is a number, not a string/],
  ];
  for (const [name, chunk, message] of cases) {
    const api = await serve(t, [{ sse: [role, text('Hel'), chunk, text('lo'), DONE] }]);
    const { chunks, error } = await run(provider(api.url));
    t.same(chunks, [{ type: 'text', delta: 'Hel' }], name);
    t.match(error, { code: 'provider_error', exitCode: 3, message: /^openai sent a malformed stream chunk: / }, name);
    t.match((error as Error).message, message, name);
    t.notMatch((error as Error).message, /lots|read_file|100000000/, `${name}: the value is not shown`);
  }
});

t.test('a chunk with no choices at all, and null fields, is read as saying nothing (servers that send usage alone)', async (t) => {
  const api = await serve(t, [{ sse: [role, text('Hel'), data({ id: 'x', usage: null }), frame({ content: null, tool_calls: null, reasoning: null }), text('lo'), frame({}, 'stop'), usageFrame(3, 2), DONE] }]);
  const { chunks, error } = await run(provider(api.url));
  t.equal(error, undefined);
  t.same(chunks.filter((chunk) => chunk.type === 'text'), [{ type: 'text', delta: 'Hel' }, { type: 'text', delta: 'lo' }]);
  t.match(chunks.at(-1), { type: 'usage', promptTokens: 3, completionTokens: 2 });
});

t.test('a stream that ends cleanly before its finish_reason (a proxy cut it): ProviderError, and no call of it runs', async (t) => {
  const api = await serve(t, [{ sse: [role, text('Writing '), toolStart(0, 'call_1', 'write_file'), toolArgs(0, '{"path":"a.txt","con')] }]);
  const { chunks, error } = await run(provider(api.url));
  t.same(chunks, [{ type: 'text', delta: 'Writing ' }], 'no tool_call is handed out');
  t.match(error, { code: 'provider_error', exitCode: 3, message: 'openai stream ended before its finish_reason: the response is incomplete.' });
});

t.test('a gateway that never sends a finish_reason but ends its stream with [DONE]: a complete response', async (t) => {
  const api = await serve(t, [{ sse: [role, text('Hel'), text('lo'), usageFrame(3, 2), DONE] }]);
  const { chunks, error } = await run(provider(api.url));
  t.equal(error, undefined);
  t.same(chunks.filter((chunk) => chunk.type === 'text'), [{ type: 'text', delta: 'Hel' }, { type: 'text', delta: 'lo' }]);
});

t.test('an error object inside the stream: ProviderError with its message', async (t) => {
  const api = await serve(t, [{ sse: [role, text('Hel'), data({ error: { message: 'overloaded', type: 'server_error' } }), DONE] }]);
  const { chunks, error } = await run(provider(api.url));
  t.same(chunks, [{ type: 'text', delta: 'Hel' }]);
  t.match(error, { code: 'provider_error', exitCode: 3, message: /overloaded/ });
});

/**
 * A limit the first chunk of a turn is sure to beat, however busy the machine: ten times
 * what a whole turn against this server took just now (see limitFrom).
 */
async function limitBeyondFirstChunk(t: Test): Promise<number> {
  const api = await serve(t, [{ sse: helloStream }]);
  // at least 1.5 s: at a load of 10 the first chunk once came later than ten times a quiet baseline (and 200 ms)
  return limitFrom(await timed(() => run(provider(api.url))), { floorMs: 1500 });
}

t.test('a stalled stream ends at the idle timeout, not in a hang', async (t) => {
  const idle = await limitBeyondFirstChunk(t);
  const api = await serve(t, [{ sse: helloStream, stall: 2 }]);
  const { chunks, error } = await run(provider(api.url, { idleTimeoutMs: idle }));
  t.same(chunks, [{ type: 'text', delta: 'Hel' }]);
  t.match(error, { code: 'provider_error', exitCode: 3, message: `openai stream stalled: no data for ${idle / 1000} s (--idle-timeout).` });
});

t.test('the whole-call timeout, while streaming and while waiting out a Retry-After', async (t) => {
  const timeout = await limitBeyondFirstChunk(t);
  // A chunk every 50 ms for three times the limit: the idle clock never fires, the whole-call one must.
  const frames = Math.ceil((3 * timeout) / 50);
  const slow = await serve(t, [{ sse: [role, ...Array.from({ length: frames }, () => text('.')), DONE], delayMs: 50 }]);
  const streaming = await run(provider(slow.url, { timeoutMs: timeout, idleTimeoutMs: 60_000 }));
  t.ok(streaming.chunks.length > 0 && streaming.chunks.length < frames, `${streaming.chunks.length} of ${frames} chunks before the limit`);
  t.match(streaming.error, { code: 'provider_error', exitCode: 3, message: `openai call timed out after ${timeout / 1000} s (--timeout).` });

  // The SDK's sleep goes on after the abort and holds this process until it ends: a Retry-After of seconds, not minutes.
  const waiting = await serve(t, [{ status: 429, headers: { 'retry-after-ms': '5000' }, json: rateLimited }, { sse: helloStream }]);
  const started = Date.now();
  const retrying = await run(provider(waiting.url, { maxRetries: 2, timeoutMs: 300 }));
  t.match(retrying.error, { code: 'provider_error', message: /timed out after 0.3 s/ });
  t.ok(Date.now() - started < 5000, 'did not sleep out the 5 s Retry-After');
});

t.test('the run cancelled mid-stream: its CancelledError is thrown', async (t) => {
  const api = await serve(t, [{ sse: helloStream, stall: 3 }]);
  const controller = new AbortController();
  const cancelled = new CancelledError('SIGINT');
  const { chunks, error } = await run(provider(api.url), prompt, controller.signal, () => controller.abort(cancelled));
  t.same(chunks, [{ type: 'text', delta: 'Hel' }]);
  t.equal(error, cancelled);

  const before = new AbortController();
  before.abort(new CancelledError('SIGTERM'));
  t.equal((await run(provider(api.url), prompt, before.signal)).error, before.signal.reason);
});

t.test("a profile's auth header: authHeader with authScheme raw sends the key as the header's value, no Bearer, and no Authorization", async (t) => {
  const api = await serve(t, [{ sse: helloStream }]);
  const { error } = await run(provider(api.url, { auth: { authHeader: 'api-key', authScheme: 'raw', customHeaders: { 'X-Team': 'core', 'HTTP-Referer': 'https://zero.example' } } }));
  t.equal(error, undefined);
  const { headers } = api.received[0]!;
  t.equal(headers['api-key'], KEY);
  t.notOk('authorization' in headers, 'no Authorization header at all');
  t.equal(headers['x-team'], 'core');
  t.equal(headers['http-referer'], 'https://zero.example');
});

t.test('authScheme alone changes the scheme of the default Authorization header; authHeaderValue is sent as given', async (t) => {
  const api = await serve(t, [{ sse: helloStream }]);
  await run(provider(api.url, { auth: { authScheme: 'Token' } }));
  await run(provider(api.url, { auth: { authHeader: 'X-Gateway-Token', authHeaderValue: 'gw-token-0123456789' } }));
  t.equal(api.received[0]?.headers.authorization, `Token ${KEY}`);
  t.equal(api.received[1]?.headers['x-gateway-token'], 'gw-token-0123456789');
  t.notOk('authorization' in api.received[1]!.headers);
});

t.test('-r/--reasoning-effort is the reasoning_effort of the request; without it the field is absent', async (t) => {
  const api = await serve(t, [{ sse: helloStream }]);
  await run(provider(api.url, { reasoningEffort: 'high' }));
  await run(provider(api.url));
  t.equal(api.received[0]?.body.reasoning_effort, 'high');
  t.notOk('reasoning_effort' in api.received[1]!.body);
});

t.test('parseThinkTags: <think>…</think> in the answer streams as reasoning, not text, tags cut across chunks', async (t) => {
  const answer = ['<thi', 'nk>The user wants', ' a greeting.</th', 'ink>\n\nHel', 'lo!'];
  const api = await serve(t, [{ sse: [role, ...answer.map(text), frame({}, 'stop'), usageFrame(5, 9), DONE] }]);
  const { chunks, error } = await run(provider(api.url, { parseThinkTags: true }));
  t.equal(error, undefined);
  const joined = (type: string) => chunks.filter((chunk) => chunk.type === type).map((chunk) => (chunk as { delta: string }).delta).join('');
  t.equal(joined('reasoning'), 'The user wants a greeting.');
  t.equal(joined('text'), '\n\nHello!');
  t.notMatch(joined('text'), 'think');
  t.same(chunks.at(-1), { type: 'usage', promptTokens: 5, completionTokens: 9 });
  const plain = await serve(t, [{ sse: [role, ...answer.map(text), frame({}, 'stop'), DONE] }]);
  t.equal((await run(provider(plain.url))).chunks.filter((chunk) => chunk.type === 'text').map((chunk) => (chunk as { delta: string }).delta).join(''), answer.join(''), 'off: the tags are text');
});

t.test('one huge event: a clear provider_error naming the size, soon, not a stall after the idle limit', async (t) => {
  const huge = `data: {"choices":[{"index":0,"delta":{"content":"${'x'.repeat(20 * 1024 * 1024)}"}}]}\n\n`;
  const api = await fakeApi([{ sse: [role, huge, DONE] }]);
  t.teardown(() => api.close());
  const { chunks, error } = await run(provider(api.url, { idleTimeoutMs: 60_000 }));
  t.type(error, ProviderError);
  t.match((error as Error).message, /sent one stream event of more than 16777216 bytes \(16 MiB\)/);
  t.notOk(chunks.some((chunk) => chunk.type === 'text' && chunk.delta.length > 1000), 'nothing of it is handed on');
});

t.test('the idle clock counts bytes arriving: one event arriving slowly in pieces is not a stall', async (t) => {
  const content = 'y'.repeat(4000);
  const pieces = [`data: {"choices":[{"index":0,"delta":{"content":"`, ...Array.from({ length: 8 }, () => content.slice(0, 500)), `"}}]}\n\n`];
  const api = await fakeApi([{ sse: [role, ...pieces, frame({}, 'stop'), DONE], delayMs: 150 }]);
  t.teardown(() => api.close());
  const { chunks, error } = await run(provider(api.url, { idleTimeoutMs: 600 }));
  t.equal(error, undefined, 'over 1.5 s for the event, never 600 ms without a byte');
  t.equal(chunks.filter((chunk) => chunk.type === 'text').map((chunk) => (chunk as { delta: string }).delta).join(''), content);
});
