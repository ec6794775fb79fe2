import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createGlob, glob } from '../../../lib/tools/glob.js';

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

t.test('lists regular files only: a FIFO, and a symlink to one, are not listed (and never opened)', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({ 'a.txt': '', sub: { 'b.txt': '' } });
  execFileSync('mkfifo', [join(dir, 'sub', 'pipe')]);
  symlinkSync('sub/pipe', join(dir, 'pipe-link'));
  t.equal(await glob.run({ pattern: '**/*' }, context(dir)), 'a.txt\nsub/b.txt');
  t.equal(await glob.run({ pattern: 'sub/pipe' }, context(dir)), 'No files match "sub/pipe".');
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

// "*a*a*a*ab" against this name takes picomatch's backtracking RegExp seconds, and each extra "*" multiplies that.
t.test('a pattern with too many wildcards to match quickly is refused; three per segment are fine', async (t) => {
  const name = `${'a'.repeat(200)}.txt`;
  const dir = t.testdir({ [name]: '', deep: { 'x.txt': '' } });
  await t.rejects(glob.run({ pattern: '*a*a*a*ab' }, context(dir)), { message: 'Glob "*a*a*a*ab" has 4 "*" in the path segment "*a*a*a*ab"; at most 3 per segment are allowed, so that matching stays fast.' });
  await t.rejects(glob.run({ pattern: '**/a/**/a/**/a/**/b' }, context(dir)), { message: /^Glob "\*\*\/a\/\*\*\/a\/\*\*\/a\/\*\*\/b" has 4 "\*\*" segments; at most 3/ });
  t.equal(await glob.run({ pattern: '*a*a*.txt' }, context(dir)), name);
  t.equal(await glob.run({ pattern: '**/*.txt' }, context(dir)), [name, 'deep/x.txt'].sort().join('\n'));
});

// "+(a*)b" compiles to /(?:a[^/]*?)+b/, which backtracks for minutes on 40 characters.
// The timeout only turns that hang into a failure.
t.test('extglobs are off, so "+(a*)b" cannot hang the run', { timeout: 20_000 }, async (t) => {
  const dir = t.testdir({ [`${'a'.repeat(40)}`]: '' });
  t.equal(await glob.run({ pattern: '+(a*)b' }, context(dir)), 'No files match "+(a*)b".');
});

t.test('a crawl that outlasts its time limit is an error saying so', async (t) => {
  const tree: Record<string, Record<string, string>> = {};
  // Hundreds of directories to read: far more than a 1 ms limit allows.
  for (let index = 0; index < 300; index++) tree[`d${index}`] = { 'f.ts': '' };
  const dir = t.testdir(tree);
  t.equal((await glob.run({ pattern: '**/*.ts' }, context(dir))).split('\n').length, 300, 'the default limit is ample');
  await t.rejects(createGlob(1).run({ pattern: '**/*.ts' }, context(dir)), { message: 'glob stopped after 0.001 s, its time limit: use a pattern with a longer fixed prefix.' });
});
