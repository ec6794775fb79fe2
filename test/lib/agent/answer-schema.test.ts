import t from 'tap';
import { answerSchema, retryRequest, strictProblem, stripFence } from '../../../lib/agent/answer-schema.js';
import { UsageError } from '../../../lib/errors.js';

const REVIEW = { type: 'object', properties: { verdict: { enum: ['pass', 'fail'] }, issues: { type: 'array', items: { type: 'string' } } }, required: ['verdict', 'issues'], additionalProperties: false };

t.test('OpenAI strict rules: every property required, additionalProperties false, supported keywords, an object at the root', async (t) => {
  t.equal(strictProblem(REVIEW), undefined);
  t.equal(strictProblem({ ...REVIEW, required: ['verdict'] }), '/ does not require "issues" (strict mode needs every property required)');
  t.equal(strictProblem({ ...REVIEW, additionalProperties: true }), '/ does not set "additionalProperties": false');
  t.equal(strictProblem({ type: 'array', items: {} }), 'the root is not {"type": "object"}');
  const nested = { ...REVIEW, properties: { ...REVIEW.properties, issues: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' } } } } } };
  t.equal(strictProblem(nested), '/properties/issues/items does not set "additionalProperties": false');
  t.equal(strictProblem({ ...REVIEW, properties: { ...REVIEW.properties, verdict: { type: 'string', oneOf: [] } } }), '/properties/verdict uses "oneOf", which strict mode does not support');
});

t.test('a single Markdown fence around the whole answer is taken off; anything else is left as it is', async (t) => {
  t.equal(stripFence('```json\n{"a": 1}\n```'), '{"a": 1}');
  t.equal(stripFence('  ```\n{"a": 1}\n```\n'), '{"a": 1}');
  t.equal(stripFence(' {"a": 1} '), '{"a": 1}');
  t.equal(stripFence('Here:\n```json\n{"a": 1}\n```'), 'Here:\n```json\n{"a": 1}\n```');
});

t.test('an answer is checked: conforming, its JSON text and value; else the first errors in words', async (t) => {
  const schema = answerSchema(JSON.stringify(REVIEW), 'review.json');
  t.same(schema.check('```json\n{"verdict": "pass", "issues": []}\n```'), { ok: true, text: '{"verdict": "pass", "issues": []}', value: { verdict: 'pass', issues: [] } });
  t.same(schema.check('Looks fine to me.'), { ok: false, errors: 'the answer is not a JSON document' });
  t.same(schema.check('{"verdict": "maybe", "issues": [3], "extra": 1}'), {
    ok: false,
    errors: 'extra: Unrecognized key: "extra"; verdict: Expected one of "pass", "fail", received "maybe"; issues[0]: Expected string, received number',
  });
  t.equal(schema.strict, true);
  t.equal(schema.retries, 2);
  t.match(retryRequest('verdict: Required field is missing'), /does not conform to the required JSON Schema: verdict: Required field is missing\. Answer again with only a JSON document/);
});

t.test('draft 2020-12 when the schema says so, else draft 07', async (t) => {
  const tuple = { type: 'array', prefixItems: [{ type: 'string' }], items: false };
  const d2020 = answerSchema(JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...tuple }), 'f');
  t.equal(d2020.check('["a"]').ok, true);
  t.equal(d2020.check('["a", 1]').ok, false);
  const d07 = answerSchema(JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }], additionalItems: false }), 'f');
  t.equal(d07.check('["a"]').ok, true);
  t.equal(d07.check('["a", 1]').ok, false);
});

t.test('a bad schema file is a usage error that says what is wrong with it', async (t) => {
  t.throws(() => answerSchema('{"type": ', 's.json'), UsageError);
  t.throws(() => answerSchema('{"type": ', 's.json'), { message: /^--output-schema s\.json is not JSON: / });
  t.throws(() => answerSchema('[1]', 's.json'), { message: '--output-schema s.json is not a JSON Schema: it must be a JSON object.' });
  t.throws(() => answerSchema('{"type": 5}', 's.json'), { message: /^--output-schema s\.json is not a JSON Schema ajv can compile \(draft 2020-12 or 07\): schema is invalid/ });
});

t.test('an answer nested deeper than anything zero writes does not conform, at any depth, without ajv recursing into it', async (t) => {
  const tree = { $ref: '#/definitions/node', definitions: { node: { type: 'object', properties: { child: { $ref: '#/definitions/node' } } } } };
  const { check } = answerSchema(JSON.stringify(tree), 'tree.json');
  const nested = (depth: number) => `${'{"child":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
  t.match(check(nested(200)), { ok: true });
  for (const depth of [300, 5000, 100000]) t.same(check(nested(depth)), { ok: false, errors: 'the answer is nested more than 256 levels deep' }, `${depth} levels`);
});
