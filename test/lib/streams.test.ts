import t from 'tap';
import { PassThrough } from 'node:stream';
import { OBJECT_HIGH_WATER_MARK, applyStep, composeSteps, concatBytes, joinDuplex, mapStream, stepStream } from '../../lib/streams.js';
import { through, throughUntilError } from '../helpers/streams.js';

t.test('each chunk is mapped through the function, in order', async (t) => {
  t.same(await through(mapStream((n: number) => n * 2), [1, 2, 3]), [2, 4, 6]);
  t.same(await through(mapStream((o: { a: number }) => ({ b: o.a })), [{ a: 1 }]), [{ b: 1 }]);
});

t.test('undefined drops the chunk', async (t) => {
  t.same(await through(mapStream((n: number) => (n % 2 ? n : undefined)), [1, 2, 3, 4, 5]), [1, 3, 5]);
});

t.test('falsy values other than undefined and null pass through', async (t) => {
  t.same(await through(mapStream((x: unknown) => x), [0, '', false]), [0, '', false]);
});

t.test('no chunks in, nothing out', async (t) => {
  t.same(await through(mapStream((x: unknown) => x), []), []);
});

t.test('a throw fails the stream with that error', async (t) => {
  const boom = new Error('boom');
  const seen: number[] = [];
  const { out, error } = await throughUntilError(
    mapStream((n: number) => {
      seen.push(n);
      if (n === 2) throw boom;
      return n;
    }),
    [1, 2, 3],
  );
  t.equal(error, boom);
  // What was mapped before may or may not be read: destroying a stream drops its buffer.
  t.ok(out.length === 0 || (out.length === 1 && out[0] === 1));
  t.same(seen, [1, 2], 'nothing is mapped after the failure');
});

t.test('flush extras are pushed at the end of input, after the mapped chunks', async (t) => {
  let total = 0;
  const stage = mapStream(
    (n: number) => {
      total += n;
      return undefined;
    },
    { flush: () => [total, -1] },
  );
  t.same(await through(stage, [1, 2, 3]), [6, -1]);
  t.same(await through(mapStream((n: number) => n, { flush: () => [] }), [1]), [1]);
});

t.test('a throw in flush fails the stream', async (t) => {
  const boom = new Error('at the end');
  const { out, error } = await throughUntilError(
    mapStream((n: number) => n, {
      flush: () => {
        throw boom;
      },
    }),
    [1],
  );
  t.ok(out.length <= 1);
  t.equal(error, boom);
});

t.test('objects in, objects out by default, with small buffers', async (t) => {
  const stage = mapStream((x: unknown) => x);
  t.equal(stage.writableObjectMode, true);
  t.equal(stage.readableObjectMode, true);
  t.equal(stage.writableHighWaterMark, OBJECT_HIGH_WATER_MARK);
  t.equal(stage.readableHighWaterMark, OBJECT_HIGH_WATER_MARK);
  t.equal(OBJECT_HIGH_WATER_MARK, 16);
});

t.test('byte mode: objects in, bytes out', async (t) => {
  const stage = mapStream((event: { type: string }) => `${JSON.stringify(event)}\n`, { readableObjectMode: false, flush: () => ['END\n'] });
  t.equal(stage.writableObjectMode, true);
  t.equal(stage.readableObjectMode, false);
  t.ok(stage.readableHighWaterMark > OBJECT_HIGH_WATER_MARK, 'the readable side keeps the default byte buffer');
  const out = await through<Buffer>(stage, [{ type: 'a' }, { type: 'é' }]);
  for (const chunk of out) t.ok(Buffer.isBuffer(chunk));
  t.equal(Buffer.concat(out).toString('utf8'), '{"type":"a"}\n{"type":"é"}\nEND\n');
});

t.test('backpressure: a slow reader does not make the stage buffer everything', async (t) => {
  const stage = mapStream((n: number) => n);
  let accepted = 0;
  while (stage.write(accepted)) accepted++;
  t.ok(accepted < 64, `write() asks to wait after ${accepted + 1} chunks`);
  stage.destroy();
});

