import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { byName, listed, skippedSpecialFiles, walkFiles } from '../../../lib/tools/walk.js';

async function walkedPaths(dir: string, signal = new AbortController().signal): Promise<string[]> {
  const paths: string[] = [];
  for await (const file of walkFiles(dir, signal)) paths.push(relative(dir, file));
  return paths;
}

t.test('walks depth first with entries sorted by name, skipping .git and node_modules', async (t) => {
  const dir = t.testdir({
    'b.txt': 'b',
    a: { 'z.txt': 'z', nested: { 'y.txt': 'y' } },
    '.github': { 'ci.yml': 'ci' },
    '.git': { HEAD: 'ref' },
    node_modules: { pkg: { 'index.js': '' } },
    src: { node_modules: { 'deep.js': '' }, 'x.ts': 'x' },
    empty: {},
  });
  t.same(await walkedPaths(dir), ['.github/ci.yml', 'a/nested/y.txt', 'a/z.txt', 'b.txt', 'src/x.ts']);
});

t.test('symlinks are yielded but symlinked directories are not descended into', async (t) => {
  const dir = t.testdir({ root: { real: { 'f.txt': 'f' } }, outside: { 'secret.txt': 's' } });
  const root = join(dir, 'root');
  symlinkSync('real/f.txt', join(root, 'file-link'));
  symlinkSync('../outside', join(root, 'dir-link'));
  symlinkSync('.', join(root, 'loop'));
  t.same(await walkedPaths(root), ['dir-link', 'file-link', 'loop', 'real/f.txt']);
});

t.test('special files are yielded too, for the caller to check (and skip) before reading', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({ 'a.txt': 'a' });
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  t.same(await walkedPaths(dir), ['a.txt', 'pipe']);
});

t.test('listed and skippedSpecialFiles name the first ten and count the rest', async (t) => {
  const names = Array.from({ length: 12 }, (_, index) => `f${index}`);
  t.equal(listed(names.slice(0, 2)), 'f0, f1');
  t.equal(listed(names), 'f0, f1, f2, f3, f4, f5, f6, f7, f8, f9 and 2 more');
  t.equal(skippedSpecialFiles(['p (a FIFO (named pipe))']), '(Skipped 1 special file, which the file tools never read: p (a FIFO (named pipe)).)');
});

t.test('an aborted signal stops the walk', async (t) => {
  const dir = t.testdir({ 'a.txt': 'a' });
  const controller = new AbortController();
  controller.abort();
  await t.rejects(walkedPaths(dir, controller.signal), { name: 'AbortError' });
});

t.test('byName orders by code unit, not locale', async (t) => {
  const names = ['b', 'B', 'a', '_x', 'A'].map((name) => ({ name }));
  t.same(names.sort(byName).map(({ name }) => name), ['A', 'B', '_x', 'a', 'b']);
});
