import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, readSync, fstatSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { PIECE_CHARS, TextSpool } from '../../../lib/files/text-spool.js';

// The spool's file is unlinked at once: it is found through the process's open files (/proc/self/fd), the only path to it.
const spoolFds = (): number[] =>
  readdirSync('/proc/self/fd')
    .map(Number)
    .filter((fd) => {
      try {
        return /zero-spool-.*\(deleted\)$/.test(readlinkSync(`/proc/self/fd/${fd}`));
      } catch {
        return false;
      }
    });

const bytesOf = (fd: number): Buffer => {
  const bytes = Buffer.alloc(fstatSync(fd).size);
  readSync(fd, bytes, 0, bytes.length, 0);
  return bytes;
};

const written = (spool: TextSpool, pieces: string[]) => {
  for (const piece of pieces) spool.write(piece);
  return spool;
};

t.test('ASCII and multi-byte text, written in pieces that split characters and pairs, reads back whole', async (t) => {
  const text = 'plain ascii, é, 中文, emoji 😀🎉, and a "quote"\n'.repeat(5000);
  // pieces of 7 UTF-16 units: they cut surrogate pairs in half, and the 1 MiB reads cut UTF-8 sequences
  const pieces = Array.from({ length: Math.ceil(text.length / 7) }, (_, index) => text.slice(index * 7, index * 7 + 7));
  const spool = written(new TextSpool(1000), pieces);
  t.ok(spool.spooled, 'past its threshold the text is in the file');
  t.equal(spool.length, text.length);
  t.equal(spool.text(), text);
  const chunks = [...spool.chunks()];
  t.equal(chunks.join(''), text);
  t.ok(chunks.every((chunk) => !/[\ud800-\udbff]$/.test(chunk)), 'no chunk ends between the halves of a pair');
  t.equal(spool.text(), text, 'read back as often as asked');
});

t.test('below its threshold the text stays a string, and no file is made', async (t) => {
  const before = spoolFds().length;
  const spool = written(new TextSpool(100), ['short ', 'text 😀'.slice(0, 6), '😀'.slice(1)]);
  t.notOk(spool.spooled);
  t.equal(spool.text(), 'short text 😀');
  t.equal(spoolFds().length, before);
});

t.test('nothing on disk in the clear, and no path to the file', async (t) => {
  const before = new Set(spoolFds());
  const secret = 'sk-ant-api03-' + 'S'.repeat(90);
  const spool = written(new TextSpool(10), [`the key is ${secret}, `.repeat(2000)]);
  const [fd] = spoolFds().filter((fd) => !before.has(fd));
  t.ok(fd !== undefined, 'the spool has a file open');
  const bytes = bytesOf(fd!);
  t.ok(bytes.length >= spool.length, 'the text is in it');
  t.equal(bytes.indexOf('sk-ant-api03'), -1, 'not the secret');
  t.equal(bytes.indexOf('the key is'), -1, 'nor any of the text');
  t.notOk(readdirSync(tmpdir()).some((name) => name.startsWith('zero-spool-')), 'no directory left in the temp dir');
  t.match(readlinkSync(`/proc/self/fd/${fd}`), /\(deleted\)$/, 'the file is unlinked');
  t.equal(fstatSync(fd!).mode & 0o777, 0o600);
});

t.test('a text with a lone surrogate, which UTF-8 cannot carry, stays in memory exactly', async (t) => {
  const text = `before \ud800 after ${'x'.repeat(100)}`;
  const spool = written(new TextSpool(10), [text.slice(0, 9), text.slice(9)]);
  t.notOk(spool.spooled);
  t.equal(spool.text(), text);
  const late = written(new TextSpool(10), ['x'.repeat(20), 'lone \udc00 low', 'more']);
  t.notOk(late.spooled, 'a lone surrogate after the text was spooled brings it back to memory');
  t.equal(late.text(), `${'x'.repeat(20)}lone \udc00 lowmore`);
});

