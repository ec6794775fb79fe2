import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProvider, credentialsInUse, PROVIDER_NAMES } from '../../../lib/providers/index.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';

t.test('nothing configured: a provider_error that says how to configure one', async (t) => {
  await t.rejects(createProvider({ cwd: '.', env: {} }), { code: 'provider_error', exitCode: 3, message: /No model provider is configured.*--provider scripted --script PATH/ });
});

t.test('--provider wins over ZERO_PROVIDER; names are case-insensitive', async (t) => {
  const dir = t.testdir({ 's.jsonl': '{"text":"x"}\n' });
  const provider = await createProvider({ name: 'Scripted', script: 's.jsonl', cwd: dir, env: { ZERO_PROVIDER: 'elsewhere' } });
  t.ok(provider instanceof ScriptedProvider);
  await t.rejects(createProvider({ cwd: dir, env: { ZERO_PROVIDER: 'elsewhere' } }), { code: 'usage_error', message: `Unknown provider "elsewhere". Available providers: ${PROVIDER_NAMES.join(', ')}.` });
});

t.test('the script path resolves against the working directory; ZERO_SCRIPT works too', async (t) => {
  const dir = t.testdir({});
  writeFileSync(join(dir, 'turns.jsonl'), '{"text":"from env"}\n');
  const provider = await createProvider({ model: 'm1', cwd: dir, env: { ZERO_PROVIDER: 'scripted', ZERO_SCRIPT: 'turns.jsonl' } });
  t.equal(provider.model, 'm1');
  await t.rejects(createProvider({ name: 'scripted', cwd: dir, env: {} }), { code: 'usage_error', message: /needs a script/ });
});

t.test('credentialsInUse: the loaded keys, long enough to be worth redacting', async (t) => {
  t.same(credentialsInUse({ OPENAI_API_KEY: 'sk-local-0123456789', ANTHROPIC_API_KEY: 'short', HOME: '/root' }), ['sk-local-0123456789']);
});
