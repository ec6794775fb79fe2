import { once } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import t from 'tap';
import fc from '../helpers/property.js';
import { split } from '../../transforms/split.js';
import { chained, lineInChunks } from '../helpers/long_line.js';
import { searchedWhile } from '../helpers/searched.js';
import { cutAt, through, throughUntilError, writeUntilFailure } from '../helpers/streams.js';
import type { Line } from '../../lib/protocol/types.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

t.test('frames lines and numbers them from 1', async (t) => {
  t.same(await through<Line>(split(), [bytes('{"a":1}\n{"b":2}\n')]), [
    { line: '{"a":1}', lineNo: 1 },
    { line: '{"b":2}', lineNo: 2 },
  ]);
});

t.test('a last line without a newline still counts', async (t) => {
  t.same(await through<Line>(split(), [bytes('one\ntwo')]), [
    { line: 'one', lineNo: 1 },
    { line: 'two', lineNo: 2 },
  ]);
});

t.test('CRLF endings, a BOM at the start and blank lines', async (t) => {
  const out = await through<Line>(split(), [bytes('\uFEFFfirst\r\n\r\n   \r\nsecond\r\n\n\tthird\n')]);
  t.same(out, [
    { line: 'first', lineNo: 1 },
    { line: 'second', lineNo: 4 },
    { line: '\tthird', lineNo: 6 },
  ]);
});

t.test('a BOM is only dropped at the very start', async (t) => {
  const out = await through<Line>(split(), [bytes('a\n\uFEFFb\n')]);
  t.equal(out[1]?.line, '\uFEFFb');
});

t.test('multi-byte characters split across chunks survive', async (t) => {
  const whole = bytes('héllo 🌍\nwörld\n');
  const chunks = [...whole].map((byte) => Buffer.from([byte]));
  t.same((await through<Line>(split(), chunks)).map((l) => l.line), ['héllo 🌍', 'wörld']);
});

t.test('any chunking gives the same lines (property)', async (t) => {
  const lineArb = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constant(''), fc.constant('  '));
  await fc.assert(
    fc.asyncProperty(fc.array(lineArb, { maxLength: 12 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), async (lines, crlf, cuts) => {
      const text = lines.map((l) => l.replace(/[\r\n]/g, '')).join(crlf ? '\r\n' : '\n');
      const whole = bytes(text);
      const chunks = cutAt(whole, cuts);
      const once = await through<Line>(split(), [whole]);
      const chunked = await through<Line>(split(), chunks);
      return JSON.stringify(once) === JSON.stringify(chunked);
    }),
    { numRuns: 200 },
  );
  t.pass('property held');
});

t.test('a complete line over the limit is an error naming it', async (t) => {
  const { error } = await throughUntilError<Line>(split({ maxLineBytes: 10 }), [bytes('short\n' + 'x'.repeat(11) + '\nnext\n')]);
  t.match(error?.message, /^Invalid stream-json input at line 2: the line is longer than 10 bytes/);
  t.equal((error as { exitCode?: number }).exitCode, 2);
});

t.test('the limit counts UTF-8 bytes, not characters', async (t) => {
  const { error } = await throughUntilError(split({ maxLineBytes: 10 }), [bytes('ééééééé\n')]);
  t.match(error?.message, /at line 1/);
});

t.test('an unfinished line growing past the limit fails before the input ends', async (t) => {
  const stage = split({ maxLineBytes: 1000 });
  const failed = new Promise<Error>((resolve) => stage.on('error', resolve));
  stage.resume();
  stage.write(bytes('ok\n\n'));
  for (let i = 0; i < 5; i++) stage.write(bytes('y'.repeat(400)));
  const error = await failed;
  t.match(error.message, /^Invalid stream-json input at line 3: the line is longer than 1000 bytes/);
});

const MiB = 1024 * 1024;

t.test('one long line in many chunks: each byte is searched about once, so 4× the line is 4× the work', async (t) => {
  // split2 re-split the unfinished tail on every chunk: 16× the work for 4× the line.
  const searchedFor = async (bytes: number) => {
    let lines: Line[] = [];
    const searched = await searchedWhile(async () => (lines = await through<Line>(split(), chained(lineInChunks(bytes), [Buffer.from('\n')]))));
    t.equal(lines[0]?.line.length, bytes);
    return searched;
  };
  const [small, large] = [await searchedFor(2 * MiB), await searchedFor(8 * MiB)];
  t.ok(large <= 2 * 8 * MiB, `${large} bytes searched for an 8 MiB line`);
  t.ok(large / small < 5, `the ratio is ${(large / small).toFixed(2)}`);
});

t.test('a 100 MB line is refused once the limit plus one chunk was taken in, naming the line', async (t) => {
  const stage = split();
  const failed = once(stage, 'error');
  stage.resume();
  const chunk = 64 * 1024;
  let taken = 0;
  const searched = await searchedWhile(async () => (taken = await writeUntilFailure(stage, chained([Buffer.from('ok\n\n')], lineInChunks(100e6, chunk)))));
  const [error] = (await failed) as [Error];
  t.match(error.message, /^Invalid stream-json input at line 3: the line is longer than 16777216 bytes \(--max-line-bytes\)\.$/);
  t.ok(taken <= 4 + 16 * MiB + chunk, `${taken} bytes taken in`);
  t.ok(searched <= 2 * taken, `${searched} bytes searched`);
});

t.test('a line that is not valid UTF-8 is decoded with replacement characters, and measured in its bytes', async (t) => {
  const latin1 = Buffer.from('caf\xe9\n', 'latin1');
  t.same(await through<Line>(split({ maxLineBytes: 4 }), [latin1]), [{ line: 'caf\uFFFD', lineNo: 1 }]);
});

// Its speed against split2 is npm run bench's (bench/output-chain.ts, the split row): a timed assert here would flake under load.
t.test('millions of tiny lines across 64 KiB chunks: every line out, none torn', async (t) => {
  const input = Buffer.from('{"type":"text","delta":"a"}\n'.repeat(1_000_000));
  const chunks = Array.from({ length: Math.ceil(input.length / (64 * 1024)) }, (_, i) => input.subarray(i * 64 * 1024, (i + 1) * 64 * 1024));
  let lines = 0;
  let torn = 0;
  const count = new Writable({
    objectMode: true,
    highWaterMark: 16,
    write: (line: { line: string }, _encoding, callback) => {
      lines++;
      if (line.line !== '{"type":"text","delta":"a"}') torn++;
      callback();
    },
  });
  await pipeline(Readable.from(chunks), split(), count);
  t.equal(lines, 1_000_000);
  t.equal(torn, 0);
});