t.test('steps compose depth first: an item goes all the way before the next one starts', async (t) => {
  const seen: string[] = [];
  const tap = (name: string) => ({ write: (n: number, emit: (n: number) => void) => (seen.push(`${name}${n}`), emit(n)) });
  const double = { write: (n: number, emit: (n: number) => void) => (emit(n), emit(n * 10)), end: (emit: (n: number) => void) => emit(-1) };
  t.same(applyStep(composeSteps([tap('a'), double, tap('b')]), [1, 2]), [1, 10, 2, 20, -1]);
  t.same(seen, ['a1', 'b1', 'b10', 'a2', 'b2', 'b20', 'b-1']);
});

t.test('a step stream in byte mode writes what one chunk gave as one write', async (t) => {
  const lines = stepStream({ write: (text: Buffer, emit: (line: string) => void) => String(text).split(',').forEach((part) => emit(`${part}\n`)) }, { writableObjectMode: false, readableObjectMode: false });
  const writes: string[] = [];
  lines.on('data', (chunk: Buffer) => writes.push(String(chunk)));
  lines.write('a,b,c');
  lines.end('d');
  await new Promise((resolve) => lines.on('end', resolve));
  t.same(writes, ['a\nb\nc\n', 'd\n']);
});

t.test('byte mode: what one chunk gave past 1 MiB goes on in writes of about 1 MiB (a huge line in parts is never joined whole)', async (t) => {
  const part = 'x'.repeat(256 * 1024);
  const parts = stepStream({ write: (_chunk: Buffer, emit: (out: string) => void) => Array.from({ length: 10 }, () => emit(part)) }, { writableObjectMode: false, readableObjectMode: false });
  const writes: number[] = [];
  parts.on('data', (chunk: Buffer) => writes.push(chunk.length));
  parts.end('go');
  await new Promise((resolve) => parts.on('end', resolve));
  t.same(writes, [1 << 20, 1 << 20, 512 * 1024]);
});

t.test('what a step made before it threw reaches the reader before the error, in both modes', async (t) => {
  for (const readableObjectMode of [true, false]) {
    const step = stepStream({ write: (text: Buffer, emit: (out: string) => void) => { for (const part of String(text).split(',')) { if (part === 'bad') throw new Error('boom'); emit(part); } } }, { writableObjectMode: false, readableObjectMode });
    const { out, error } = await throughUntilError<Buffer | string>(step, ['a,b,bad,c']);
    t.equal(error?.message, 'boom');
    t.equal(out.map(String).join(''), 'ab', `${readableObjectMode ? 'objects' : 'bytes'}: nothing made before the failure is lost`);
  }
});

t.test('byte mode: a step may give Buffers (bytes kept as they came); a chunk with any is written as one Buffer', async (t) => {
  const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
  const step = stepStream({ write: (_chunk: Buffer, emit: (out: string | Buffer) => void) => (emit('a\n'), emit(latin1), emit('\n')) }, { writableObjectMode: false, readableObjectMode: false });
  const writes: Buffer[] = [];
  step.on('data', (chunk: Buffer) => writes.push(chunk));
  step.end('x');
  await new Promise((resolve) => step.on('end', resolve));
  t.equal(writes.length, 1);
  t.ok(writes[0]!.equals(Buffer.concat([Buffer.from('a\n'), latin1, Buffer.from('\n')])));
});

t.test('concatBytes: strings as UTF-8 and bytes as they came, in one Buffer of exactly their length', async (t) => {
  const parts = ['plain ', 'em dash \u2014 ', 'emoji \u{1F600} ', Buffer.from([0xe9]), ' lone \ud800 ', 'caf\u00e9\n'];
  const expected = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)));
  const out = concatBytes(parts);
  t.ok(out.equals(expected), 'each string encoded as Buffer.from would, the bytes untouched');
  t.equal(out.length, expected.length);
  t.equal(concatBytes([]).length, 0);
});

