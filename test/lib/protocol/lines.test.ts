import fc from '../../helpers/property.js';
import t from 'tap';
import { UsageError } from '../../../lib/errors.js';
import { DEFAULT_MAX_LINE_BYTES, createLineFramer, createLineScanner, lineTooLong, type LineFramerOptions } from '../../../lib/protocol/lines.js';
import type { Line } from '../../../lib/protocol/types.js';
import { applyStep } from '../../../lib/streams.js';
import { searchedWhile } from '../../helpers/searched.js';
import { cutAt } from '../../helpers/streams.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** The lines framed from the chunks (strings are UTF-8 text), the line ends included in them. */
function frame(chunks: (string | Buffer)[], options?: LineFramerOptions): Line[] {
  return applyStep(createLineFramer(options), chunks);
}

/** Each line of `raws` ended with `\n`, in one chunk. */
const frameRaw = (raws: string[], options?: LineFramerOptions) => frame([raws.map((raw) => `${raw}\n`).join('')], options);

t.test('lines are numbered from 1', async (t) => {
  t.same(frameRaw(['{"a":1}', '{"b":2}']), [
    { line: '{"a":1}', lineNo: 1 },
    { line: '{"b":2}', lineNo: 2 },
  ]);
});

t.test('blank and whitespace-only lines are counted but not given', async (t) => {
  t.same(frameRaw(['', '   \t ', '\r', 'x']), [{ line: 'x', lineNo: 4 }]);
});

t.test('the content of a line is kept as is, surrounding spaces included', async (t) => {
  t.same(frameRaw(['  {"a": 1}\t']), [{ line: '  {"a": 1}\t', lineNo: 1 }]);
});

t.test('a trailing CR is stripped (CRLF input)', async (t) => {
  t.same(frameRaw(['{"a":1}\r', '{"b":2}\r']), [
    { line: '{"a":1}', lineNo: 1 },
    { line: '{"b":2}', lineNo: 2 },
  ]);
});

t.test('only one trailing CR is stripped, and a CR elsewhere stays', async (t) => {
  t.same(frameRaw(['a\r\r', 'b\rc']), [
    { line: 'a\r', lineNo: 1 },
    { line: 'b\rc', lineNo: 2 },
  ]);
});

t.test('a last line without a newline is given at the end; a blank one is only counted', async (t) => {
  const framer = createLineFramer();
  const out: Line[] = [];
  framer.write('one\ntwo', (line) => out.push(line));
  t.same(out, [{ line: 'one', lineNo: 1 }], 'nothing of an unfinished line before the end');
  framer.end((line) => out.push(line));
  t.same(out, [{ line: 'one', lineNo: 1 }, { line: 'two', lineNo: 2 }]);
  t.same(frame(['one\n  ']), [{ line: 'one', lineNo: 1 }]);
});

t.test('a BOM at the very start is dropped', async (t) => {
  t.same(frameRaw(['\uFEFF{"a":1}\r']), [{ line: '{"a":1}', lineNo: 1 }]);
});

t.test('a BOM split across chunks is dropped too; bytes that only start like one are kept', async (t) => {
  const [e, b, f] = [Buffer.from([0xef]), Buffer.from([0xbb]), Buffer.from([0xbf])];
  t.same(frame([e, b, f, bytes('x\n')]), [{ line: 'x', lineNo: 1 }]);
  t.same(frame([e, Buffer.concat([b, f]), bytes('x')]), [{ line: 'x', lineNo: 1 }]);
  t.same(frame([Buffer.concat([e, b]), bytes('x\n')], { keepBytes: true })[0]?.bytes, Buffer.from([0xef, 0xbb, 0x78]));
  t.same(frame([Buffer.concat([e, b])], { keepBytes: true })[0]?.bytes, Buffer.from([0xef, 0xbb]), 'held at the start, given at the end');
});

