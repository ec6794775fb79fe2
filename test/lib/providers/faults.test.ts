import t from 'tap';
import { CancelledError, ProviderError } from '../../../lib/errors.js';
import { deadlines, parseToolArguments, providerFailure } from '../../../lib/providers/faults.js';

const httpError = (status: number, message: string) => Object.assign(new Error(`${status} ${message}`), { status, error: { error: { message } } });

t.test('providerFailure words each kind of failure, always as provider_error (exit 3)', async (t) => {
  t.match(providerFailure(httpError(401, 'Incorrect API key provided'), 'openai'), { code: 'provider_error', exitCode: 3, message: 'openai refused the API key (HTTP 401): Incorrect API key provided. Check the key you configured.' });
  t.match(providerFailure(httpError(403, 'forbidden'), 'anthropic'), { message: /^anthropic refused the API key \(HTTP 403\)/ });
  t.match(providerFailure(httpError(429, 'slow down'), 'openai'), { message: 'openai rate limit (HTTP 429) persisted after the retries: slow down' });
  t.match(providerFailure(httpError(500, 'oops'), 'openai'), { message: 'openai request failed (HTTP 500): oops' });
  t.match(providerFailure(new SyntaxError('Unexpected token'), 'openai'), { message: 'openai sent a malformed stream chunk: Unexpected token' });
  t.match(providerFailure(new TypeError('terminated', { cause: new Error('other side closed') }), 'openai'), { message: 'openai connection failed: terminated: other side closed' });
});

t.test('providerFailure lets our own errors through unchanged', async (t) => {
  const cancelled = new CancelledError('SIGINT');
  t.equal(providerFailure(cancelled, 'openai'), cancelled);
});

t.test('deadlines: the idle limit restarts with each chunk; the whole-call limit does not', async (t) => {
  const run = new AbortController();
  const limits = deadlines(run.signal, 'openai', { timeoutMs: 10_000, idleTimeoutMs: 80 });
  t.teardown(() => limits.dispose());
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setTimeout(resolve, 40));
    limits.touch();
  }
  t.notOk(limits.signal.aborted, 'chunks kept arriving within the idle limit');
  await new Promise((resolve) => setTimeout(resolve, 150));
  t.ok(limits.signal.aborted);
  t.match(limits.reason(), { code: 'provider_error', message: 'openai stream stalled: no data for 0.08 s (--idle-timeout).' });
});

t.test('deadlines: the whole-call limit', async (t) => {
  const limits = deadlines(new AbortController().signal, 'anthropic', { timeoutMs: 60, idleTimeoutMs: 10_000 });
  t.teardown(() => limits.dispose());
  await new Promise((resolve) => setTimeout(resolve, 120));
  t.ok(limits.reason() instanceof ProviderError);
  t.match(limits.reason(), { message: 'anthropic call timed out after 0.06 s (--timeout).' });
});

t.test('deadlines: the run being cancelled aborts the call with the run\'s reason', async (t) => {
  const run = new AbortController();
  const limits = deadlines(run.signal, 'openai', { timeoutMs: 10_000, idleTimeoutMs: 10_000 });
  t.teardown(() => limits.dispose());
  run.abort(new CancelledError('SIGTERM'));
  t.match(limits.reason(), { code: 'cancelled', exitCode: 143 });
});

t.test('parseToolArguments', async (t) => {
  t.same(parseToolArguments('{"path":"a.txt"}'), { args: { path: 'a.txt' } });
  t.same(parseToolArguments('  '), { args: {} }, 'no arguments at all is an empty object');
  const bad = parseToolArguments('{"path": "a.txt"');
  t.equal(bad.args, undefined);
  t.match(bad.argsError, /^The tool arguments are not valid JSON \(.+\): \{"path": "a\.txt"$/);
  // parsed first, 150 MB of this ran zero out of heap, with no run_end
  const deep = parseToolArguments('['.repeat(5_000_000) + ']'.repeat(5_000_000));
  t.same(deep, { args: undefined, argsError: 'The tool arguments are nested more than 256 levels deep; send them with less nesting.' });
});

t.test('an error event inside the stream is named as such, with its type', async (t) => {
  const inStream = Object.assign(new Error('{"type":"error"}'), { status: undefined, error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
  t.match(providerFailure(inStream, 'anthropic'), { code: 'provider_error', message: 'anthropic reported an error in the stream (overloaded_error): Overloaded' });
  const openaiStyle = Object.assign(new Error('server_error'), { status: undefined, error: { message: 'The server had an error', type: 'server_error' } });
  t.match(providerFailure(openaiStyle, 'openai'), { message: 'openai reported an error in the stream (server_error): The server had an error' });
});

t.test('a connection failure names what really failed, down the cause chain', async (t) => {
  const refused = new Error('Connection error.', { cause: new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:11434') }) });
  t.match(providerFailure(refused, 'openai'), { message: 'openai connection failed: Connection error: fetch failed: connect ECONNREFUSED 127.0.0.1:11434' });
});
