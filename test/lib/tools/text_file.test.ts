import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { isBinaryFile, readLines } from '../../../lib/tools/text_file.js';

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const line of lines) all.push(line);
  return all;
}

t.test('a NUL byte in the first 8 KiB marks a file as binary', async (t) => {
  const dir = t.testdir({ 'text.txt': 'plain text\n', 'empty.txt': '' });
  writeFileSync(join(dir, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
  writeFileSync(join(dir, 'late-nul.txt'), Buffer.concat([Buffer.alloc(8192, 'a'), Buffer.from([0])]));
  t.equal(await isBinaryFile(join(dir, 'image.bin')), true);
  t.equal(await isBinaryFile(join(dir, 'text.txt')), false);
  t.equal(await isBinaryFile(join(dir, 'empty.txt')), false);
  t.equal(await isBinaryFile(join(dir, 'late-nul.txt')), false, 'only the first 8 KiB are sniffed');
});

t.test('readLines yields lines without their endings, LF or CRLF', async (t) => {
  const dir = t.testdir({ 'mixed.txt': 'one\r\ntwo\nthree', 'trailing.txt': 'a\nb\n', 'utf8.txt': 'héllo €\n' });
  const signal = new AbortController().signal;
  t.same(await collect(readLines(join(dir, 'mixed.txt'), signal)), ['one', 'two', 'three']);
  t.same(await collect(readLines(join(dir, 'trailing.txt'), signal)), ['a', 'b']);
  t.same(await collect(readLines(join(dir, 'utf8.txt'), signal)), ['héllo €']);
});

t.test('readLines splits multi-byte characters across stream chunks correctly', async (t) => {
  const dir = t.testdir({});
  const line = '€'.repeat(100_000); // 300 KB: spans several 64 KiB chunks, cut mid-character
  writeFileSync(join(dir, 'big.txt'), `${line}\nend\n`);
  t.same(await collect(readLines(join(dir, 'big.txt'), new AbortController().signal)), [line, 'end']);
});

t.test('readLines fails for a missing file and when aborted', async (t) => {
  const dir = t.testdir({ 'a.txt': 'a\nb\n' });
  await t.rejects(collect(readLines(join(dir, 'missing.txt'), new AbortController().signal)), { code: 'ENOENT' });
  const controller = new AbortController();
  controller.abort();
  await t.rejects(collect(readLines(join(dir, 'a.txt'), controller.signal)), { name: 'AbortError' });
});