t.test('a BOM on a later line is not dropped', async (t) => {
  t.same(frameRaw(['x', '\uFEFF{"a":1}']), [
    { line: 'x', lineNo: 1 },
    { line: '\uFEFF{"a":1}', lineNo: 2 },
  ]);
});

t.test('a BOM followed by a blank first line still counts as line 1', async (t) => {
  t.same(frameRaw(['\uFEFF', 'x']), [{ line: 'x', lineNo: 2 }]);
});

t.test('firstLineNo: the lines continue an input, so a BOM at their start is content', async (t) => {
  t.same(frame(['\uFEFFa\nb'], { firstLineNo: 7 }), [
    { line: '\uFEFFa', lineNo: 7 },
    { line: 'b', lineNo: 8 },
  ]);
});

t.test('multi-byte characters split across chunks are decoded whole', async (t) => {
  const whole = bytes('héllo 🌍\nwörld €\n');
  const oneByteChunks = [...whole].map((byte) => Buffer.from([byte]));
  t.same(frame(oneByteChunks).map((line) => line.line), ['héllo 🌍', 'wörld €']);
});

t.test('keepBytes: each line exactly as read, without its line ending, a Latin-1 é included', async (t) => {
  const latin1 = Buffer.from('caf\xe9', 'latin1');
  const input = Buffer.concat([latin1, bytes('\r\n'), latin1, bytes('\nx\n'), latin1, bytes('\r\n')]);
  for (const chunks of [[input], [...input].map((byte) => Buffer.from([byte]))]) {
    const lines = frame(chunks, { keepBytes: true });
    t.same(
      lines.map((line) => line.bytes),
      [latin1, latin1, bytes('x'), latin1],
    );
    t.equal(lines[0]!.line, 'caf\uFFFD', 'the text is decoded as UTF-8 (the é is not)');
  }
  const multiByte = frame(['a\né€\n😀\r\nb'], { keepBytes: true, maxLineBytes: 6 });
  t.same(multiByte.map((line) => [line.line, line.bytes]), [['a', bytes('a')], ['é€', bytes('é€')], ['😀', bytes('😀')], ['b', bytes('b')]]);
  t.same(frame(['a\n'])[0], { line: 'a', lineNo: 1 }, 'no bytes unless asked for');
});

t.test("keepBytes 'lossy': the bytes of every line whose text holds U+FFFD (an é that is not UTF-8, or a real U+FFFD); valid text, no bytes", async (t) => {
  const latin1 = Buffer.from('caf\xe9', 'latin1');
  const ascii = Buffer.concat([bytes('a\n'), latin1, bytes('\nb\n'), latin1, bytes('\r\n')]);
  const multiByte = Buffer.concat([bytes('é€\n'), latin1, bytes('\nx\n\uFFFD\n')]);
  for (const input of [ascii, multiByte]) {
    for (const chunks of [[input], [...input].map((byte) => Buffer.from([byte]))]) {
      const lines = frame(chunks, { keepBytes: 'lossy' });
      const all = frame(chunks, { keepBytes: true });
      t.same(lines.map((line) => line.line), all.map((line) => line.line), 'the same lines');
      // bytes may come with other lines of the same chunk too, but always the right ones
      lines.forEach((line, n) => {
        if (line.line.includes('\uFFFD') || line.bytes) t.same(line.bytes, all[n]!.bytes, line.line);
      });
    }
  }
  t.same(frame(['a\né\n'], { keepBytes: 'lossy' }), [{ line: 'a', lineNo: 1 }, { line: 'é', lineNo: 2 }]);
});

t.test('strings in are UTF-8 text', async (t) => {
  t.same(frame(['é\n', 'x'], { keepBytes: true }), [
    { line: 'é', lineNo: 1, bytes: bytes('é') },
    { line: 'x', lineNo: 2, bytes: bytes('x') },
  ]);
});

t.test('the default limit is 16 MiB', async (t) => {
  t.equal(DEFAULT_MAX_LINE_BYTES, 16 * 1024 * 1024);
});

