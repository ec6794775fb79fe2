import t from 'tap';
import { mergeProfileFields, readProfileFields } from '../../../lib/providers/profile-fields.js';

t.test("every field Zero reads, in its spellings and any case, trimmed; empty and null are absent; unknown fields ignored", async (t) => {
  const entry = {
    Name: ' gw ', provider: 'openai', provider_kind: ' OpenAI-Compatible ', catalog_id: 'openrouter', base_url: 'https://gw/v1 ', API_KEY: ' k ', api_key_env: 'GW_KEY',
    apiKeyStored: true, auth_header: 'api-key', AuthScheme: 'raw', auth_header_value: 'v', custom_headers: { ' X-Team ': ' core ', ' ': 'dropped' },
    model_id: 'm', parse_think_tags: false, supports_images: false, description: 'ignored', colour: 'blue', apiFormat: 'chat-completions',
  };
  t.same(readProfileFields(entry, '/f'), {
    mistakes: [], file: '/f', name: 'gw', kind: 'openai-compatible', catalogID: 'openrouter', baseURL: 'https://gw/v1', apiKey: 'k', apiKeyEnv: 'GW_KEY',
    apiKeyStored: true, authHeader: 'api-key', authScheme: 'raw', authHeaderValue: 'v', customHeaders: { 'X-Team': 'core' }, model: 'm', parseThinkTags: false, supportsImages: false,
  });
  t.same(readProfileFields({ name: '', model: null, baseURL: '  ' }, '/f'), { mistakes: [], file: '/f' });
  t.equal(readProfileFields('openai', '/f'), undefined);
  t.equal(readProfileFields(['x'], '/f'), undefined);
});

t.test('a field of the wrong type is a mistake, in a sentence naming it', async (t) => {
  t.same(readProfileFields({ name: 5, apiKeyStored: 'yes', customHeaders: ['x'] }, '/f')?.mistakes, [
    'name must be a string, not 5.',
    'apiKeyStored must be true or false, not "yes".',
    'customHeaders must be an object of header names and string values, not ["x"].',
  ]);
});

t.test('merging: what the later entry sets wins, the rest is kept; customHeaders replaced whole; apiKeyStored stays the first entry\'s', async (t) => {
  const user = readProfileFields({ name: 'gw', provider: 'openai-compatible', baseURL: 'https://gw/v1', apiKeyEnv: 'K', model: 'a', customHeaders: { A: '1', B: '2' }, parseThinkTags: true }, '/user')!;
  const project = readProfileFields({ name: 'gw', model: 'b', customHeaders: { C: '3' }, parseThinkTags: false, apiKeyStored: true }, '/project')!;
  t.same(mergeProfileFields(user, project), { mistakes: [], file: '/project', name: 'gw', kind: 'openai-compatible', baseURL: 'https://gw/v1', apiKeyEnv: 'K', model: 'b', customHeaders: { C: '3' }, parseThinkTags: false });
  const bad = readProfileFields({ name: 'gw', model: 1 }, '/project')!;
  t.same(mergeProfileFields(user, bad).mistakes, ['model must be a string, not 1.']);
});

t.test("pricing: dollars per million tokens, cachedInputPerMTok optional, 0 allowed; anything else a mistake that names the field", async (t) => {
  t.same(readProfileFields({ pricing: { inputPerMTok: 0.5, outputPerMTok: 2, cachedInputPerMTok: 0.1 } }, 'f')!.pricing, { inputPerMTok: 0.5, outputPerMTok: 2, cachedInputPerMTok: 0.1 });
  t.same(readProfileFields({ pricing: { input_per_mtok: 0, output_per_mtok: 0 } }, 'f')!.pricing, { inputPerMTok: 0, outputPerMTok: 0 });
  for (const pricing of [{ inputPerMTok: 1 }, { inputPerMTok: -1, outputPerMTok: 1 }, { inputPerMTok: '1', outputPerMTok: 1 }, 3]) {
    const fields = readProfileFields({ pricing }, 'f')!;
    t.equal(fields.pricing, undefined);
    t.match(fields.mistakes, [/^pricing must be an object of inputPerMTok, outputPerMTok/]);
  }
});
