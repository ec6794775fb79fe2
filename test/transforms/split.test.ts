import t from 'tap';
import fc from 'fast-check';
import { split } from '../../transforms/split.js';
import { through, throughUntilError } from '../helpers/streams.js';
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
      const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
      const chunks: Buffer[] = [];
      let from = 0;
      for (const point of [...points, whole.length]) {
        chunks.push(whole.subarray(from, point));
        from = point;
      }
      const once = await through<Line>(split(), [whole]);
      const chunked = await through<Line>(split(), chunks.filter((c) => c.length > 0));
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
