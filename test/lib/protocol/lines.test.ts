import fc from 'fast-check';
import t from 'tap';
import { UsageError } from '../../../lib/errors.js';
import { DEFAULT_MAX_LINE_BYTES, createLineNumberer, lineTooLong } from '../../../lib/protocol/lines.js';

/** Feeds raw lines (without their `\n`) through one numberer and returns what it kept. */
function number(raws: string[], options?: Parameters<typeof createLineNumberer>[0]) {
  const numberer = createLineNumberer(options);
  return raws.map((raw) => numberer.number(raw)).filter((line) => line !== undefined);
}

t.test('lines are numbered from 1', async (t) => {
  t.same(number(['{"a":1}', '{"b":2}']), [
    { line: '{"a":1}', lineNo: 1 },
    { line: '{"b":2}', lineNo: 2 },
  ]);
});

t.test('blank and whitespace-only lines are counted but not returned', async (t) => {
  const numberer = createLineNumberer();
  t.equal(numberer.number(''), undefined);
  t.equal(numberer.number('   \t '), undefined);
  t.equal(numberer.number('\r'), undefined);
  t.same(numberer.number('x'), { line: 'x', lineNo: 4 });
});

t.test('the content of a line is kept as is, surrounding spaces included', async (t) => {
  t.same(number(['  {"a": 1}\t']), [{ line: '  {"a": 1}\t', lineNo: 1 }]);
});

t.test('a trailing CR is stripped (CRLF input)', async (t) => {
  t.same(number(['{"a":1}\r', '{"b":2}\r']), [
    { line: '{"a":1}', lineNo: 1 },
    { line: '{"b":2}', lineNo: 2 },
  ]);
});

t.test('only one trailing CR is stripped, and a CR elsewhere stays', async (t) => {
  t.same(number(['a\r\r', 'b\rc']), [
    { line: 'a\r', lineNo: 1 },
    { line: 'b\rc', lineNo: 2 },
  ]);
});

t.test('a BOM at the very start is dropped', async (t) => {
  t.same(number(['\uFEFF{"a":1}\r']), [{ line: '{"a":1}', lineNo: 1 }]);
});

t.test('a BOM on a later line is not dropped', async (t) => {
  t.same(number(['x', '\uFEFF{"a":1}']), [
    { line: 'x', lineNo: 1 },
    { line: '\uFEFF{"a":1}', lineNo: 2 },
  ]);
});

t.test('a BOM followed by a blank first line still counts as line 1', async (t) => {
  t.same(number(['\uFEFF', 'x']), [{ line: 'x', lineNo: 2 }]);
});

t.test('nextLineNo is the number the next line will get', async (t) => {
  const numberer = createLineNumberer();
  t.equal(numberer.nextLineNo, 1);
  numberer.number('a');
  numberer.number('');
  t.equal(numberer.nextLineNo, 3);
});

t.test('the default limit is 16 MiB', async (t) => {
  t.equal(DEFAULT_MAX_LINE_BYTES, 16 * 1024 * 1024);
});

t.test('a line at the limit passes, one byte over is a usage error naming the line', async (t) => {
  const numberer = createLineNumberer({ maxLineBytes: 6 });
  t.same(numberer.number('abcdef'), { line: 'abcdef', lineNo: 1 });
  t.same(numberer.number(''), undefined);
  t.throws(() => numberer.number('abcdefg'), {
    message: 'Invalid stream-json input at line 3: the line is longer than 6 bytes (--max-line-bytes).',
    code: 'usage_error',
    exitCode: 2,
  });
});

t.test('the limit counts UTF-8 bytes, not characters', async (t) => {
  // '€' is 3 bytes, '😀' is 4 bytes (2 UTF-16 units).
  const limit = (raw: string, maxLineBytes: number) => () => createLineNumberer({ maxLineBytes }).number(raw);
  t.doesNotThrow(limit('€€', 6));
  t.throws(limit('€€a', 6), UsageError);
  t.throws(limit('€€', 5), UsageError);
  t.doesNotThrow(limit('😀', 4));
  t.throws(limit('😀a', 4), UsageError);
  t.throws(limit('é', 1), UsageError);
});

t.test('the stripped BOM and CR do not count toward the limit', async (t) => {
  t.same(createLineNumberer({ maxLineBytes: 3 }).number('\uFEFFabc\r'), { line: 'abc', lineNo: 1 });
});

t.test('a whitespace-only line over the limit is still an error', async (t) => {
  t.throws(() => createLineNumberer({ maxLineBytes: 2 }).number('   '), UsageError);
});

t.test('the label names what is being read', async (t) => {
  const numberer = createLineNumberer({ maxLineBytes: 1, label: 'script demo.jsonl' });
  numberer.number('');
  t.throws(() => numberer.number('ab'), { message: 'Invalid script demo.jsonl at line 2: the line is longer than 1 bytes (--max-line-bytes).' });
});

t.test('lineTooLong builds the same error for a line split2 never finished', async (t) => {
  const error = lineTooLong(9, 100);
  t.ok(error instanceof UsageError);
  t.equal(error.message, 'Invalid stream-json input at line 9: the line is longer than 100 bytes (--max-line-bytes).');
  t.equal(lineTooLong(1, 5, 'script s.jsonl').message, 'Invalid script s.jsonl at line 1: the line is longer than 5 bytes (--max-line-bytes).');
});

t.test('property: a line is rejected exactly when its UTF-8 size passes the limit', async (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.integer({ min: 0, max: 80 }), (raw, maxLineBytes) => {
      const numberer = createLineNumberer({ maxLineBytes });
      numberer.number(''); // past line 1, so a BOM is content
      const content = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const tooLong = Buffer.byteLength(content, 'utf8') > maxLineBytes;
      try {
        const line = numberer.number(raw);
        return !tooLong && (content.trim() === '' ? line === undefined : line?.line === content && line.lineNo === 2);
      } catch (error) {
        return tooLong && error instanceof UsageError && error.message.startsWith('Invalid stream-json input at line 2: ');
      }
    }),
  );
  t.pass('property held');
});
