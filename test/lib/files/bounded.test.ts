import { PassThrough, Readable } from 'node:stream';
import t from 'tap';
import { chunksOf, readBounded } from '../../../lib/files/bounded.js';

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
