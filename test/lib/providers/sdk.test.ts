import t from 'tap';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { withSdk } from '../../../lib/providers/sdk.js';

/** A module outside the repository that imports `sdk`: where no node_modules holds it, as after --omit=optional. */
function importerOf(sdk: string): () => Promise<unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'zero-sdk-'));
  writeFileSync(join(dir, 'provider.mjs'), `import '${sdk}';\n`);
  return () => import(pathToFileURL(join(dir, 'provider.mjs')).href);
}

t.test('a missing SDK is a provider_error naming the package and the range to install', async (t) => {
  await t.rejects(withSdk('openai', 'openai-compatible', importerOf('openai')), {
    code: 'provider_error',
    message: "The openai-compatible provider needs the npm package openai, which is not installed (zero-stream's optional dependencies were left out). Install it where zero-stream is: npm install openai@^6.49.0 (with -g for a global zero).",
  });
  await t.rejects(withSdk('@anthropic-ai/sdk', 'anthropic', importerOf('@anthropic-ai/sdk')), { code: 'provider_error', message: /npm install @anthropic-ai\/sdk@\^1\.\d+\.\d+ / });
});

t.test('any other failure to load is not taken for a missing SDK', async (t) => {
  await t.rejects(withSdk('openai', 'openai', importerOf('some-other-missing-package')), { message: /^Cannot find package 'some-other-missing-package'/ });
  await t.rejects(withSdk('openai', 'openai', async () => Promise.reject(new SyntaxError('broken'))), { name: 'SyntaxError' });
  t.equal(await withSdk('openai', 'openai', async () => 'module'), 'module');
});
