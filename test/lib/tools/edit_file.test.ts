import { execFileSync } from 'node:child_process';
import { chmodSync, linkSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { editFile } from '../../../lib/tools/edit_file.js';
import { createToolbox } from '../../../lib/tools/registry.js';

const context = (cwd: string, extraRoots?: string[]) => ({ cwd, signal: new AbortController().signal, extraRoots });
const source = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n';

t.test('replaces the one occurrence of old_string', async (t) => {
  const dir = t.testdir({ 'a.js': source });
  const result = await editFile.run({ path: 'a.js', old_string: 'a() {\n  return 1;', new_string: 'a() {\n  return 2;' }, context(dir));
  t.same(result, { output: 'Replaced 1 occurrence in "a.js".', changedFiles: ['a.js'] });
  t.equal(readFileSync(join(dir, 'a.js'), 'utf8'), source.replace('return 1', 'return 2'));
});

t.test('replace_all replaces every occurrence and says how many', async (t) => {
  const dir = t.testdir({ 'a.js': source });
  t.same(await editFile.run({ path: 'a.js', old_string: 'return 1', new_string: 'return 0', replace_all: true }, context(dir)), { output: 'Replaced 2 occurrences in "a.js".', changedFiles: ['a.js'] });
  t.equal(readFileSync(join(dir, 'a.js'), 'utf8'), source.replaceAll('return 1', 'return 0'));
});

t.test('new_string is taken literally, "$&" and all', async (t) => {
  const dir = t.testdir({ 'a.txt': 'price: X\n' });
  await editFile.run({ path: 'a.txt', old_string: 'X', new_string: "$& $' $1 $$" }, context(dir));
  t.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), "price: $& $' $1 $$\n");
});

t.test('fails clearly, changing nothing, when old_string is missing, repeated or the same as new_string', async (t) => {
  const dir = t.testdir({ 'a.js': source, 'three.txt': 'x x x' });
  await t.rejects(editFile.run({ path: 'a.js', old_string: 'return  1', new_string: 'return 2' }, context(dir)), {
    message: 'old_string was not found in "a.js"; it must match the file exactly, including whitespace and indentation.',
  });
  await t.rejects(editFile.run({ path: 'three.txt', old_string: 'x', new_string: 'y' }, context(dir)), {
    message: 'old_string appears 3 times in "three.txt"; add surrounding context to make it unique, or set replace_all to replace all 3.',
  });
  await t.rejects(editFile.run({ path: 'three.txt', old_string: 'x', new_string: 'y', replace_all: false }, context(dir)), { message: /appears 3 times/ });
  await t.rejects(editFile.run({ path: 'a.js', old_string: 'return 1', new_string: 'return 1', replace_all: true }, context(dir)), {
    message: 'old_string and new_string are the same; there is nothing to change.',
  });
  t.equal(readFileSync(join(dir, 'a.js'), 'utf8'), source);
  t.equal(readFileSync(join(dir, 'three.txt'), 'utf8'), 'x x x');
});

t.test('fails for a missing file, a directory and a binary file', async (t) => {
  const dir = t.testdir({ src: {} });
  writeFileSync(join(dir, 'blob.bin'), Buffer.from('ab\0cd'));
  await t.rejects(editFile.run({ path: 'nope.txt', old_string: 'a', new_string: 'b' }, context(dir)), { message: 'Path "nope.txt" does not exist.' });
  await t.rejects(editFile.run({ path: 'src', old_string: 'a', new_string: 'b' }, context(dir)), { message: '"src" is a directory.' });
  await t.rejects(editFile.run({ path: 'blob.bin', old_string: 'a', new_string: 'b' }, context(dir)), { message: /"blob.bin" is a binary file/ });
  t.same(readFileSync(join(dir, 'blob.bin')), Buffer.from('ab\0cd'));
});

