import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createToolbox } from '../../../lib/tools/registry.js';
import { writeFile } from '../../../lib/tools/write_file.js';

const context = (cwd: string, extraRoots?: string[]) => ({ cwd, signal: new AbortController().signal, extraRoots });

t.test('creates a file, and any missing parent directories', async (t) => {
  const dir = t.testdir({});
  t.same(await writeFile.run({ path: 'a.txt', content: 'hello\n' }, context(dir)), { output: 'Created "a.txt" with 6 bytes.', changedFiles: ['a.txt'] });
  t.same(await writeFile.run({ path: './src/x/../deep/b.ts', content: '€' }, context(dir)), { output: 'Created "./src/x/../deep/b.ts" with 3 bytes.', changedFiles: ['src/deep/b.ts'] });
  t.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'hello\n');
  t.equal(readFileSync(join(dir, 'src/deep/b.ts'), 'utf8'), '€');
});

t.test('overwrites an existing file, saying so', async (t) => {
  const dir = t.testdir({ 'a.txt': 'old content\n' });
  t.same(await writeFile.run({ path: 'a.txt', content: '' }, context(dir)), { output: 'Overwrote "a.txt" with 0 bytes (it had 12 bytes).', changedFiles: ['a.txt'] });
  t.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), '');
});

t.test('writes through a symlink that stays inside', async (t) => {
  const dir = t.testdir({ 'real.txt': 'old' });
  symlinkSync('real.txt', join(dir, 'link.txt'));
  t.same((await writeFile.run({ path: 'link.txt', content: 'new' }, context(dir))).changedFiles, ['real.txt'], 'the file that really changed');
  t.equal(readFileSync(join(dir, 'real.txt'), 'utf8'), 'new');
});

t.test('refuses to overwrite a directory or a special file', async (t) => {
  const dir = t.testdir({ src: { 'a.ts': 'a' } });
  await t.rejects(writeFile.run({ path: 'src', content: 'x' }, context(dir)), { message: '"src" is a directory.' });
  await t.rejects(writeFile.run({ path: '.', content: 'x' }, context(dir)), { message: '"." is a directory.' });
  if (process.platform !== 'win32') {
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    await t.rejects(writeFile.run({ path: 'pipe', content: 'x' }, context(dir)), { message: '"pipe" is a FIFO (named pipe), not a regular file: the file tools read regular files only, never FIFOs, sockets or devices.' });
  }
});

t.test('refuses paths outside the working directory, leaving the file system unchanged', async (t) => {
  const dir = t.testdir({ root: {}, outside: { 'secret.txt': 'secret' } });
  const root = join(dir, 'root');
  symlinkSync('../outside/secret.txt', join(root, 'file-out'));
  symlinkSync('../outside/new.txt', join(root, 'dangling-out'));
  symlinkSync('../outside', join(root, 'dir-out'));
  const escapes = ['../outside/secret.txt', '../outside/new.txt', join(dir, 'outside/new.txt'), 'file-out', 'dangling-out', 'dir-out/new.txt', 'a/../../x.txt'];
  for (const path of escapes) {
    await t.rejects(writeFile.run({ path, content: 'pwned' }, context(root)), {
      message: `Path "${path}" is outside the working directory and the --add-dir directories.`,
    });
  }
  t.equal(readFileSync(join(dir, 'outside/secret.txt'), 'utf8'), 'secret');
  t.same(readdirSync(join(dir, 'outside')), ['secret.txt']);
  t.same(readdirSync(dir).sort(), ['outside', 'root']);
  t.notOk(existsSync(join(root, 'a')), 'no parent directory was created either');
});

t.test('extraRoots (--add-dir) allow a second directory', async (t) => {
  const dir = t.testdir({ root: {}, other: {}, third: {} });
  const root = join(dir, 'root');
  const ctx = context(root, [join(dir, 'other')]);
  t.same(await writeFile.run({ path: '../other/a.txt', content: 'a' }, ctx), { output: 'Created "../other/a.txt" with 1 byte.', changedFiles: [join(realpathSync(dir), 'other/a.txt')] }, 'absolute outside cwd');
  await writeFile.run({ path: join(dir, 'other/sub/b.txt'), content: 'b' }, ctx);
  t.equal(readFileSync(join(dir, 'other/a.txt'), 'utf8'), 'a');
  t.equal(readFileSync(join(dir, 'other/sub/b.txt'), 'utf8'), 'b');
  await t.rejects(writeFile.run({ path: '../third/c.txt', content: 'c' }, ctx), { message: /outside the working directory and the --add-dir directories/ });
  t.same(readdirSync(join(dir, 'third')), []);
});

t.test('through the toolbox: a write tool that asks permission, with checked arguments', async (t) => {
  const dir = t.testdir({});
  t.equal(writeFile.sideEffect, 'write');
  t.equal(writeFile.permission, 'prompt');
  const toolbox = createToolbox([writeFile]);
  t.same(await toolbox.run({ id: '1', name: 'write_file', args: { path: 'a.txt' } }, context(dir)), {
    status: 'error',
    output: 'Invalid arguments for write_file: content: Required field is missing.',
    truncated: false,
  });
  t.same(await toolbox.run({ id: '2', name: 'write_file', args: { path: 'a.txt', content: 'x' } }, context(dir)), {
    status: 'ok',
    output: 'Created "a.txt" with 1 byte.',
    truncated: false,
    changedFiles: ['a.txt'],
  });
});

// A hard link does not show where its other names are: this one leads out of the working directory.
t.test('refuses a file hard-linked to one outside the working directory, which stays unchanged', async (t) => {
  const dir = t.testdir({ root: {}, outside: { 'secret.txt': 'secret\n' } });
  const root = join(dir, 'root');
  linkSync(join(dir, 'outside', 'secret.txt'), join(root, 'inside.txt'));
  await t.rejects(writeFile.run({ path: 'inside.txt', content: 'overwritten\n' }, context(root)), { message: /^"inside\.txt" has 2 hard links, .*write tools do not change hard-linked files/ });
  t.equal(readFileSync(join(dir, 'outside', 'secret.txt'), 'utf8'), 'secret\n');
});

t.test('replaces the file whole (a new inode), keeps its mode, and leaves no temporary file', async (t) => {
  const dir = t.testdir({ 'a.sh': 'echo old\n' });
  chmodSync(join(dir, 'a.sh'), 0o750);
  const before = statSync(join(dir, 'a.sh'));
  await writeFile.run({ path: 'a.sh', content: 'echo new\n' }, context(dir));
  const after = statSync(join(dir, 'a.sh'));
  t.not(after.ino, before.ino, 'written through a new file renamed into place: a crash leaves the old file or the new one');
  t.equal(after.mode & 0o7777, 0o750);
  t.equal(readFileSync(join(dir, 'a.sh'), 'utf8'), 'echo new\n');
  t.same(readdirSync(dir), ['a.sh']);
});

t.test('a new file gets the default mode, 0666 less the umask', async (t) => {
  const dir = t.testdir({});
  await writeFile.run({ path: 'new.txt', content: 'x' }, context(dir));
  t.equal(statSync(join(dir, 'new.txt')).mode & 0o7777, 0o666 & ~process.umask());
  t.same(readdirSync(dir), ['new.txt']);
});
