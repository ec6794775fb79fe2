import t from 'tap';
import { redact } from '../../transforms/redact.js';
import { through } from '../helpers/streams.js';

const openaiKey = ['sk-proj-', 'Qm7Xt2Lp9Rv4Nc8Hb3Wd6Kf1Zs5Yg0Ja'].join('');

t.test('secret-looking text inside any event is replaced', async (t) => {
  const out = await through(redact(), [
    { type: 'text', delta: `use ${openaiKey} here` },
    { type: 'tool_result', id: 'call_1', status: 'ok', output: `OPENAI_API_KEY=${openaiKey}\n`, truncated: false },
  ]);
  t.same(out, [
    { type: 'text', delta: 'use [REDACTED] here' },
    { type: 'tool_result', id: 'call_1', status: 'ok', output: 'OPENAI_API_KEY=[REDACTED]\n', truncated: false },
  ]);
});

t.test('values under sensitive keys in tool arguments are replaced; counts and ids are not', async (t) => {
  const [call, usage] = await through(redact(), [
    { type: 'tool_call', id: 'call_1', name: 'login', args: { user: 'ada', password: 'correct horse', apiKey: 'abc', nested: { client_secret: 'x' } } },
    { type: 'usage', promptTokens: 12, completionTokens: 8, totalTokens: 20 },
  ]);
  t.same(call, { type: 'tool_call', id: 'call_1', name: 'login', args: { user: 'ada', password: '[REDACTED]', apiKey: '[REDACTED]', nested: { client_secret: '[REDACTED]' } } });
  t.same(usage, { type: 'usage', promptTokens: 12, completionTokens: 8, totalTokens: 20 });
});

t.test('the credentials in use are redacted even when they match no pattern', async (t) => {
  const [event] = await through(redact({ secrets: ['plain-looking-credential-42'] }), [{ type: 'final', text: 'it was plain-looking-credential-42!' }]);
  t.same(event, { type: 'final', text: 'it was [REDACTED]!' });
});

t.test('ordinary words pass untouched', async (t) => {
  const text = 'The task-list names the risk-level; the tokenizer counts promptTokens.';
  t.same(await through(redact(), [{ type: 'text', delta: text }]), [{ type: 'text', delta: text }]);
});