t.test('concatBytes: each result is its own copy, whatever the size (a later batch does not write over an earlier one)', async (t) => {
  const first = concatBytes(['a'.repeat(100), '\n']);
  const big = concatBytes(['\u00e9'.repeat(700_000)]);
  const second = concatBytes(['b'.repeat(100), '\n']);
  t.equal(String(first), `${'a'.repeat(100)}\n`);
  t.equal(big.length, 1_400_000, 'a batch over the kept room');
  t.equal(String(big), '\u00e9'.repeat(700_000));
  t.equal(String(second), `${'b'.repeat(100)}\n`);
  const bigPair = concatBytes(['\u00e9'.repeat(700_000), '\n']);
  concatBytes(['c'.repeat(2_000_000), 'd'.repeat(10)]);
  concatBytes(['e'.repeat(100), '\n']);
  t.equal(String(bigPair), `${'\u00e9'.repeat(700_000)}\n`, 'a large batch given without a copy is not written over either');
  t.equal(String(first), `${'a'.repeat(100)}\n`);
});

t.test('joinDuplex: a failure of the readable side reaches the reader of the joined stream', async (t) => {
  const readable = new PassThrough();
  const joined = joinDuplex(new PassThrough(), readable);
  const failed = new Promise((resolve) => joined.on('error', resolve));
  joined.resume();
  readable.destroy(new Error('the output chain failed'));
  t.match(await failed, { message: 'the output chain failed' });
});

t.test('byte mode: an Iterable a step gives is pulled only as the reader takes it, in order with what came around it', async (t) => {
  const part = 'y'.repeat(64 * 1024);
  let pulled = 0;
  function* parts() {
    for (let index = 0; index < 64; index++) {
      pulled++;
      yield part;
    }
  }
  const stage = stepStream({ write: (_chunk: Buffer, emit: (out: string | Iterable<string>) => void) => (emit('<'), emit(parts()), emit('>')) }, { writableObjectMode: false, readableObjectMode: false });
  stage.end('go');
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.ok(pulled <= 2 * 16 + 1, `with no reader, ${pulled} of 64 parts were pulled (about 1 MiB, not 4)`);
  t.ok(stage.readableLength <= 2 * (1 << 20), 'and are buffered');
  const chunks: Buffer[] = [];
  for await (const chunk of stage) chunks.push(chunk as Buffer);
  t.equal(Buffer.concat(chunks).toString(), `<${part.repeat(64)}>`);
});

t.test('byte mode: an Iterable that fails fails the stream, after what it gave before', async (t) => {
  function* parts() {
    yield 'a';
    throw new Error('spool gone');
  }
  const stage = stepStream({ write: (_chunk: Buffer, emit: (out: string | Iterable<string>) => void) => emit(parts()) }, { writableObjectMode: false, readableObjectMode: false });
  const { out, error } = await throughUntilError<Buffer>(stage, ['go']);
  t.equal(error?.message, 'spool gone');
  t.equal(out.map(String).join(''), 'a');
});

/** A part that takes `ms` of CPU to make, as a spooled final's part does while it is redacted. */
const slowPart = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
  return 'z'.repeat(1024);
};

t.test('byte mode: an Iterable whose parts are slow to make lets the event loop run while it is pulled, and what was made goes out', async (t) => {
  function* parts() {
    for (let index = 0; index < 60; index++) yield slowPart(5);
  }
  const stage = stepStream({ write: (_chunk: Buffer, emit: (out: string | Iterable<string>) => void) => emit(parts()) }, { writableObjectMode: false, readableObjectMode: false });
  let ticks = 0;
  const ticking = setInterval(() => ticks++, 1);
  let firstChunkAt: number | undefined;
  const startedAt = performance.now();
  stage.end('go');
  let length = 0;
  for await (const chunk of stage) {
    firstChunkAt ??= performance.now();
    length += (chunk as Buffer).length;
  }
  const endedAt = performance.now();
  clearInterval(ticking);
  t.equal(length, 60 * 1024);
  // 300 ms of making: a timer waits at most ~20 ms (before, it waited for all of it, the parts being small)
  t.ok(ticks >= 6, `a 1 ms timer ran ${ticks} times`);
  // the first bytes go out while the rest is still being made: measured against the making itself, not a clock's
  // fixed figure, so a machine too busy to run this process for a while fails it only if the bytes really waited
  const [first, all] = [firstChunkAt! - startedAt, endedAt - startedAt];
  t.ok(first < all / 2, `the first bytes after ${Math.round(first)} ms of ${Math.round(all)}`);
});
