import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// The provider-facing conversation types live in the protocol layer: providers, tools and sessions meet there
// instead of importing one another.

const lib = resolve(dirname(fileURLToPath(import.meta.url)), '../../../lib');

/** The `from '…'` targets of every import and export in a lib/ folder's files. */
function importsOf(folder: string): { file: string; from: string }[] {
  return readdirSync(join(lib, folder))
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) => [...readFileSync(join(lib, folder, name), 'utf8').matchAll(/\bfrom\s+'([^']+)'/g)].map((match) => ({ file: `${folder}/${name}`, from: match[1]! })));
}

t.test('providers import nothing from tools', async (t) => {
  t.same(importsOf('providers').filter(({ from }) => from.startsWith('../tools/')), []);
});

t.test('sessions and tools import nothing from providers', async (t) => {
  t.same([...importsOf('sessions'), ...importsOf('tools')].filter(({ from }) => from.startsWith('../providers/')), []);
});
