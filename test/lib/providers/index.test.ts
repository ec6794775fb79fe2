import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseProvider, createProvider, credentialsInUse, priceOf, PROVIDER_NAMES, type ProviderChoice } from '../../../lib/providers/index.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import type { Profile, ZeroConfig } from '../../../lib/providers/config.js';

const config = (profiles: Omit<Profile, 'file'>[], activeProvider?: string): ZeroConfig => ({
  profiles: new Map(profiles.map((profile) => [profile.name, { ...profile, file: '/home/u/.config/zero/config.json' }])),
  warnings: [],
  layers: [],
  ...(activeProvider ? { activeProvider: { name: activeProvider, file: '/home/u/.config/zero/config.json' } } : {}),
});

const options = (choice: ProviderChoice) => (choice.kind === 'scripted' ? undefined : choice.options);

t.test('nothing configured: a provider_error that names the variables to set', async (t) => {
  t.throws(() => chooseProvider({ cwd: '.', env: {} }), { code: 'provider_error', exitCode: 3, message: /Set OPENAI_API_KEY or ANTHROPIC_API_KEY, or OPENAI_BASE_URL/ });
});

t.test('a key in the environment picks its provider, with the model variables and defaults', async (t) => {
  t.same(options(chooseProvider({ cwd: '.', env: { OPENAI_API_KEY: 'sk-test-1234567890' } })), { model: 'gpt-4.1', apiKey: 'sk-test-1234567890', baseURL: undefined, label: 'openai' });
  t.same(options(chooseProvider({ cwd: '.', env: { ANTHROPIC_API_KEY: 'sk-ant-k', ANTHROPIC_MODEL: 'claude-x' } })), { model: 'claude-x', apiKey: 'sk-ant-k', baseURL: undefined, label: 'anthropic' });
  t.match(chooseProvider({ cwd: '.', env: { OPENAI_API_KEY: 'a', ANTHROPIC_API_KEY: 'b' } }), { kind: 'openai' }, 'OpenAI first when both are set');
});

