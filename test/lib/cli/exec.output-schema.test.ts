import t, { type Test } from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeApi, type Reply } from '../../helpers/sse-server.js';
import { anthropicStream, openaiStream } from '../../helpers/wire.js';
import { cleanEnv, eventTypes, jsonLines, nth, writeScript } from '../../helpers/zero.js';
import { zeroHere } from '../../helpers/cli.js';
import { checkAgainstSchema } from '../../../lib/protocol/validate.js';

// --output-schema as a script that parses the answer sees it: final.text is conforming JSON (v2 adds final.structured),
// an answer that does not conform is sent back, and a run never exits 0 without one.

const REVIEW = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { verdict: { enum: ['pass', 'fail'] }, issues: { type: 'array', items: { type: 'string' } } },
  required: ['verdict', 'issues'],
  additionalProperties: false,
};

/** A directory with the schema (review.json) and, when given, a script; sessions kept in it. */
function setup(t: Test, schema: unknown = REVIEW, turns?: unknown[]) {
  const dir = t.testdir({ 'review.json': typeof schema === 'string' ? schema : JSON.stringify(schema) });
  const env = cleanEnv({ ZERO_HOME: join(dir, '.home') });
  const script = turns ? writeScript(dir, turns, '.script.jsonl') : '';
  return { dir, env, script };
}

async function run(t: Test, turns: unknown[], args: string[], schema: unknown = REVIEW) {
  const { dir, env, script } = setup(t, schema, turns);
  const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, '--output-schema', 'review.json', ...args], { env });
  const events = jsonLines(result.stdout);
  for (const e of events) t.ok(checkAgainstSchema(e.schemaVersion === 2 ? 'output.v2' : 'output', e).ok, `${e.type} is valid`);
  return { ...result, events, dir, env };
}

t.test('a conforming answer: final.text its JSON, version 2 final.structured its value', async (t) => {
  const { code, events } = await run(t, [{ text: '{"verdict": "pass", "issues": []}' }], ['--schema-version', '2', 'review']);
  t.equal(code, 0);
  t.same(nth(events, 'final'), { ...nth(events, 'final'), text: '{"verdict": "pass", "issues": []}', structured: { verdict: 'pass', issues: [] } });
  const v1 = await run(t, [{ text: '{"verdict": "pass", "issues": []}' }], ['review']);
  t.notOk('structured' in nth(v1.events, 'final')!, 'version 1 has no structured');
});

t.test('an answer fixed after a retry: the model is told ajv’s errors, and the fenced JSON it gives is the answer', async (t) => {
  const turns = [
    { text: 'All good! {"verdict": "ok"}' },
    { expect: { contains: ['does not conform to the required JSON Schema: the answer is not a JSON document'] }, text: '{"verdict": "ok", "issues": []}' },
    { expect: { contains: ['verdict: Expected one of "pass", "fail", received "ok"'] }, text: '```json\n{"verdict": "fail", "issues": ["a.ts: unused import"]}\n```' },
  ];
  const { code, events, stderr } = await run(t, turns, ['--schema-version', '2', 'review']);
  t.equal(code, 0, stderr);
  t.same(events.filter((e) => e.type === 'warning').length, 2);
  t.match(nth(events, 'final'), { text: '{"verdict": "fail", "issues": ["a.ts: unused import"]}', structured: { verdict: 'fail', issues: ['a.ts: unused import'] } });
});

t.test('an answer never fixed: invalid_output naming the errors, exit 4; v2 incomplete, v1 error; never a final', async (t) => {
  const turns = [{ text: 'no' }, { text: '{"verdict": "pass"}' }];
  const v2 = await run(t, turns, ['--schema-version', '2', '--output-retries', '1', 'review']);
  t.equal(v2.code, 4);
  t.same(eventTypes(v2.events), ['run_start', 'text', 'warning', 'text', 'error', 'run_end']);
  t.match(nth(v2.events, 'error'), { code: 'invalid_output', message: 'The answer does not conform to --output-schema after 1 retry: issues: Required field is missing.' });
  t.match(nth(v2.events, 'run_end'), { status: 'incomplete', exitCode: 4 });
  const v1 = await run(t, [{ text: 'no' }], ['--output-retries', '0', 'review']);
  t.equal(v1.code, 4);
  t.match(nth(v1.events, 'run_end'), { status: 'error', exitCode: 4 });
});

t.test('a secret in the answer is redacted in final.text and in final.structured alike', async (t) => {
  const key = 'sk-proj-Zt8uQ2mW9xV4bN7cR1pL5sK3';
  const { dir, env, script } = setup(t, REVIEW, [{ text: JSON.stringify({ verdict: 'fail', issues: [`leaked ${key}`] }) }]);
  const result = await zeroHere(['exec', '-o', 'stream-json', '--schema-version', '2', '--provider', 'scripted', '--script', script, '-C', dir, '--output-schema', 'review.json', 'review'], { env: { ...env, OPENAI_API_KEY: key } });
  t.equal(result.code, 0);
  t.notMatch(result.stdout, key.slice(8));
  const final = nth(jsonLines(result.stdout), 'final')!;
  t.match(final.text, /"leaked \[REDACTED[^"]*\]"/);
  t.same(final.structured, JSON.parse(final.text as string), 'both say the same');
});

