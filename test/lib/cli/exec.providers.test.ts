import t, { type Test } from 'tap';
import { checkAgainstSchema } from '../../../lib/protocol/validate.js';
import { zeroHere } from '../../helpers/cli.js';
import { fakeApi, data, event, type Reply } from '../../helpers/sse-server.js';
import { anthropicStream, openaiStream } from '../../helpers/wire.js';
import { cleanEnv, eventTypes, jsonLines, nth, streamedText, writeScript, zero } from '../../helpers/zero.js';

// zero exec against real HTTP servers on 127.0.0.1 that speak each provider's wire format. The runs are in-process
// (zeroHere); bin/zero is spawned for what an SDK prints on the console, which only a process of its own shows.

const OPENAI_KEY = ['sk-proj-', 'T3stKeyT3stKeyT3stKey0123456789'].join('');
const ANTHROPIC_KEY = ['sk-ant-api03-', 'T3stKeyT3stKeyT3stKey0123456789'].join('');

async function run(t: Test, replies: Reply[], env: NodeJS.ProcessEnv, args: string[] = [], files: Record<string, unknown> = { 'notes.txt': 'ship on Friday\n' }, exec = zeroHere) {
  const api = await fakeApi(replies);
  t.teardown(() => api.close());
  const dir = t.testdir(files as never);
  const withUrl = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value?.replace('$API', api.url)]));
  const result = await exec(['exec', '-o', 'stream-json', '-C', dir, ...args.map((arg) => arg.replace('$API', api.url)), 'What does notes.txt say?'], { env: cleanEnv(withUrl) });
  const events = jsonLines(result.stdout);
  for (const e of events) t.ok(checkAgainstSchema('output', e).ok, `${e.type} matches the schema`);
  t.equal(events.at(-1)?.exitCode, result.code, 'exit code = run_end.exitCode');
  t.equal(result.stderr, '');
  return { ...result, events, api, dir };
}

const readNotes = { id: 'call_abc', name: 'read_file', args: '{"path":"notes.txt"}' };

t.test('openai: a tool round trip, and the requests the API received', async (t) => {
  const { events, code, api, dir } = await run(
    t,
    [{ sse: openaiStream({ text: ['Let me ', 'read it.'], toolCalls: [readNotes], usage: [50, 12] }) }, { sse: openaiStream({ text: ['It says: ship on Friday.'], usage: [90, 8] }) }],
    { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: '$API/v1' },
  );
  t.equal(code, 0);
  t.same(eventTypes(events), ['run_start', 'text', 'usage', 'tool_call', 'tool_result', 'text', 'usage', 'final', 'run_end']);
  t.match(events[0], { cwd: dir, provider: 'openai', model: 'gpt-4.1', apiModel: 'gpt-4.1-2025-04-14' });
  t.match(nth(events, 'usage'), { promptTokens: 50, completionTokens: 12, totalTokens: 62 });
  t.match(nth(events, 'tool_call'), { id: 'call_abc', name: 'read_file', args: { path: 'notes.txt' }, sideEffect: 'read' });
  t.match(nth(events, 'tool_result'), { id: 'call_abc', status: 'ok', output: '     1\tship on Friday' });
  t.match(nth(events, 'final'), { text: 'It says: ship on Friday.' });

  t.equal(api.received.length, 2);
  const [first, second] = api.received;
  t.equal(first?.url, '/v1/chat/completions');
  t.equal(first?.headers.authorization, `Bearer ${OPENAI_KEY}`);
  t.match(first?.body, { model: 'gpt-4.1', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'What does notes.txt say?' }] });
  const readFile = (first?.body.tools as { function: { name: string; parameters: unknown } }[]).find((tool) => tool.function.name === 'read_file');
  t.match(readFile?.function.parameters, { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
  t.match(second?.body.messages, [
    { role: 'user' },
    { role: 'assistant', content: 'Let me read it.', tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }] },
    { role: 'tool', tool_call_id: 'call_abc', content: '     1\tship on Friday' },
  ]);
});

