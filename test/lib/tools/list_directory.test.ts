import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { listDirectory } from '../../../lib/tools/list_directory.js';

const context = (cwd: string) => ({ cwd, signal: new AbortController().signal });

t.test('lists entries sorted by name, directories ending with "/"', async (t) => {
  const dir = t.testdir({ 'b.txt': '', a: {}, 'a.txt': '', '.env': '', C: { 'inner.txt': '' } });
  t.equal(await listDirectory.run({}, context(dir)), '.env\nC/\na/\na.txt\nb.txt');
  t.equal(await listDirectory.run({ path: 'C' }, context(dir)), 'inner.txt');
});

t.test('an empty directory says so', async (t) => {
  const dir = t.testdir({ empty: {} });
  t.equal(await listDirectory.run({ path: 'empty' }, context(dir)), '(Directory "empty" is empty.)');
});

t.test('fails for a missing path or a file', async (t) => {
  const dir = t.testdir({ 'file.txt': 'x' });
  await t.rejects(listDirectory.run({ path: 'missing' }, context(dir)), { message: 'Path "missing" does not exist.' });
  await t.rejects(listDirectory.run({ path: 'file.txt' }, context(dir)), { message: /"file.txt" is not a directory/ });
});

t.test('special files are listed saying what they are; a FIFO as the path is refused naming it', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({ 'a.txt': '' });
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  symlinkSync('pipe', join(dir, 'pipe-link'));
  t.equal(await listDirectory.run({}, context(dir)), 'a.txt\npipe (a FIFO (named pipe): not read by the file tools)\npipe-link');
  await t.rejects(listDirectory.run({ path: 'pipe-link' }, context(dir)), { message: '"pipe-link" is a FIFO (named pipe), not a directory.' });
});

t.test('refuses directories outside the working directory', async (t) => {
  const dir = t.testdir({ root: {}, outside: { 'secret.txt': '' } });
  const root = join(dir, 'root');
  symlinkSync('../outside', join(root, 'escape'));
  for (const path of ['..', join(dir, 'outside'), 'escape']) {
    await t.rejects(listDirectory.run({ path }, context(root)), { message: `Path "${path}" is outside the working directory.` });
  }
});