t.test('through: a new spool of the text as a streaming transform gives it', async (t) => {
  const spool = written(new TextSpool(10), ['abc'.repeat(100), 'def'.repeat(100)]);
  let pieces = 0;
  const upper = spool.through({ push: (piece) => (pieces++, piece.toUpperCase()), flush: () => '!' });
  t.equal(pieces, 0, 'nothing is made before it is read');
  t.equal(upper.text(), `${'ABC'.repeat(100)}${'DEF'.repeat(100)}!`);
  t.ok(pieces >= 1);
  t.ok(upper.spooled);
  t.equal(upper.text(), `${'ABC'.repeat(100)}${'DEF'.repeat(100)}!`, 'read again, from its file');
  t.equal(await spool.throughMade(), true, 'made whole');
  t.equal(upper.whole, true, 'and the made spool says so too');
  t.equal(spool.whole, undefined, 'a spool not made by through: neither');
});

// spooled from its first piece, or moved to its file while both read (each finds its place again)
for (const spoolAfter of [1000, 100_000]) t.test(`through: made as far as its furthest reader has read, once; another reader reads what is made (spooled past ${spoolAfter})`, async (t) => {
  const text = 'multi-byte é 中文 😀 and plain text\n'.repeat(20_000);
  const source = written(new TextSpool(spoolAfter), [text.slice(0, 300_000), text.slice(300_000)]);
  let given = 0;
  const copy = source.through({ push: (piece) => ((given += piece.length), piece), flush: () => '' });
  const [ahead, behind] = [copy.chunks(), copy.chunks()];
  const firstAhead = ahead.next().value as string;
  t.ok(given <= PIECE_CHARS, 'a reader at its first chunk has a piece made, no more');
  const read = [firstAhead];
  for (let index = 0; index < 5; index++) read.push(ahead.next().value as string);
  const madeThen = given;
  t.ok(madeThen < text.length / 2, `six chunks read: ${madeThen} of ${text.length} characters made`);
  const behindRead: string[] = [];
  while (behindRead.join('').length < read.join('').length) behindRead.push(behind.next().value as string);
  t.equal(given, madeThen, 'the reader behind reads what is made, and makes nothing');
  for (const chunk of behind) behindRead.push(chunk);
  for (const chunk of ahead) read.push(chunk);
  t.equal(given, text.length, 'each piece made once');
  t.ok(read.join('') === text && behindRead.join('') === text, 'both readers get the whole text');
});

t.test('through: cut by its signal, the text ends where it got to, and what the transform held is dropped', async (t) => {
  const source = written(new TextSpool(10), ['x'.repeat(3 * PIECE_CHARS)]);
  const cut = new AbortController();
  const copy = source.through({ push: (piece) => piece.slice(1), flush: () => 'held' }, cut.signal);
  const reader = copy.chunks();
  const first = reader.next().value as string;
  cut.abort();
  t.equal(first + [...reader].join(''), 'x'.repeat(PIECE_CHARS - 1), 'no piece after the signal, no flush');
  t.equal(copy.text(), first, 'every reader gets the same cut text');
  t.equal(await source.throughMade(), false, 'made, cut');
  t.equal(copy.whole, false, 'as the cut spool says');
});

t.test('a temp dir that cannot be written keeps the text in memory, as without a spool', async (t) => {
  const tmp = process.env.TMPDIR;
  process.env.TMPDIR = '/nonexistent/zero-spool-test';
  t.teardown(() => (tmp === undefined ? delete process.env.TMPDIR : (process.env.TMPDIR = tmp)));
  const spool = written(new TextSpool(10), ['a'.repeat(50), 'b'.repeat(50)]);
  t.notOk(spool.spooled);
  t.equal(spool.text(), 'a'.repeat(50) + 'b'.repeat(50));
});

t.test('a temp dir that fills up mid-text: what the file held comes back, and the text goes on in memory, whole', { skip: process.getuid?.() !== 0 && 'mounting a tmpfs needs root' }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'zero-spool-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
  const tmp = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  t.teardown(() => {
    tmp === undefined ? delete process.env.TMPDIR : (process.env.TMPDIR = tmp);
    execFileSync('umount', [dir]);
    rmdirSync(dir);
  });
  const pieces = Array.from({ length: 32 }, (_, index) => `${index} é😀 `.repeat(1000));
  const spool = new TextSpool(1000);
  spool.write(pieces[0]!);
  t.ok(spool.spooled, 'the first piece went to the file');
  for (const piece of pieces.slice(1)) spool.write(piece);
  t.notOk(spool.spooled, 'once the disk was full, the text is in memory');
  t.equal(spool.text(), pieces.join(''));
  t.same(readdirSync(dir), [], 'nothing left on the full disk');
});