t.test('openai: a local server via OPENAI_BASE_URL needs no key', async (t) => {
  const { events, code, api } = await run(t, [{ sse: openaiStream({ model: 'llama3.2:latest', text: ['Hi.'] }) }], { OPENAI_BASE_URL: '$API/v1' }, ['-m', 'llama3.2']);
  t.equal(code, 0);
  t.match(events[0], { provider: 'openai', model: 'llama3.2', apiModel: 'llama3.2:latest' });
  t.match(api.received[0]?.body, { model: 'llama3.2' });
});

t.test('openai: a 429 with Retry-After is retried, and the run succeeds', async (t) => {
  const { events, code, api } = await run(t, [{ status: 429, headers: { 'retry-after': '0' }, json: { error: { message: 'Rate limit reached', type: 'requests' } } }, { sse: openaiStream({ text: ['ok'] }) }], { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: '$API/v1' });
  t.equal(code, 0);
  t.equal(api.received.length, 2);
  t.same(eventTypes(events), ['run_start', 'text', 'final', 'run_end']);
});

t.test('openai: 5xx beyond --max-retries is a provider_error', async (t) => {
  const { events, code, api } = await run(t, [{ status: 503, headers: { 'retry-after': '0' }, json: { error: { message: 'Service unavailable' } } }], { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: '$API/v1' }, ['--max-retries', '1']);
  t.equal(code, 3);
  t.equal(api.received.length, 2, 'one try and one retry');
  t.same(eventTypes(events), ['run_start', 'error', 'run_end']);
  t.match(nth(events, 'error'), { code: 'provider_error', message: /HTTP 503.*Service unavailable/ });
});

