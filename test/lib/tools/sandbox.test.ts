import { symlinkSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { SandboxError } from '../../../lib/errors.js';
import { changedFilePaths, displayPath, isInside, resolveExisting, resolveInside, resolveWritable, writeTargets } from '../../../lib/tools/sandbox.js';

type WithTestdir = { testdir: typeof t.testdir };

function fixture(t: WithTestdir) {
  const dir = t.testdir({
    root: { 'a.txt': 'a', src: { 'b.ts': 'b' } },
    outside: { 'secret.txt': 'secret' },
    rootling: { 'c.txt': 'c' },
  });
  return { dir, root: join(dir, 'root') };
}

t.test('resolves relative and absolute paths inside the root to real absolute paths', async (t) => {
  const { root } = fixture(t);
  const realRoot = await realpath(root);
  t.equal(await resolveInside(root, 'a.txt'), join(realRoot, 'a.txt'));
  t.equal(await resolveInside(root, 'src/../src/b.ts'), join(realRoot, 'src/b.ts'));
  t.equal(await resolveInside(root, join(root, 'src/b.ts')), join(realRoot, 'src/b.ts'));
  t.equal(await resolveInside(root, '.'), realRoot);
});

t.test('refuses paths that escape with .. or are absolute outside the root', async (t) => {
  const { dir, root } = fixture(t);
  await t.rejects(resolveInside(root, '../outside/secret.txt'), { message: 'Path "../outside/secret.txt" is outside the working directory.' });
  await t.rejects(resolveInside(root, '..'), { message: 'Path ".." is outside the working directory.' });
  await t.rejects(resolveInside(root, join(dir, 'outside/secret.txt')), { message: /is outside the working directory/ });
  await t.rejects(resolveInside(root, '/etc/passwd'), { message: 'Path "/etc/passwd" is outside the working directory.' });
});

t.test('a sibling whose name starts with the root name is outside', async (t) => {
  const { dir, root } = fixture(t);
  await t.rejects(resolveInside(root, '../rootling/c.txt'), { message: /outside the working directory/ });
  await t.rejects(resolveInside(root, join(dir, 'rootling')), { message: /outside the working directory/ });
});

t.test('follows symlinks: inside targets resolve, outside targets are refused', async (t) => {
  const { root } = fixture(t);
  const realRoot = await realpath(root);
  symlinkSync('src/b.ts', join(root, 'inside-link'));
  symlinkSync('../outside/secret.txt', join(root, 'file-out'));
  symlinkSync('../outside', join(root, 'dir-out'));
  t.equal(await resolveInside(root, 'inside-link'), join(realRoot, 'src/b.ts'));
  await t.rejects(resolveInside(root, 'file-out'), { message: 'Path "file-out" is outside the working directory.' });
  await t.rejects(resolveInside(root, 'dir-out/secret.txt'), { message: /outside the working directory/ });
});

t.test('paths that do not exist yet resolve through their nearest existing ancestor', async (t) => {
  const { root } = fixture(t);
  const realRoot = await realpath(root);
  symlinkSync('src', join(root, 'src-link'));
  symlinkSync('../outside', join(root, 'dir-out'));
  t.equal(await resolveInside(root, 'new/deeper/file.txt'), join(realRoot, 'new/deeper/file.txt'));
  t.equal(await resolveInside(root, 'src-link/new.ts'), join(realRoot, 'src/new.ts'));
  await t.rejects(resolveInside(root, 'dir-out/new/file.txt'), { message: /outside the working directory/ });
});

t.test('a dangling symlink is judged by where it points', async (t) => {
  const { root } = fixture(t);
  const realRoot = await realpath(root);
  symlinkSync('../outside/not-yet.txt', join(root, 'dangling-out'));
  symlinkSync('later/file.txt', join(root, 'dangling-in'));
  await t.rejects(resolveInside(root, 'dangling-out'), { message: /outside the working directory/ });
  t.equal(await resolveInside(root, 'dangling-in'), join(realRoot, 'later/file.txt'));
});

t.test('a root reached through a symlink works, and results are real paths', async (t) => {
  const { dir, root } = fixture(t);
  symlinkSync('root', join(dir, 'root-link'));
  t.equal(await resolveInside(join(dir, 'root-link'), 'a.txt'), join(await realpath(root), 'a.txt'));
  await t.rejects(resolveInside(join(dir, 'root-link'), '../outside'), { message: /outside the working directory/ });
});

t.test('resolveExisting reports what the path is, or that it does not exist', async (t) => {
  const { root } = fixture(t);
  const found = await resolveExisting(root, 'src');
  t.ok(found.stats.isDirectory());
  t.equal(found.path, join(await realpath(root), 'src'));
  await t.rejects(resolveExisting(root, 'nope.txt'), { message: 'Path "nope.txt" does not exist.' });
  await t.rejects(resolveExisting(root, '../outside/secret.txt'), { message: /outside the working directory/ });
});

t.test('isInside compares whole path segments', async (t) => {
  t.ok(isInside('/work/ab', '/work/ab'));
  t.ok(isInside('/work/ab', '/work/ab/c'));
  t.ok(isInside('/work/ab', '/work/ab/..c'));
  t.notOk(isInside('/work/ab', '/work/abc'));
  t.notOk(isInside('/work/ab', '/work'));
  t.notOk(isInside('/work/ab', '/other'));
});

t.test('displayPath shows paths relative to the root', async (t) => {
  t.equal(displayPath('/work/ab', '/work/ab/src/x.ts'), 'src/x.ts');
  t.equal(displayPath('/work/ab', '/work/ab'), '.');
});

t.test('resolveWritable: inside the working directory, or inside an extra root', async (t) => {
  const { dir, root } = fixture(t);
  const context = { cwd: root, signal: new AbortController().signal, extraRoots: [join(dir, 'rootling')] };
  t.equal(await resolveWritable(context, 'new/file.txt'), join(await realpath(root), 'new/file.txt'));
  t.equal(await resolveWritable(context, '../rootling/c.txt'), join(await realpath(dir), 'rootling/c.txt'));
  t.equal(await resolveWritable(context, join(dir, 'rootling/new.txt')), join(await realpath(dir), 'rootling/new.txt'));
  symlinkSync('../rootling/c.txt', join(root, 'to-extra'));
  t.equal(await resolveWritable(context, 'to-extra'), join(await realpath(dir), 'rootling/c.txt'), 'a symlink into an extra root');
});

t.test('resolveWritable refuses everything else, symlinks judged by their target', async (t) => {
  const { dir, root } = fixture(t);
  const context = { cwd: root, signal: new AbortController().signal, extraRoots: [join(dir, 'rootling')] };
  symlinkSync('../outside/secret.txt', join(root, 'file-out'));
  symlinkSync('../outside/later.txt', join(root, 'dangling-out'));
  for (const path of ['../outside/secret.txt', join(dir, 'outside'), '..', 'file-out', 'dangling-out', '/etc/passwd']) {
    await t.rejects(resolveWritable(context, path), { message: `Path "${path}" is outside the working directory and the --add-dir directories.` });
  }
  await t.rejects(resolveWritable({ ...context, extraRoots: undefined }, '../rootling/c.txt'), { message: /outside the working directory/ });
});

/** What resolving `path` threw: its block code and whether --add-dir could help. */
async function refusal(resolving: Promise<string>): Promise<{ block: string; path: string; recoverable: boolean } | undefined> {
  try {
    await resolving;
    return undefined;
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return { block: error.block, path: error.path, recoverable: error.recoverable };
  }
}

t.test('a refusal says why: outside_workspace, or symlink_traversal when a path inside as written is led out by a symlink', async (t) => {
  const { dir, root } = fixture(t);
  symlinkSync('../outside/secret.txt', join(root, 'file-out'));
  symlinkSync('../outside', join(root, 'dir-out'));
  symlinkSync('../outside/not-yet.txt', join(root, 'dangling-out'));
  symlinkSync('root', join(dir, 'root-link'));
  const cases: [string, string][] = [
    ['../outside/secret.txt', 'outside_workspace'],
    ['..', 'outside_workspace'],
    ['/etc/passwd', 'outside_workspace'],
    ['src/../../outside', 'outside_workspace'],
    ['file-out', 'symlink_traversal'],
    ['dir-out/secret.txt', 'symlink_traversal'],
    ['dir-out/new/file.txt', 'symlink_traversal'],
    ['dangling-out', 'symlink_traversal'],
    [join(root, 'dir-out/secret.txt'), 'symlink_traversal'],
  ];
  for (const [path, block] of cases) {
    t.same(await refusal(resolveInside(root, path)), { block, path, recoverable: false }, `read ${path}`);
  }
  t.same(await refusal(resolveInside(join(dir, 'root-link'), join(dir, 'root-link/dir-out/secret.txt'))), { block: 'symlink_traversal', path: join(dir, 'root-link/dir-out/secret.txt'), recoverable: false }, 'inside the root as the user named it');
  t.same(await refusal(resolveInside(join(dir, 'root-link'), '../outside')), { block: 'outside_workspace', path: '../outside', recoverable: false });

  const context = { cwd: root, signal: new AbortController().signal, extraRoots: [join(dir, 'rootling')] };
  t.same(await refusal(resolveWritable(context, '../outside/x.txt')), { block: 'outside_workspace', path: '../outside/x.txt', recoverable: true }, 'an --add-dir would allow it');
  t.same(await refusal(resolveWritable(context, 'dir-out/x.txt')), { block: 'symlink_traversal', path: 'dir-out/x.txt', recoverable: false });
  symlinkSync('../outside', join(dir, 'rootling/out'));
  t.same(await refusal(resolveWritable(context, '../rootling/out/x.txt')), { block: 'symlink_traversal', path: '../rootling/out/x.txt', recoverable: false }, 'out of an extra root');
});

t.test('changed files are named relative to the working directory, absolute in an extra root outside it', async (t) => {
  const { dir, root } = fixture(t);
  const realDir = await realpath(dir);
  const context = { cwd: root, signal: new AbortController().signal, extraRoots: [join(dir, 'rootling')] };
  symlinkSync('src/b.ts', join(root, 'b-link'));
  t.same(await writeTargets(context, ['a.txt', './src/../src/b.ts', 'b-link', 'new/x.txt', '../rootling/c.txt']), ['a.txt', 'src/b.ts', 'new/x.txt', join(realDir, 'rootling/c.txt')], 'each real file once');
  t.same(await changedFilePaths(context, [join(realDir, 'root/a.txt')]), ['a.txt']);
  await t.rejects(writeTargets(context, ['a.txt', '../outside/x']), SandboxError);
});