t.test('a FIFO is refused at once, and a file over 32 MiB before it is read', { skip: process.platform === 'win32', timeout: 10_000 }, async (t) => {
  const dir = t.testdir({});
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  await t.rejects(editFile.run({ path: 'pipe', old_string: 'a', new_string: 'b' }, context(dir)), { message: /^"pipe" is a FIFO \(named pipe\), not a regular file/ });
  const huge = join(dir, 'huge.log');
  writeFileSync(huge, 'a\n');
  execFileSync('truncate', ['-s', '600M', huge]); // sparse
  await t.rejects(editFile.run({ path: 'huge.log', old_string: 'a', new_string: 'b' }, context(dir)), { message: /^"huge\.log" is 629145600 bytes; edit_file and apply_patch change files of at most 33554432 bytes/ });
});

t.test('an empty old_string is refused by the argument schema', async (t) => {
  const dir = t.testdir({ 'a.txt': 'a' });
  t.same(await createToolbox([editFile]).run({ id: '1', name: 'edit_file', args: { path: 'a.txt', old_string: '', new_string: 'b' } }, context(dir)), {
    status: 'error',
    output: 'Invalid arguments for edit_file: old_string: Must not be empty.',
    truncated: false,
  });
});

t.test('refuses paths outside the working directory, leaving the file system unchanged', async (t) => {
  const dir = t.testdir({ root: {}, outside: { 'secret.txt': 'secret' } });
  const root = join(dir, 'root');
  symlinkSync('../outside/secret.txt', join(root, 'file-out'));
  symlinkSync('../outside', join(root, 'dir-out'));
  for (const path of ['../outside/secret.txt', join(dir, 'outside/secret.txt'), 'file-out', 'dir-out/secret.txt']) {
    await t.rejects(editFile.run({ path, old_string: 'secret', new_string: 'pwned' }, context(root)), {
      message: `Path "${path}" is outside the working directory and the --add-dir directories.`,
    });
  }
  t.equal(readFileSync(join(dir, 'outside/secret.txt'), 'utf8'), 'secret');
});

t.test('extraRoots (--add-dir) allow a second directory', async (t) => {
  const dir = t.testdir({ root: {}, other: { 'a.txt': 'one' } });
  await editFile.run({ path: '../other/a.txt', old_string: 'one', new_string: 'two' }, context(join(dir, 'root'), [join(dir, 'other')]));
  t.equal(readFileSync(join(dir, 'other/a.txt'), 'utf8'), 'two');
});

// A hard link does not show where its other names are: this one leads out of the working directory.
t.test('refuses a file hard-linked to one outside the working directory, which stays unchanged', async (t) => {
  const dir = t.testdir({ root: {}, outside: { 'secret.txt': 'secret\n' } });
  const root = join(dir, 'root');
  linkSync(join(dir, 'outside', 'secret.txt'), join(root, 'inside.txt'));
  await t.rejects(editFile.run({ path: 'inside.txt', old_string: 'secret', new_string: 'changed' }, context(root)), { message: /^"inside\.txt" has 2 hard links, .*write tools do not change hard-linked files/ });
  t.equal(readFileSync(join(dir, 'outside', 'secret.txt'), 'utf8'), 'secret\n');
});

t.test('replaces the file whole (a new inode), keeps its mode, and leaves no temporary file', async (t) => {
  const dir = t.testdir({ 'run.sh': 'echo old\n' });
  chmodSync(join(dir, 'run.sh'), 0o700);
  const before = statSync(join(dir, 'run.sh'));
  await editFile.run({ path: 'run.sh', old_string: 'old', new_string: 'new' }, context(dir));
  const after = statSync(join(dir, 'run.sh'));
  t.not(after.ino, before.ino, 'written through a new file renamed into place');
  t.equal(after.mode & 0o7777, 0o700);
  t.equal(readFileSync(join(dir, 'run.sh'), 'utf8'), 'echo new\n');
  t.same(readdirSync(dir), ['run.sh']);
});