t.test('openai: a refused key fails at once, and the key never shows', async (t) => {
  const { events, code, api, stdout } = await run(t, [{ status: 401, json: { error: { message: `Incorrect API key provided: ${OPENAI_KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } } }], { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: '$API/v1' });
  t.equal(code, 3);
  t.equal(api.received.length, 1, 'no retry');
  t.match(events.at(-2), { code: 'provider_error', message: /refused the API key \(HTTP 401\)/ });
  t.notMatch(stdout, OPENAI_KEY);
  t.notMatch(stdout, OPENAI_KEY.slice(10));
});

t.test('openai: a connection dropped mid-stream keeps the deltas before it', async (t) => {
  const { events, code } = await run(t, [{ sse: openaiStream({ text: ['Half ', 'an ', 'answer'] }), drop: 3 }], { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: '$API/v1' });
  t.equal(code, 3);
  t.same(eventTypes(events), ['run_start', 'text', 'error', 'run_end']);
  t.match(nth(events, 'error'), { code: 'provider_error', recoverable: false });
  t.equal(streamedText(events), 'Half an ');
});

t.test('openai: a malformed chunk and an error inside the stream', async (t) => {
  const malformed = await run(t, [{ sse: [...openaiStream({ text: ['a'] }).slice(0, 2), 'data: {"id": oops\n\n'] }], { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: '$API/v1' });
  t.equal(malformed.code, 3);
  t.same(eventTypes(malformed.events), ['run_start', 'text', 'error', 'run_end']);
  const inStream = await run(t, [{ sse: [...openaiStream({ text: ['a'] }).slice(0, 2), data({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } })] }], { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: '$API/v1' });
  t.equal(inStream.code, 3);
  t.match(inStream.events.at(-2), { code: 'provider_error', message: /server had an error/ });
});

t.test('openai: a stalled stream ends with --idle-timeout, not a hang', async (t) => {
  // The stream stalls after its first frame, which carries no text: a fresh zero on a busy
  // machine may read it after 0.3 s or before, and the run is the same either way. That the
  // text before a stall is kept is checked in-process (test/lib/providers/openai.test.ts),
  // where the limit can be derived from a cheap baseline.
  const { events, code } = await run(t, [{ sse: openaiStream({ text: ['never sent'] }), stall: 1 }], { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: '$API/v1' }, ['--idle-timeout', '0.3']);
  t.equal(code, 3);
  t.same(eventTypes(events), ['run_start', 'error', 'run_end']);
  t.match(nth(events, 'error'), { code: 'provider_error', message: 'openai stream stalled: no data for 0.3 s (--idle-timeout).' });
});

t.test('openai: invalid JSON in tool arguments goes back to the model, and the turn continues', async (t) => {
  const broken = { id: 'call_bad', name: 'read_file', args: '{"path": "notes.txt"' };
  const { events, code, api } = await run(t, [{ sse: openaiStream({ toolCalls: [broken] }) }, { sse: openaiStream({ text: ['Sorry, malformed call.'] }) }], { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: '$API/v1' });
  t.equal(code, 0);
  t.same(eventTypes(events), ['run_start', 'tool_call', 'tool_result', 'text', 'final', 'run_end']);
  t.same(Object.keys(nth(events, 'tool_call') ?? {}).includes('args'), false, 'no args for arguments that are not an object');
  t.match(nth(events, 'tool_result'), { status: 'error', output: /not valid JSON/ });
  t.match(api.received[1]?.body.messages.at(-1), { role: 'tool', tool_call_id: 'call_bad', content: /not valid JSON/ });
});

t.test('anthropic: a tool round trip, and the requests the API received', async (t) => {
  const { events, code, api } = await run(
    t,
    [{ sse: anthropicStream({ text: ['Reading.'], toolCalls: [{ id: 'toolu_01', name: 'read_file', args: '{"path":"notes.txt"}' }], usage: [30, 9] }) }, { sse: anthropicStream({ text: ['Friday.'], usage: [70, 3] }) }],
    { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: '$API' },
  );
  t.equal(code, 0);
  t.same(eventTypes(events), ['run_start', 'text', 'usage', 'tool_call', 'tool_result', 'text', 'usage', 'final', 'run_end']);
  t.match(events[0], { provider: 'anthropic', model: 'claude-sonnet-4-6', apiModel: 'claude-sonnet-4-5-20250929' });
  t.match(nth(events, 'usage'), { promptTokens: 30, completionTokens: 9, totalTokens: 39 });
  t.match(nth(events, 'tool_call'), { id: 'toolu_01', name: 'read_file', args: { path: 'notes.txt' } });
  t.equal(api.received[0]?.url, '/v1/messages');
  const { authorization, 'x-api-key': apiKey } = api.received[0]?.headers ?? {};
  t.ok(authorization === `Bearer ${ANTHROPIC_KEY}` || apiKey === ANTHROPIC_KEY, 'the key is sent');
  t.match(api.received[0]?.body, { model: 'claude-sonnet-4-6', stream: true });
  t.match(api.received[1]?.body.messages, [
    { role: 'user' },
    { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'notes.txt' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '     1\tship on Friday' }] },
  ]);
});

t.test('anthropic: an error event inside the stream', async (t) => {
  const frames = anthropicStream({ text: ['par', 'tial'] }).slice(0, 5);
  const { events, code } = await run(t, [{ sse: [...frames, event('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })] }], { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: '$API' });
  t.equal(code, 3);
  t.same(eventTypes(events), ['run_start', 'text', 'error', 'run_end']);
  t.match(nth(events, 'error'), { code: 'provider_error', message: /Overloaded/ });
  t.equal(streamedText(events), 'partial');
});

t.test('a project config file picks the profile; a key read from it is redacted everywhere', async (t) => {
  const fileKey = 'local-file-key-7fa9c2e1';
  const files = { '.zero': { 'config.json': JSON.stringify({ activeProvider: 'local', providers: [{ name: 'local', provider: 'openai-compatible', baseURL: '$API/v1', model: 'qwen2.5', apiKey: fileKey }] }) } };
  const api = await fakeApi([{ sse: openaiStream({ model: 'qwen2.5-7b', text: [`Your key is ${fileKey}.`] }) }]);
  t.teardown(() => api.close());
  const dir = t.testdir(JSON.parse(JSON.stringify(files).replace('$API', api.url)));
  const result = await zeroHere(['exec', '-o', 'stream-json', '-C', dir, 'hi'], { env: cleanEnv({ OPENAI_API_KEY: OPENAI_KEY }) });
  t.equal(result.code, 0);
  const events = jsonLines(result.stdout);
  t.match(events[0], { provider: 'openai-compatible', model: 'qwen2.5', apiModel: 'qwen2.5-7b' });
  t.equal(api.received[0]?.headers.authorization, `Bearer ${fileKey}`, 'the profile key, not OPENAI_API_KEY, goes to the profile URL');
  t.notMatch(result.stdout, fileKey);
  t.equal(streamedText(events), 'Your key is [REDACTED].');
});

t.test('a config file that is not valid JSON is a provider_error naming it', async (t) => {
  const dir = t.testdir({ '.zero': { 'config.json': '{ "activeProvider": ' } });
  const result = await zeroHere(['exec', '-o', 'stream-json', '-C', dir, 'hi'], { env: cleanEnv() });
  t.equal(result.code, 3);
  t.match(jsonLines(result.stdout), [{ type: 'error', code: 'provider_error', message: /^Invalid config file .*\.zero\/config\.json: not valid JSON/ }, { type: 'run_end', exitCode: 3 }]);
});

t.test('what an SDK prints on the console stays off stdout and a quiet stderr (shown with --debug)', async (t) => {
  // This SDK version warns on the console about deprecated models such as claude-sonnet-4-5.
  const quiet = await run(t, [{ sse: anthropicStream({ text: ['ok'] }) }], { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: '$API' }, ['-m', 'claude-sonnet-4-5'], undefined, zero);
  t.equal(quiet.code, 0);
  const api = await fakeApi([{ sse: anthropicStream({ text: ['ok'] }) }]);
  t.teardown(() => api.close());
  const loud = await zero(['exec', '-o', 'stream-json', '--debug', '-m', 'claude-sonnet-4-5', 'hi'], { env: cleanEnv({ ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: api.url }) });
  t.match(loud.stderr, /\[zero debug\] The model 'claude-sonnet-4-5' is deprecated/);
  t.notMatch(loud.stderr, ANTHROPIC_KEY);
});

t.test("a config written by Zero itself (provider_kind, apiKeyEnv) does not block --provider scripted; selected without its key, a clear error", async (t) => {
  const gw = { name: 'gw', provider_kind: 'openai-compatible', baseURL: 'https://gateway.example/v1', apiKeyEnv: 'GATEWAY_API_KEY', model: 'some-model' };
  const dir = t.testdir({ xdg: { zero: { 'config.json': JSON.stringify({ activeProvider: 'gw', providers: [gw] }) } }, work: {} });
  const script = writeScript(dir, [{ text: 'Hello from the script.' }]);
  const env = cleanEnv({ XDG_CONFIG_HOME: `${dir}/xdg` });
  const ok = await zeroHere(['exec', '-o', 'stream-json', '-C', `${dir}/work`, '--provider', 'scripted', '--script', script, 'hi'], { env });
  t.equal(ok.code, 0, ok.stderr);
  t.equal(ok.stderr, '');
  t.match(jsonLines(ok.stdout).at(-1), { type: 'run_end', exitCode: 0 });
  t.equal(streamedText(jsonLines(ok.stdout)), 'Hello from the script.');

  const selected = await zeroHere(['exec', '-C', `${dir}/work`, 'hi'], { env });
  t.equal(selected.code, 3);
  t.match(selected.stdout + selected.stderr, `Config file ${dir}/xdg/zero/config.json: profile "gw" cannot be used: apiKeyEnv names GATEWAY_API_KEY, which is not set.`);
});
