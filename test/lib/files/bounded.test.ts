import { PassThrough, Readable } from 'node:stream';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import t from 'tap';
import { chunksOf, readBounded, readRegularFile } from '../../../lib/files/bounded.js';

t.test('readBounded: all of a stream as one Buffer, strings as UTF-8', async (t) => {
  t.same(await readBounded(Readable.from([Buffer.from('ab'), 'c€'])), Buffer.from('abc€'));
  t.same(await readBounded(Readable.from([])), Buffer.alloc(0));
});

t.test('past maxBytes the read fails with tooLong(), keeping nothing past the limit, and the source is destroyed', async (t) => {
  const source = Readable.from([Buffer.alloc(6, 'a'), Buffer.alloc(6, 'b'), Buffer.alloc(6, 'c')]);
  const seen: Buffer[] = [];
  const reading = (async () => {
    for await (const chunk of chunksOf(source, { maxBytes: 10, tooLong: () => new Error('too long') })) seen.push(chunk);
  })();
  await t.rejects(reading, { message: 'too long' });
  t.same(seen, [Buffer.alloc(6, 'a')], 'the chunk that passed the limit was not given');
  t.ok(source.destroyed);
  await t.rejects(readBounded(Readable.from([Buffer.alloc(11)]), { maxBytes: 10 }), { message: 'The input is longer than 10 bytes.' });
});

t.test('an abort stops a read that waits, with the reason, and destroys the source; an aborted signal reads nothing', async (t) => {
  const waiting = new PassThrough();
  const controller = new AbortController();
  const reading = readBounded(waiting, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error('stopped')), 20);
  await t.rejects(reading, { message: 'stopped' });
  t.ok(waiting.destroyed);
  const unread = Readable.from([Buffer.from('x')]);
  await t.rejects(readBounded(unread, { signal: AbortSignal.abort(new Error('already')) }), { message: 'already' });
  t.ok(unread.destroyed, 'destroyed although never read');
});

t.test('a caller that stops early destroys the source', async (t) => {
  const source = new PassThrough();
  source.write('a');
  for await (const chunk of chunksOf(source)) if (chunk.length) break;
  t.ok(source.destroyed);
});

t.test('readRegularFile: the bytes and stats of a regular file; too large, before it is read; a FIFO refused at once', { skip: process.platform === 'win32', timeout: 10_000 }, async (t) => {
  const dir = t.testdir({ 'a.txt': 'hello' });
  const { bytes, stats } = await readRegularFile(join(dir, 'a.txt'), 'a.txt', 10, () => new Error('too large'));
  t.equal(String(bytes), 'hello');
  t.equal(stats.size, 5);
  await t.rejects(readRegularFile(join(dir, 'a.txt'), 'a.txt', 4, (size) => new Error(`${size} bytes`)), { message: '5 bytes' });
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  await t.rejects(readRegularFile(join(dir, 'pipe'), 'pipe', 10, () => new Error('too large')), { message: /^"pipe" is a FIFO \(named pipe\), not a regular file/ });
});
