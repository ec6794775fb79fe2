import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { repoPath } from '../../helpers/repo.js';

// The provider-facing conversation types live in the protocol layer: providers, tools and sessions meet there
// instead of importing one another.

const lib = repoPath('lib');

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

t.test('ChatMessage, ToolCallRequest and ToolDefinition are declared in the protocol layer only', async (t) => {
  const declared = readdirSync(lib, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .filter((path) => /\bexport (?:type|interface) (?:ChatMessage|ToolCallRequest|ToolDefinition)\b/.test(readFileSync(join(lib, path), 'utf8')));
  t.same(declared, ['protocol/chat.ts']);
});

t.test('the CLI takes the turn limit from lib/agent, and nothing from the stages', async (t) => {
  const limitFrom = readdirSync(join(lib, 'cli'))
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) => [...readFileSync(join(lib, 'cli', name), 'utf8').matchAll(/\bimport\s*\{[^}]*\bDEFAULT_MAX_TURNS\b[^}]*\}\s*from\s*'([^']+)'/g)].map((match) => `cli/${name} ${match[1]}`));
  t.same(limitFrom, ['cli/exec.ts ../agent/run.js']);
  t.same(importsOf('cli').filter(({ from }) => from.includes('/transforms/')), []);
});
