import t from 'tap';
import { CATALOG, catalogEntry, normalizeCatalogID, sameBaseURL } from '../../../lib/providers/catalog.js';

t.test('ids as Zero compares them: any case, every run of other characters one dash', async (t) => {
  t.equal(normalizeCatalogID(' LM Studio '), 'lm-studio');
  t.equal(normalizeCatalogID('custom--anthropic compatible'), 'custom-anthropic-compatible');
  t.equal(normalizeCatalogID('llama.cpp'), 'llama-cpp');
});

t.test('a preset by its id or an alias; the first in catalog order wins an alias both claim', async (t) => {
  t.equal(catalogEntry('lm studio')?.id, 'lmstudio');
  t.equal(catalogEntry('Ollama')?.id, 'ollama');
  t.equal(catalogEntry('llama.cpp')?.id, 'llama-cpp');
  t.equal(catalogEntry('KIMI')?.id, 'moonshot');
  t.equal(catalogEntry('chatgpt')?.id, 'chatgpt', "Zero's chatgpt, not the proxy that also answers to the name");
  t.equal(catalogEntry('nonesuch'), undefined);
  t.equal(catalogEntry(' - '), undefined);
});

t.test('the local presets need no key; every hosted one names its key variable', async (t) => {
  const local = CATALOG.filter((entry) => entry.local).map((entry) => [entry.id, entry.baseURL, entry.keyVariables]);
  t.same(local, [
    ['ollama', 'http://localhost:11434/v1', []],
    ['lmstudio', 'http://localhost:1234/v1', []],
    ['vllm', 'http://localhost:8000/v1', []],
    ['llama-cpp', 'http://localhost:8080/v1', []],
    ['chatgpt-proxy', 'http://localhost:10531/v1', []],
  ]);
  t.same(CATALOG.filter((entry) => !entry.local && !entry.unsupported && entry.keyVariables.length === 0), []);
  t.equal(new Set(CATALOG.map((entry) => entry.id)).size, CATALOG.length, 'ids are unique');
});

t.test('two base URLs are the same server when they differ in case and trailing slashes only', async (t) => {
  t.ok(sameBaseURL('https://OpenRouter.ai/api/v1/', 'https://openrouter.ai/api/v1'));
  t.notOk(sameBaseURL('https://openrouter.ai/api/v1', 'https://openrouter.ai.evil/api/v1'));
  t.notOk(sameBaseURL(undefined, undefined));
});
