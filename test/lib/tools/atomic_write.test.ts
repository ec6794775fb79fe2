import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { writeFileAtomic } from '../../../lib/tools/atomic_write.js';

t.test('replaces the file through a renamed temporary file, keeping its mode', async (t) => {
  const dir = t.testdir({ 'a.txt': 'old' });
  const path = join(dir, 'a.txt');
  chmodSync(path, 0o604);
  const before = statSync(path);
  await writeFileAtomic(path, 'né\n', before);
  const after = statSync(path);
  t.equal(readFileSync(path, 'utf8'), 'né\n');
  t.not(after.ino, before.ino, 'the old inode, which a hard link could share, is never written to');
  t.equal(after.mode & 0o7777, 0o604, 'the mode is kept even where the umask would have cleared bits');
  t.same(readdirSync(dir), ['a.txt']);
});

t.test('creates a new file with 0666 less the umask', async (t) => {
  const dir = t.testdir({});
  await writeFileAtomic(join(dir, 'new.txt'), '', undefined);
  t.equal(statSync(join(dir, 'new.txt')).mode & 0o7777, 0o666 & ~process.umask());
  t.same(readdirSync(dir), ['new.txt']);
});

t.test('a write cancelled before the rename leaves the old file and no temporary file', async (t) => {
  const dir = t.testdir({ 'a.txt': 'old' });
  const path = join(dir, 'a.txt');
  const controller = new AbortController();
  controller.abort();
  await t.rejects(writeFileAtomic(path, 'new', statSync(path), controller.signal), { name: 'AbortError' });
  t.equal(readFileSync(path, 'utf8'), 'old');
  t.same(readdirSync(dir), ['a.txt']);
});

t.test('a failed rename (a directory in the way) leaves no temporary file', async (t) => {
  const dir = t.testdir({ sub: { 'x.txt': '' } });
  await t.rejects(writeFileAtomic(join(dir, 'sub'), 'new', undefined), { code: 'EISDIR' });
  t.same(readdirSync(dir), ['sub']);
});
