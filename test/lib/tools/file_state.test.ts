import t from 'tap';
import { execFileSync } from 'node:child_process';
import { linkSync } from 'node:fs';
import { join } from 'node:path';
import { readEditableText, statWritable } from '../../../lib/tools/file_state.js';

t.test('statWritable: nothing there yet, a regular file, or a refusal', async (t) => {
  const dir = t.testdir({ 'a.txt': 'hello', sub: {} });
  t.equal(await statWritable(join(dir, 'new.txt'), 'new.txt'), undefined);
  t.equal(await statWritable(join(dir, 'a.txt', 'below'), 'a.txt/below'), undefined, 'a file in the way of a directory is "not there"');
  t.equal((await statWritable(join(dir, 'a.txt'), 'a.txt'))?.size, 5);
  await t.rejects(statWritable(join(dir, 'sub'), 'sub'), { message: '"sub" is a directory.' });
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  await t.rejects(statWritable(join(dir, 'pipe'), 'pipe'), { message: '"pipe" is not a regular file.' });
  linkSync(join(dir, 'a.txt'), join(dir, 'twin.txt'));
  await t.rejects(statWritable(join(dir, 'a.txt'), 'a.txt'), { message: /^"a\.txt" has 2 hard links, .*write tools do not change hard-linked files/ });
});

t.test('readEditableText: the text and stats, null when missing, binary refused', async (t) => {
  const dir = t.testdir({ 'a.txt': 'héllo\n', 'b.bin': Buffer.from([0x50, 0x00, 0x01]) });
  t.match(await readEditableText(join(dir, 'a.txt'), 'a.txt'), { text: 'héllo\n', stats: { size: 7 } });
  t.equal(await readEditableText(join(dir, 'none.txt'), 'none.txt'), null);
  await t.rejects(readEditableText(join(dir, 'b.bin'), 'b.bin'), { message: '"b.bin" is a binary file; only text files can be edited.' });
});