t.test('a line at the limit passes, one byte over is a usage error naming the line', async (t) => {
  t.same(frame(['abcdef\n'], { maxLineBytes: 6 }), [{ line: 'abcdef', lineNo: 1 }]);
  t.throws(() => frame(['abcdef\n\nabcdefg\n'], { maxLineBytes: 6 }), {
    message: 'Invalid stream-json input at line 3: the line is longer than 6 bytes (--max-line-bytes).',
    code: 'usage_error',
    exitCode: 2,
  });
});

t.test('the limit counts UTF-8 bytes, not characters', async (t) => {
  // '€' is 3 bytes, '😀' is 4 bytes (2 UTF-16 units).
  const limit = (raw: string, maxLineBytes: number) => () => frame([`${raw}\n`], { maxLineBytes });
  t.doesNotThrow(limit('€€', 6));
  t.throws(limit('€€a', 6), UsageError);
  t.throws(limit('€€', 5), UsageError);
  t.doesNotThrow(limit('😀', 4));
  t.throws(limit('😀a', 4), UsageError);
  t.throws(limit('é', 1), UsageError);
});

t.test('the stripped BOM and CR do not count toward the limit', async (t) => {
  t.same(frame(['\uFEFFabc\r\n'], { maxLineBytes: 3 }), [{ line: 'abc', lineNo: 1 }]);
  t.same(frame(['\uFEFF', 'ab', 'c\r', '\n'], { maxLineBytes: 3 }), [{ line: 'abc', lineNo: 1 }], 'nor while the line is unfinished');
});

t.test('a whitespace-only line over the limit is still an error', async (t) => {
  t.throws(() => frame(['   \n'], { maxLineBytes: 2 }), UsageError);
});

t.test('the label names what is being read', async (t) => {
  t.throws(() => frame(['\nab\n'], { maxLineBytes: 1, label: 'script demo.jsonl' }), {
    message: 'Invalid script demo.jsonl at line 2: the line is longer than 1 bytes (--max-line-bytes).',
  });
});

t.test('lineTooLong builds the error of a line over the limit', async (t) => {
  const error = lineTooLong(9, 100);
  t.ok(error instanceof UsageError);
  t.equal(error.message, 'Invalid stream-json input at line 9: the line is longer than 100 bytes (--max-line-bytes).');
  t.equal(lineTooLong(1, 5, 'script s.jsonl').message, 'Invalid script s.jsonl at line 1: the line is longer than 5 bytes (--max-line-bytes).');
});

t.test('an unfinished line fails on the write that takes it past the limit: never more than the limit plus one chunk is held', async (t) => {
  const framer = createLineFramer({ maxLineBytes: 1000 });
  const emitted: Line[] = [];
  framer.write('ok\n\n', (line) => emitted.push(line));
  let writes = 0;
  const chunk = Buffer.alloc(300, 'y');
  t.throws(() => {
    for (; writes < 10; writes++) framer.write(chunk, (line) => emitted.push(line));
  }, { message: /^Invalid stream-json input at line 3: the line is longer than 1000 bytes/ });
  t.equal(writes, 3, 'the 4th chunk of 300 bytes takes the line to 1200');
  t.same(emitted, [{ line: 'ok', lineNo: 1 }]);
});

t.test('onLineTooLong: a line over the limit is reported and skipped, and the count goes on', async (t) => {
  const reported: string[] = [];
  const options = { maxLineBytes: 5, onLineTooLong: (error: UsageError) => reported.push(error.message) };
  const input = 'ab\ntoo long here\nok\n' + 'x'.repeat(20) + '\nlast\n' + 'y'.repeat(8);
  for (const chunks of [[input], input.match(/[\s\S]{1,3}/g)!]) {
    reported.length = 0;
    t.same(frame(chunks, options), [
      { line: 'ab', lineNo: 1 },
      { line: 'ok', lineNo: 3 },
      { line: 'last', lineNo: 5 },
    ]);
    t.same(reported.map((message) => message.match(/line (\d+)/)?.[1]), ['2', '4', '6'], 'each one reported once, by its number');
  }
});

