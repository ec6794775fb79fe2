import t from 'tap';
import { OBJECT_HIGH_WATER_MARK, mapStream } from '../../lib/streams.js';
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