t.test('a bad schema file, a missing one, or --output-retries alone: a usage error before the run', async (t) => {
  for (const [schema, message] of [
    ['{"type": ', /--output-schema review\.json is not JSON/],
    ['{"type": "nonsense"}', /--output-schema review\.json is not a JSON Schema ajv can compile/],
  ] as const) {
    const result = await run(t, [{ text: 'never' }], ['review'], schema);
    t.equal(result.code, 2);
    t.same(eventTypes(result.events), ['error', 'run_end']);
    t.match(nth(result.events, 'error'), { code: 'usage_error', message });
  }
  const { dir, env, script } = setup(t, REVIEW, [{ text: 'never' }]);
  const missing = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, '--output-schema', 'nope.json', 'x'], { env });
  t.match(jsonLines(missing.stdout)[0], { code: 'usage_error', message: /^Cannot read --output-schema nope\.json: ENOENT/ });
  const lone = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, '--output-retries', '3', 'x'], { env });
  t.match(jsonLines(lone.stdout)[0], { code: 'usage_error', message: '--output-retries needs --output-schema: only an answer with a schema is sent back.' });
});

t.test('--resume keeps working with a schema: the earlier conversation and the schema both apply', async (t) => {
  const first = await run(t, [{ text: '{"verdict": "pass", "issues": []}' }], ['review the diff']);
  t.equal(first.code, 0);
  const script = writeScript(first.dir, [{ expect: { contains: ['review the diff', '{"verdict": "pass", "issues": []}', 'again'] }, text: '{"verdict": "fail", "issues": ["x"]}' }], '.second.jsonl');
  const second = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', first.dir, '--output-schema', 'review.json', '--resume', 'again'], { env: first.env });
  t.equal(second.code, 0, second.stdout);
  t.match(nth(jsonLines(second.stdout), 'final'), { text: '{"verdict": "fail", "issues": ["x"]}' });
});

/** A run against a loopback server of a profile of this kind. */
async function served(t: Test, provider: string, replies: Reply[], schema: unknown = REVIEW) {
  const api = await fakeApi(replies);
  t.teardown(() => api.close());
  const { dir, env } = setup(t, schema);
  mkdirSync(join(dir, 'xdg', 'zero'), { recursive: true });
  const baseURL = provider.startsWith('openai') ? `${api.url}/v1` : api.url;
  writeFileSync(join(dir, 'xdg', 'zero', 'config.json'), JSON.stringify({ activeProvider: 'gw', providers: [{ name: 'gw', provider, baseURL, model: 'm', apiKey: 'sk-test-not-a-real-key-1234' }] }));
  const result = await zeroHere(['exec', '-o', 'stream-json', '--schema-version', '2', '-C', dir, '--output-schema', 'review.json', 'review'], { env: { ...env, XDG_CONFIG_HOME: join(dir, 'xdg') } });
  return { ...result, events: jsonLines(result.stdout), received: api.received };
}

t.test('OpenAI-compatible: response_format json_schema, strict for a schema that meets the strict rules', async (t) => {
  const { code, events, received } = await served(t, 'openai-compatible', [{ sse: openaiStream({ text: ['{"verdict": "pass", ', '"issues": []}'] }) }]);
  t.equal(code, 0);
  const { $schema: _draft, ...sent } = REVIEW;
  t.same(received[0]!.body.response_format, { type: 'json_schema', json_schema: { name: 'answer', schema: sent, strict: true } });
  t.match(nth(events, 'final'), { structured: { verdict: 'pass', issues: [] } });
  t.equal(nth(events, 'warning'), undefined);
});

t.test('OpenAI-compatible: a schema strict mode cannot take is sent non-strict, with a warning that says why', async (t) => {
  const loose = { ...REVIEW, required: ['verdict'] };
  const { code, events, received } = await served(t, 'openai-compatible', [{ sse: openaiStream({ text: ['{"verdict": "fail"}'] }) }], loose);
  t.equal(code, 0);
  t.equal(received[0]!.body.response_format.json_schema.strict, false);
  t.match(nth(events, 'warning'), { message: /--output-schema is sent to openai-compatible without strict mode.*\/ does not require "issues"/ });
});

t.test('Anthropic: the schema is a final_answer tool the model must call; its input is the answer', async (t) => {
  const answer = { sse: anthropicStream({ toolCalls: [{ id: 'toolu_1', name: 'final_answer', args: '{"verdict": "pass", "issues": []}' }] }) };
  const { code, events, received } = await served(t, 'anthropic-compatible', [answer]);
  t.equal(code, 0, JSON.stringify(events));
  const body = received[0]!.body;
  const { $schema: _draft, ...sent } = REVIEW;
  t.same(body.tools.at(-1), { name: 'final_answer', description: 'Give your final answer: call this once your work is done, with the answer as its input.', input_schema: sent });
  t.same(body.tool_choice, { type: 'any' });
  t.equal(nth(events, 'tool_call'), undefined, 'the answer is no tool call');
  t.match(nth(events, 'final'), { text: '{"verdict": "pass", "issues": []}', structured: { verdict: 'pass', issues: [] } });
});