t.test('property: any chunking of any bytes gives the lines of the protocol, with their exact bytes', async (t) => {
  // Bytes where framing has choices to make: newlines, CRs, BOM bytes, multi-byte and broken UTF-8, blanks.
  const byte = fc.constantFrom(0x0a, 0x0d, 0x20, 0x61, 0x7b, 0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xe9, 0xff);
  fc.assert(
    fc.property(fc.array(byte, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 10 }), fc.integer({ min: 1, max: 60 }), fc.boolean(), (values, cuts, maxLineBytes, keepBytes) => {
      const whole = Buffer.from(values);
      const expected = reference(whole, maxLineBytes, keepBytes);
      let got: Line[] | string;
      try {
        got = frame(cutAt(whole, cuts), { keepBytes, maxLineBytes });
      } catch (error) {
        got = (error as Error).message;
      }
      return JSON.stringify(got) === JSON.stringify(expected);
    }),
    { numRuns: 2000 },
  );
  t.pass('property held');
});

/** docs/protocol.md §1, the plain way: the whole input split at each `\n`. */
function reference(whole: Buffer, maxLineBytes: number, keepBytes: boolean): Line[] | string {
  const input = whole.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? whole.subarray(3) : whole;
  const lines: Line[] = [];
  let from = 0;
  for (let lineNo = 1; from <= input.length; lineNo++) {
    const at = input.indexOf(0x0a, from) === -1 ? input.length : input.indexOf(0x0a, from);
    const raw = input.subarray(from, at);
    const content = raw.at(-1) === 0x0d ? raw.subarray(0, -1) : raw;
    if (content.length > maxLineBytes) return lineTooLong(lineNo, maxLineBytes).message;
    const line = content.toString('utf8');
    if (line.trim() !== '') lines.push(keepBytes ? { line, lineNo, bytes: content } : { line, lineNo });
    from = at + 1;
  }
  return lines;
}

t.test('scanner: pieces are views of the chunk, whole lines after the first newline come as one run', async (t) => {
  const scanner = createLineScanner();
  const seen: unknown[] = [];
  const chunk = bytes('end\na\nb\nstart');
  scanner.write(chunk, {
    piece: (piece, ended) => seen.push([piece.toString(), ended, piece.buffer === chunk.buffer]),
    lines: (run, from, to) => seen.push(['lines', run.toString('utf8', from, to)]),
  });
  t.same(seen, [['end', true, true], ['lines', 'a\nb'], ['start', false, true]]);
  seen.length = 0;
  scanner.write(chunk, { piece: (piece, ended) => seen.push([piece.toString(), ended]) });
  t.same(seen, [['end', true], ['a', true], ['b', true], ['start', false]], 'without a lines sink, every line is a piece');
});

/** One line of `total` bytes of `x` in chunks of `chunkBytes`, then its newline. */
function oneLine(total: number, chunkBytes = 64 * 1024): Buffer[] {
  const chunks = Array.from({ length: total / chunkBytes }, () => Buffer.alloc(chunkBytes, 'x'));
  return [...chunks, bytes('\n')];
}

t.test('linear: each byte of a line spread over many chunks is searched once, and the line joined once', async (t) => {
  const realConcat = Buffer.concat;
  let joins = 0;
  Buffer.concat = (...args: Parameters<typeof Buffer.concat>) => {
    joins += 1;
    return realConcat(...args);
  };
  t.teardown(() => void (Buffer.concat = realConcat));
  for (const size of [2, 8].map((mb) => mb * 1024 * 1024)) {
    joins = 0;
    let lines: Line[] = [];
    const searched = await searchedWhile(() => void (lines = frame(oneLine(size))));
    t.equal(lines[0]?.line.length, size);
    t.ok(searched <= size + 2, `${size} bytes in, ${searched} searched`);
    t.equal(joins, 1, 'one join, when the line ends');
  }
});
