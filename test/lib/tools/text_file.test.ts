import { execFileSync } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { NotRegularFileError } from '../../../lib/files/open.js';
import { isBinaryFile, looksBinary, openTextFile, readLines, type TextLine } from '../../../lib/tools/text_file.js';
import { stillOpen } from '../../helpers/processes.js';

async function collect(lines: AsyncIterable<TextLine>): Promise<TextLine[]> {
  const all: TextLine[] = [];
  for await (const line of lines) all.push(line);
  return all;
}

const whole = (...texts: string[]) => texts.map((text) => ({ text, cut: false }));

t.test('a NUL byte in the first 8 KiB marks a file as binary', async (t) => {
  const dir = t.testdir({ 'text.txt': 'plain text\n', 'empty.txt': '' });
  writeFileSync(join(dir, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
  writeFileSync(join(dir, 'late-nul.txt'), Buffer.concat([Buffer.alloc(8192, 'a'), Buffer.from([0])]));
  const binary = (name: string) => isBinaryFile(openSync(join(dir, name), 'r'));
  t.equal(await binary('image.bin'), true);
  t.equal(await binary('text.txt'), false);
  t.equal(await binary('empty.txt'), false);
  t.equal(await binary('late-nul.txt'), false, 'only the first 8 KiB are sniffed');
  t.equal(looksBinary(Buffer.from('a\0b')), true);
});

t.test('openTextFile: an open text file; undefined (closed) for a binary one; a FIFO refused at once, unopened by a blocking open', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({ 'text.txt': 'text\n' });
  writeFileSync(join(dir, 'image.bin'), Buffer.from([0x00, 0x01]));
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  const file = await openTextFile(join(dir, 'text.txt'), 'text.txt');
  t.ok(file?.stats.isFile());
  t.same(await collect(readLines(file!.fd, { maxLineBytes: 100 })), whole('text'));
  t.equal(await openTextFile(join(dir, 'image.bin'), 'image.bin'), undefined);
  const refusal = await openTextFile(join(dir, 'pipe'), 'pipe').catch((error: unknown) => error);
  t.type(refusal, NotRegularFileError);
  t.match(refusal, { message: /^"pipe" is a FIFO \(named pipe\), not a regular file/ });
});

t.test('readLines yields lines without their endings, LF or CRLF, and closes the file', async (t) => {
  const dir = t.testdir({ 'mixed.txt': 'one\r\ntwo\nthree', 'trailing.txt': 'a\nb\n', 'utf8.txt': 'héllo €\n', 'blank.txt': '\n\nx\n' });
  const lines = (name: string) => collect(readLines(openSync(join(dir, name), 'r'), { maxLineBytes: 1000 }));
  t.same(await lines('mixed.txt'), whole('one', 'two', 'three'));
  t.same(await lines('trailing.txt'), whole('a', 'b'));
  t.same(await lines('utf8.txt'), whole('héllo €'));
  t.same(await lines('blank.txt'), whole('', '', 'x'));
  const fd = openSync(join(dir, 'trailing.txt'), 'r');
  for await (const line of readLines(fd, { maxLineBytes: 1000 })) if (line.text === 'a') break;
  t.equal(await stillOpen(fd), false, 'stopping early closes the file');
});

t.test('readLines splits multi-byte characters across stream chunks correctly', async (t) => {
  const dir = t.testdir({});
  const line = '€'.repeat(100_000); // 300 KB: spans several 64 KiB chunks, cut mid-character
  writeFileSync(join(dir, 'big.txt'), `${line}\nend\n`);
  t.same(await collect(readLines(openSync(join(dir, 'big.txt'), 'r'), { maxLineBytes: 1 << 20 })), whole(line, 'end'));
});

t.test('a line longer than maxLineBytes is given cut, on a character boundary, and the next line is intact', async (t) => {
  const dir = t.testdir({});
  writeFileSync(join(dir, 'long.txt'), `${'€'.repeat(200_000)}\nnext\n${'x'.repeat(10)}\r\n${'y'.repeat(11)}`);
  const lines = await collect(readLines(openSync(join(dir, 'long.txt'), 'r'), { maxLineBytes: 10 }));
  t.same(lines, [{ text: '€€€', cut: true }, { text: 'next', cut: false }, { text: 'x'.repeat(10), cut: false }, { text: 'y'.repeat(10), cut: true }]);
  // Lines whole in one chunk are decoded together: a long one among them is cut the same way.
  writeFileSync(join(dir, 'mixed.txt'), `short\n${'z'.repeat(20)}\n€€€€\r\nend\n`);
  t.same(await collect(readLines(openSync(join(dir, 'mixed.txt'), 'r'), { maxLineBytes: 10 })), [
    { text: 'short', cut: false },
    { text: 'z'.repeat(10), cut: true },
    { text: '€€€', cut: true },
    { text: 'end', cut: false },
  ]);
});

t.test('a line of 600 MB (a sparse file) is cut at once, in memory of the limit, without reading the rest', async (t) => {
  const dir = t.testdir({});
  const path = join(dir, 'huge.txt');
  writeFileSync(path, 'a'.repeat(8192));
  execFileSync('truncate', ['-s', '600M', path]);
  const started = performance.now();
  const lines = readLines(openSync(path, 'r'), { maxLineBytes: 65536 });
  const first = await lines.next();
  await lines.return(undefined);
  t.equal((first.value as TextLine).cut, true);
  t.equal((first.value as TextLine).text.length, 65536);
  t.ok(performance.now() - started < 2000, 'the first line came before the 600 MB were read');
});

t.test('readLines fails when aborted, and closes the file', async (t) => {
  const dir = t.testdir({ 'a.txt': 'a\nb\n' });
  const controller = new AbortController();
  controller.abort();
  const fd = openSync(join(dir, 'a.txt'), 'r');
  await t.rejects(collect(readLines(fd, { maxLineBytes: 100, signal: controller.signal })), { name: 'AbortError' });
  t.equal(await stillOpen(fd), false);
});