t.test('OPENAI_BASE_URL alone is a local server: no key needed', async (t) => {
  t.match(options(chooseProvider({ cwd: '.', env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' }, model: 'llama3.2' })), { baseURL: 'http://localhost:11434/v1', model: 'llama3.2', apiKey: undefined });
});

t.test('--provider > ZERO_PROVIDER > activeProvider > keys', async (t) => {
  const files = config([{ name: 'local', provider: 'openai-compatible', baseURL: 'http://localhost:1234/v1', model: 'qwen' }], 'local');
  const env = { OPENAI_API_KEY: 'sk-env-0123456789', ANTHROPIC_API_KEY: 'sk-ant-env-0123456789' };
  t.match(chooseProvider({ cwd: '.', env, config: files }), { kind: 'openai-compatible', options: { baseURL: 'http://localhost:1234/v1', model: 'qwen' } });
  t.match(chooseProvider({ cwd: '.', env: { ...env, ZERO_PROVIDER: 'anthropic' }, config: files }), { kind: 'anthropic' });
  t.match(chooseProvider({ cwd: '.', name: 'openai', env: { ...env, ZERO_PROVIDER: 'anthropic' }, config: files }), { kind: 'openai' });
  t.match(chooseProvider({ cwd: '.', name: 'local', env, config: files }), { kind: 'openai-compatible' }, '--provider may name a profile');
});

t.test('a key from the environment never goes to a base URL from a profile', async (t) => {
  const files = config([{ name: 'local', provider: 'openai-compatible', baseURL: 'http://localhost:1234/v1' }], 'local');
  t.equal(options(chooseProvider({ cwd: '.', env: { OPENAI_API_KEY: 'sk-env-0123456789' }, config: files }))?.apiKey, undefined);
  const keyed = config([{ name: 'proxy', provider: 'anthropic', baseURL: 'http://proxy.local', apiKey: 'file-key-0123456789' }], 'proxy');
  t.equal(options(chooseProvider({ cwd: '.', env: {}, config: keyed }))?.apiKey, 'file-key-0123456789');
});

t.test('--model wins over the profile and the environment; limits pass through', async (t) => {
  const files = config([{ name: 'p', provider: 'openai', model: 'from-file', apiKey: 'k-0123456789' }], 'p');
  t.match(options(chooseProvider({ cwd: '.', env: { OPENAI_MODEL: 'from-env' }, config: files, model: 'from-flag', limits: { maxRetries: 0, timeoutMs: 5000 } })), {
    model: 'from-flag',
    maxRetries: 0,
    timeoutMs: 5000,
  });
});

t.test('missing keys and unknown names', async (t) => {
  t.throws(() => chooseProvider({ cwd: '.', name: 'anthropic', env: {} }), { code: 'provider_error', message: /needs an API key: set ANTHROPIC_API_KEY/ });
  t.throws(() => chooseProvider({ cwd: '.', name: 'openai-compatible', env: {} }), { code: 'provider_error', message: /needs a base URL/ });
  t.throws(() => chooseProvider({ cwd: '.', name: 'nonesuch', env: {} }), { code: 'usage_error', message: `Unknown provider "nonesuch". Available providers: ${PROVIDER_NAMES.join(', ')}.` });
});

t.test('scripted: the script resolves against the working directory; ZERO_SCRIPT works too', async (t) => {
  const dir = t.testdir({});
  writeFileSync(join(dir, 'turns.jsonl'), '{"text":"from env"}\n');
  const choice = chooseProvider({ model: 'm1', cwd: dir, env: { ZERO_PROVIDER: 'Scripted', ZERO_SCRIPT: 'turns.jsonl' } });
  t.same(choice, { kind: 'scripted', script: join(dir, 'turns.jsonl'), model: 'm1' });
  const provider = await createProvider(choice);
  t.ok(provider instanceof ScriptedProvider);
  t.equal(provider.model, 'm1');
  t.throws(() => chooseProvider({ name: 'scripted', cwd: dir, env: {} }), { code: 'usage_error', message: /needs a script/ });
});

t.test('credentialsInUse: keys in the environment and the chosen profile key, long enough to be worth redacting', async (t) => {
  t.same(credentialsInUse({ OPENAI_API_KEY: 'sk-local-0123456789', ANTHROPIC_API_KEY: 'short', HOME: '/root' }), ['sk-local-0123456789']);
  const choice = chooseProvider({ cwd: '.', env: {}, config: config([{ name: 'p', provider: 'openai', apiKey: 'file-key-0123456789' }], 'p') });
  t.same(credentialsInUse({}, choice), ['file-key-0123456789']);
});

t.test('credentialsInUse: every apiKey the config files hold, active profile or not', async (t) => {
  const loaded = config([{ name: 'p', provider: 'openai', apiKey: 'active-key-0123456789' }, { name: 'spare', provider: 'anthropic', apiKey: 'spare-key-0123456789' }], 'p');
  const choice = chooseProvider({ cwd: '.', env: {}, config: loaded });
  t.same(credentialsInUse({}, choice, loaded).sort(), ['active-key-0123456789', 'spare-key-0123456789']);
  t.same(credentialsInUse({}, undefined, loaded).sort(), ['active-key-0123456789', 'spare-key-0123456789'], 'without a chosen provider too (the log commands)');
});

t.test('anthropic-compatible without a profile: ANTHROPIC_BASE_URL is required, ANTHROPIC_API_KEY optional', async (t) => {
  t.same(options(chooseProvider({ cwd: '.', name: 'anthropic-compatible', env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_MODEL: 'glm-4.6' } })), {
    model: 'glm-4.6',
    apiKey: undefined,
    baseURL: 'http://127.0.0.1:9',
    label: 'anthropic-compatible',
  });
  t.match(options(chooseProvider({ cwd: '.', name: 'anthropic-compatible', env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'sk-ant-0123456789' } })), { apiKey: 'sk-ant-0123456789', model: 'claude-sonnet-4-6' });
  t.throws(() => chooseProvider({ cwd: '.', name: 'anthropic-compatible', env: { ANTHROPIC_API_KEY: 'sk-ant-0123456789' } }), {
    code: 'provider_error',
    exitCode: 3,
    message: 'The anthropic-compatible provider needs a base URL: set ANTHROPIC_BASE_URL.',
  });
  t.ok(PROVIDER_NAMES.includes('anthropic-compatible'));
});

t.test('createProvider: anthropic-compatible speaks the Anthropic wire format, reported as anthropic-compatible', async (t) => {
  const provider = await createProvider({ kind: 'anthropic-compatible', options: { baseURL: 'http://127.0.0.1:9', apiKey: 'placeholder', label: 'anthropic-compatible' } });
  t.equal(provider.constructor.name, 'AnthropicProvider');
  t.equal(provider.name, 'anthropic-compatible');
});

t.test('a profile named like a built-in provider wins over it', async (t) => {
  const files = config([
    { name: 'scripted', provider: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'local' },
    { name: 'openai', provider: 'anthropic', apiKey: 'k-0123456789' },
  ]);
  t.match(chooseProvider({ cwd: '.', name: 'scripted', env: {}, config: files }), { kind: 'openai-compatible', options: { baseURL: 'http://127.0.0.1:9/v1' } }, 'no script needed: it is the profile');
  t.match(chooseProvider({ cwd: '.', name: 'openai', env: { OPENAI_API_KEY: 'sk-0123456789' }, config: files }), { kind: 'anthropic' });
  t.match(chooseProvider({ cwd: '.', env: { ZERO_PROVIDER: 'openai' }, config: files }), { kind: 'anthropic' }, 'through ZERO_PROVIDER too');
  t.throws(() => chooseProvider({ cwd: '.', name: 'nonesuch', env: {}, config: files }), { message: `Unknown provider "nonesuch". Available providers: ${PROVIDER_NAMES.join(', ')}.` }, 'each name listed once');
});

t.test("OPENAI_MODEL / ANTHROPIC_MODEL win over the model of a profile whose kind, as written, is openai / anthropic (Zero's applyEnv); --model wins over both", async (t) => {
  const files = config([
    { name: 'o', provider: 'openai', writtenKind: 'openai', model: 'from-file', apiKey: 'k-0123456789' },
    { name: 'a', provider: 'anthropic', writtenKind: 'anthropic', model: 'claude-from-file', apiKey: 'k-0123456789' },
    { name: 'gw', provider: 'openai-compatible', writtenKind: 'openai-compatible', baseURL: 'http://gw/v1', model: 'gw-model' },
    { name: 'preset', provider: 'openai', catalogID: 'openai', presetModel: 'gpt-4.1', apiKey: 'k-0123456789' },
  ]);
  const env = { OPENAI_MODEL: 'gpt-from-env', ANTHROPIC_MODEL: 'claude-from-env' };
  const model = (name: string, flag?: string) => options(chooseProvider({ cwd: '.', name, model: flag, env, config: files }))?.model;
  t.equal(model('o'), 'gpt-from-env');
  t.equal(model('a'), 'claude-from-env');
  t.equal(model('gw'), 'gw-model', 'an openai-compatible profile keeps its own model');
  t.equal(model('preset'), 'gpt-4.1', "a preset's profile names no kind: its preset's model, as in Zero");
  t.equal(model('o', 'flag-model'), 'flag-model');
  t.equal(options(chooseProvider({ cwd: '.', name: 'o', env: {}, config: files }))?.model, 'from-file');
});

t.test('OPENAI_MODEL also reaches a profile named openai when no profile has that kind (as in Zero)', async (t) => {
  const named = config([{ name: 'openai', provider: 'openai-compatible', writtenKind: 'openai-compatible', baseURL: 'http://l/v1', model: 'local' }]);
  t.equal(options(chooseProvider({ cwd: '.', name: 'openai', env: { OPENAI_MODEL: 'env-model' }, config: named }))?.model, 'env-model');
  const taken = config([...named.profiles.values(), { name: 'real', provider: 'openai', writtenKind: 'openai', apiKey: 'k-0123456789' }]);
  t.equal(options(chooseProvider({ cwd: '.', name: 'openai', env: { OPENAI_MODEL: 'env-model' }, config: taken }))?.model, 'local');
});

t.test("parseThinkTags: the profile's setting, else on for a qwen3 / deepseek-r1 style model on an OpenAI-compatible server only", async (t) => {
  const files = config([
    { name: 'qwen', provider: 'openai-compatible', baseURL: 'http://l/v1', model: 'qwen3:8b' },
    { name: 'llama', provider: 'openai-compatible', baseURL: 'http://l/v1', model: 'llama3.1' },
    { name: 'off', provider: 'openai-compatible', baseURL: 'http://l/v1', model: 'deepseek-r1:14b', parseThinkTags: false },
    { name: 'on', provider: 'openai-compatible', baseURL: 'http://l/v1', model: 'llama3.1', parseThinkTags: true },
    { name: 'claude', provider: 'anthropic-compatible', baseURL: 'http://l', model: 'qwen3-coder', apiKey: 'k-0123456789' },
  ]);
  const parses = (name: string, model?: string) => options(chooseProvider({ cwd: '.', name, model, env: {}, config: files }))?.parseThinkTags ?? false;
  t.same(['qwen', 'llama', 'off', 'on', 'claude'].map((name) => parses(name)), [true, false, false, true, false]);
  t.equal(parses('llama', 'QwQ-32B'), true, 'the model the run uses: --model counts');
  t.equal(options(chooseProvider({ cwd: '.', model: 'deepseek-r1', env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' } }))?.parseThinkTags, true, 'a local server from OPENAI_BASE_URL');
  t.notOk(options(chooseProvider({ cwd: '.', model: 'deepseek-r1', env: { OPENAI_API_KEY: 'sk-0123456789' } }))?.parseThinkTags, "OpenAI's own API: never");
});

t.test("a profile's auth settings reach the provider; -r reaches it as reasoningEffort", async (t) => {
  const files = config([{ name: 'gw', provider: 'openai-compatible', baseURL: 'http://gw/v1', apiKey: 'k-0123456789', authHeader: 'api-key', authScheme: 'raw', customHeaders: { 'X-A': 'b' } }]);
  t.match(options(chooseProvider({ cwd: '.', name: 'gw', env: {}, config: files, limits: { reasoningEffort: 'low' } })), {
    apiKey: 'k-0123456789', auth: { authHeader: 'api-key', authScheme: 'raw', customHeaders: { 'X-A': 'b' } }, reasoningEffort: 'low',
  });
});

t.test('credentialsInUse: auth header values and custom header values of the config files too', async (t) => {
  const files = config([{ name: 'gw', provider: 'openai-compatible', baseURL: 'http://gw/v1', authHeaderValue: 'Token tok-0123456789', customHeaders: { 'X-Org-Token': 'org-0123456789', 'X-Short': 'abc' } }]);
  t.same(credentialsInUse({}, undefined, files).sort(), ['Token tok-0123456789', 'org-0123456789', 'tok-0123456789']);
});

t.test("the price of the model: a profile's pricing wins over the table; a model the table lacks has none", async (t) => {
  const pricing = { inputPerMTok: 0, outputPerMTok: 0 };
  const files = config([{ name: 'local', provider: 'openai-compatible', baseURL: 'http://localhost:1234/v1', model: 'gpt-4.1', pricing }], 'local');
  t.same(priceOf(chooseProvider({ cwd: '.', env: {}, config: files }), 'gpt-4.1'), pricing);
  const openai = chooseProvider({ cwd: '.', env: { OPENAI_API_KEY: 'sk-env-0123456789' } });
  t.same(priceOf(openai, 'gpt-4.1-2025-04-14'), { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 });
  t.equal(priceOf(openai, 'my-fine-tune'), undefined);
  t.same(priceOf({ kind: 'scripted', script: 's.jsonl' }, 'claude-haiku-4-5'), { inputPerMTok: 1, outputPerMTok: 5, cachedInputPerMTok: 0.1 });
});
