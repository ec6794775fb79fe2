import t from 'tap';
import { endpointOf, kindOf, resolveProfile } from '../../../lib/providers/profile.js';
import { readProfileFields } from '../../../lib/providers/profile-fields.js';

const resolve = (entry: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => resolveProfile({ ...readProfileFields({ name: 'p', ...entry }, '/f')!, name: 'p' }, env);

t.test('the kind: as written, else the preset\'s, else openai-compatible for a baseURL alone, else openai (as in Zero)', async (t) => {
  t.equal(kindOf({ kind: 'anthropic', catalogID: 'openrouter' }), 'anthropic');
  t.equal(kindOf({ catalogID: 'minimax' }), 'anthropic-compatible');
  t.equal(kindOf({ baseURL: 'http://l/v1' }), 'openai-compatible');
  t.equal(kindOf({}), 'openai');
  t.equal(endpointOf({}), 'https://api.openai.com/v1');
  t.equal(endpointOf({ kind: 'anthropic' }), 'https://api.anthropic.com');
  t.equal(endpointOf({ catalogID: 'groq', baseURL: 'http://mine/v1' }), 'http://mine/v1');
  t.equal(endpointOf({ kind: 'openai-compatible' }), undefined);
  t.match(resolve({ model: 'gpt-4o', apiKey: 'k-0123456789' }), { provider: 'openai', model: 'gpt-4o' }, 'no kind, no baseURL: an OpenAI profile, usable');
});

const presets: [string, Record<string, unknown>, NodeJS.ProcessEnv, Record<string, unknown>][] = [
  ['LM Studio', { catalogID: 'LM Studio' }, {}, { provider: 'openai-compatible', catalogID: 'lmstudio', baseURL: 'http://localhost:1234/v1', presetModel: 'local-model', apiKey: undefined }],
  ['Ollama', { catalogID: 'ollama', model: 'qwen3:8b' }, {}, { provider: 'openai-compatible', baseURL: 'http://localhost:11434/v1', model: 'qwen3:8b', presetModel: 'llama3.1' }],
  ['vLLM', { catalogID: 'vllm', model: 'Qwen/Qwen3-8B' }, {}, { provider: 'openai-compatible', baseURL: 'http://localhost:8000/v1', model: 'Qwen/Qwen3-8B' }],
  ['llama.cpp', { catalogID: 'llama.cpp', model: 'local' }, {}, { provider: 'openai-compatible', catalogID: 'llama-cpp', baseURL: 'http://localhost:8080/v1' }],
  ['OpenRouter', { catalogID: 'openrouter' }, { OPENROUTER_API_KEY: 'or-0123456789' }, { provider: 'openai-compatible', baseURL: 'https://openrouter.ai/api/v1', apiKeyEnv: 'OPENROUTER_API_KEY', apiKey: 'or-0123456789', presetModel: 'openai/gpt-4.1' }],
  ['Groq', { catalogID: 'groq' }, { GROQ_API_KEY: 'gq-0123456789' }, { provider: 'openai-compatible', baseURL: 'https://api.groq.com/openai/v1', apiKeyEnv: 'GROQ_API_KEY' }],
  ['DeepSeek', { catalogID: 'deepseek' }, { DEEPSEEK_API_KEY: 'ds-0123456789' }, { provider: 'openai-compatible', baseURL: 'https://api.deepseek.com/v1', presetModel: 'deepseek-chat' }],
  ['MiniMax', { catalogID: 'minimax' }, { MINIMAX_API_KEY: 'mm-0123456789' }, { provider: 'anthropic-compatible', baseURL: 'https://api.minimax.io/anthropic', apiKeyEnv: 'MINIMAX_API_KEY' }],
  ['OpenAI', { catalogID: 'openai' }, { OPENAI_API_KEY: 'sk-0123456789' }, { provider: 'openai', baseURL: undefined, apiKeyEnv: 'OPENAI_API_KEY', apiKey: 'sk-0123456789', presetModel: 'gpt-4.1' }],
  ['Anthropic', { catalogID: 'anthropic' }, { ANTHROPIC_API_KEY: 'sk-ant-0123456789' }, { provider: 'anthropic', baseURL: undefined, apiKeyEnv: 'ANTHROPIC_API_KEY' }],
  ['DashScope, second key variable named', { catalogID: 'qwen', apiKeyEnv: 'QWEN_API_KEY' }, { QWEN_API_KEY: 'qw-0123456789' }, { catalogID: 'dashscope', apiKey: 'qw-0123456789' }],
];

for (const [name, entry, env, expected] of presets) {
  t.test(`the ${name} preset gives what the profile leaves out: kind, baseURL, model, key variable`, async (t) => {
    const profile = resolve(entry, env);
    t.equal(profile.problem, undefined);
    t.match(profile, expected);
    for (const [field, value] of Object.entries(expected)) if (value === undefined) t.notOk(field in profile, `no ${field}`);
  });
}

t.test("a preset's key variable is not used for another server: a baseURL of the profile's own takes no key from the preset (as in Zero)", async (t) => {
  const profile = resolve({ catalogID: 'openrouter', baseURL: 'https://my-proxy.example/v1', model: 'm' }, { OPENROUTER_API_KEY: 'or-0123456789' });
  t.match(profile, { provider: 'openai-compatible', baseURL: 'https://my-proxy.example/v1' });
  t.equal(profile.apiKey, undefined);
  t.equal(resolve({ catalogID: 'openrouter', baseURL: 'https://OPENROUTER.ai/api/v1/' }, { OPENROUTER_API_KEY: 'or-0123456789' }).apiKey, 'or-0123456789', 'the same server written differently');
});

t.test("a hosted preset whose key variable is not set cannot be used: the problem names it", async (t) => {
  t.match(resolve({ catalogID: 'groq' }), { problem: 'apiKeyEnv names GROQ_API_KEY, which is not set.' });
});

t.test('the official API of a first-party kind, written out, is the same as none: the SDK default, and the kind\'s own variable may hold the key', async (t) => {
  t.equal(resolve({ provider: 'openai', baseURL: 'https://api.openai.com/v1/' }).baseURL, undefined);
  t.equal(resolve({ provider: 'anthropic', baseURL: 'https://api.anthropic.com' }).baseURL, undefined);
  t.equal(resolve({ provider: 'openai-compatible', baseURL: 'https://api.openai.com/v1' }).baseURL, 'https://api.openai.com/v1');
});

t.test('auth settings and parseThinkTags are kept for the provider', async (t) => {
  t.match(resolve({ baseURL: 'http://l/v1', authHeader: 'api-key', authScheme: 'raw', authHeaderValue: 'v-0123456789', customHeaders: { 'X-A': 'b' }, parseThinkTags: true }), {
    authHeader: 'api-key', authScheme: 'raw', authHeaderValue: 'v-0123456789', customHeaders: { 'X-A': 'b' }, parseThinkTags: true,
  });
});
