import t from 'tap';
import { execFileSync } from 'node:child_process';
import { linkSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_EDITABLE_BYTES, readEditableText, statWritable } from '../../../lib/tools/file_state.js';

t.test('statWritable: nothing there yet, a regular file, or a refusal', async (t) => {
  const dir = t.testdir({ 'a.txt': 'hello', sub: {} });
  t.equal(await statWritable(join(dir, 'new.txt'), 'new.txt'), undefined);
  t.equal(await statWritable(join(dir, 'a.txt', 'below'), 'a.txt/below'), undefined, 'a file in the way of a directory is "not there"');
  t.equal((await statWritable(join(dir, 'a.txt'), 'a.txt'))?.size, 5);
  await t.rejects(statWritable(join(dir, 'sub'), 'sub'), { message: '"sub" is a directory.' });
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  await t.rejects(statWritable(join(dir, 'pipe'), 'pipe'), { message: '"pipe" is a FIFO (named pipe), not a regular file: the file tools read regular files only, never FIFOs, sockets or devices.' });
  linkSync(join(dir, 'a.txt'), join(dir, 'twin.txt'));
  await t.rejects(statWritable(join(dir, 'a.txt'), 'a.txt'), { message: /^"a\.txt" has 2 hard links, .*write tools do not change hard-linked files/ });
});

t.test('readEditableText: the text and stats, null when missing, binary refused', async (t) => {
  const dir = t.testdir({ 'a.txt': 'héllo\n', 'b.bin': Buffer.from([0x50, 0x00, 0x01]) });
  t.match(await readEditableText(join(dir, 'a.txt'), 'a.txt'), { text: 'héllo\n', stats: { size: 7 } });
  t.equal(await readEditableText(join(dir, 'none.txt'), 'none.txt'), null);
  await t.rejects(readEditableText(join(dir, 'b.bin'), 'b.bin'), { message: '"b.bin" is a binary file; only text files can be edited.' });
});

t.test('readEditableText: a FIFO (or a symlink to one) is refused at once, never opened to wait for a writer', { skip: process.platform === 'win32', timeout: 10_000 }, async (t) => {
  const dir = t.testdir({});
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  symlinkSync('pipe', join(dir, 'pipe-link'));
  await t.rejects(readEditableText(join(dir, 'pipe'), 'pipe'), { message: '"pipe" is a FIFO (named pipe), not a regular file: the file tools read regular files only, never FIFOs, sockets or devices.' });
  await t.rejects(readEditableText(join(dir, 'pipe-link'), 'pipe-link'), { message: /^"pipe-link" is a FIFO \(named pipe\), not a regular file/ });
});

t.test('readEditableText: a file over 32 MiB is refused before it is read, saying what to use instead', async (t) => {
  const dir = t.testdir({});
  const path = join(dir, 'huge.txt');
  writeFileSync(path, 'x'.repeat(8192)); // text enough to pass the binary sniff
  truncateSync(path, MAX_EDITABLE_BYTES + 1); // sparse: the rest is not written to disk
  await t.rejects(readEditableText(path, 'huge.txt'), { message: `"huge.txt" is ${MAX_EDITABLE_BYTES + 1} bytes; edit_file and apply_patch change files of at most ${MAX_EDITABLE_BYTES} bytes (32 MiB): use bash (sed, a script) for larger ones.` });
  truncateSync(path, MAX_EDITABLE_BYTES);
  t.equal((await readEditableText(path, 'huge.txt'))?.text.length, MAX_EDITABLE_BYTES, 'at the limit it is read');
});
