import t from 'tap';
import { join } from 'node:path';
import { answerWarnings, readAnswerSchema } from '../../../lib/cli/answer-flags.js';
import type { ProviderChoice } from '../../../lib/providers/index.js';

const strict = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };
const loose = { type: 'object', properties: { ok: { type: 'boolean' } } };

t.test('the schema file is read relative to cwd, with its retries; none asked for, none read', async (t) => {
  const dir = t.testdir({ 'a.json': JSON.stringify(strict) });
  const schema = await readAnswerSchema({ outputSchema: 'a.json', outputRetries: '0' }, dir);
  t.match(schema, { name: 'answer', schema: strict, strict: true, retries: 0 });
  t.equal((await readAnswerSchema({ outputSchema: join(dir, 'a.json') }, '/'))?.retries, 2);
  t.equal(await readAnswerSchema({}, dir), undefined);
  await t.rejects(readAnswerSchema({ outputSchema: 'dir' }, t.testdir({ dir: {} })), { code: 'usage_error', message: /^Cannot read --output-schema dir: / });
});

t.test('a schema sent to an OpenAI-compatible server without strict mode says why; others need no warning', async (t) => {
  const dir = t.testdir({ 'strict.json': JSON.stringify(strict), 'loose.json': JSON.stringify(loose) });
  const openai = { kind: 'openai-compatible', options: {} } as ProviderChoice;
  const anthropic = { kind: 'anthropic', options: {} } as ProviderChoice;
  const looseSchema = await readAnswerSchema({ outputSchema: 'loose.json' }, dir);
  t.same(answerWarnings(await readAnswerSchema({ outputSchema: 'strict.json' }, dir), openai), []);
  t.match(answerWarnings(looseSchema, openai), [/^--output-schema is sent to openai-compatible without strict mode, so the API does not guarantee it \(\/ does not set "additionalProperties": false\)/]);
  t.same(answerWarnings(looseSchema, anthropic), []);
  t.same(answerWarnings(undefined, openai), []);
});
