import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { glob } from '../../../lib/tools/glob.js';

const context = (cwd: string) => ({ cwd, signal: new AbortController().signal });

const project = {
  'README.md': '',
  src: { 'b.ts': '', 'a.ts': '', util: { 'c.ts': '', 'd.js': '' } },
  '.github': { 'ci.ts': '' },
  node_modules: { dep: { 'index.ts': '' } },
  '.git': { 'hooks.ts': '' },
};

t.test('lists matching files, sorted, relative to the working directory', async (t) => {
  const dir = t.testdir(project);
  t.equal(await glob.run({ pattern: '**/*.ts' }, context(dir)), '.github/ci.ts\nsrc/a.ts\nsrc/b.ts\nsrc/util/c.ts');
  t.equal(await glob.run({ pattern: 'src/*' }, context(dir)), 'src/a.ts\nsrc/b.ts');
  t.equal(await glob.run({ pattern: '*.md' }, context(dir)), 'README.md');
});

t.test('no match is a clear message, not an error', async (t) => {
  const dir = t.testdir(project);
  t.equal(await glob.run({ pattern: '**/*.rs' }, context(dir)), 'No files match "**/*.rs".');
});

t.test('refuses patterns that reach outside', async (t) => {
  const dir = t.testdir(project);
  for (const pattern of ['../*', 'src/../../*', '/etc/*', '..']) {
    await t.rejects(glob.run({ pattern }, context(dir)), { message: /must stay inside the working directory/ }, pattern);
  }
});

t.test('does not follow a symlinked directory out of the working directory', async (t) => {
  const dir = t.testdir({ root: { 'a.txt': '' }, outside: { 'secret.txt': '' } });
  const root = join(dir, 'root');
  symlinkSync('../outside', join(root, 'escape'));
  t.equal(await glob.run({ pattern: '**/*.txt' }, context(root)), 'a.txt');
  t.equal(await glob.run({ pattern: 'escape/*' }, context(root)), 'No files match "escape/*".');
});

t.test('an aborted signal makes it fail', async (t) => {
  const dir = t.testdir(project);
  const controller = new AbortController();
  controller.abort();
  await t.rejects(glob.run({ pattern: '**/*' }, { cwd: dir, signal: controller.signal }), { name: 'AbortError' });
});
