import t from 'tap';
import { MAX_JSON_DEPTH, TOO_DEEP } from '../../../lib/protocol/depth.js';
import type { LogItem } from '../../../lib/logs/framing.js';
import { createKeptText, createValueReader, tooLongValue, TooDeepError, TooLongError } from '../../../lib/logs/value-reader.js';

/** Feeds the text a line at a time, numbered from 1, and gives what came out. */
function read(lines: string[], maxChars = 1 << 20): LogItem[] {
  const reader = createValueReader(maxChars);
  const out: LogItem[] = [];
  lines.forEach((text, i) => reader.write(text, i + 1, (item) => out.push(item)));
  reader.end(lines.length, (item) => out.push(item));
  return out;
}

t.test('each value comes out with the line it started on, however its text was cut', async (t) => {
  t.same(read(['{"a":', '1}{"b"', ':2}\n', '\n', '"x"  3\n']), [
    { lineNo: 1, value: { a: 1 } },
    { lineNo: 2, value: { b: 2 } },
    { lineNo: 5, value: 'x' },
    { lineNo: 5, value: 3 },
  ]);
});

t.test('a top-level array is unwrapped into its elements; a nested one is not', async (t) => {
  t.same(read(['[{"a":[1,2]},\n', '{"b":[]}]\n']), [
    { lineNo: 1, value: { a: [1, 2] } },
    { lineNo: 2, value: { b: [] } },
  ]);
});

t.test('a value nesting past the limit fails at the first token too deep, before it is assembled', async (t) => {
  t.doesNotThrow(() => read(['['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1)]), 'the unwrapped array does not count');
  t.throws(() => read(['{"a":'.repeat(MAX_JSON_DEPTH + 1)]), new TooDeepError(TOO_DEEP));
});

t.test('a value whose text passes the limit fails with the limit named; whitespace between tokens is not counted', async (t) => {
  t.throws(() => read([`"${'x'.repeat(100)}"`], 64), new TooLongError(tooLongValue(64)));
  t.same(read([`{ "a" :   ${' '.repeat(100)} 1 }`], 64), [{ lineNo: 1, value: { a: 1 } }]);
});

t.test('an unfinished value at the end and a syntax error both fail', async (t) => {
  t.throws(() => read(['{"a":1']));
  t.throws(() => read(['{"a" 1}']));
});

t.test('the reader tells where the value being read started, and nothing between values', async (t) => {
  const reader = createValueReader(1 << 20);
  reader.write('{"a":\n', 3, () => {});
  t.equal(reader.start, 3);
  reader.write('1}\n', 4, () => {});
  t.equal(reader.start, undefined);
});

t.test('kept text: from its first line with content, without the last line ending, CRLF as LF, up to about the limit', async (t) => {
  const kept = createKeptText(16);
  kept.add('\n  \r\n');
  kept.add('{"a"\r\n');
  kept.add(':1\n');
  t.equal(kept.text, '{"a"\n:1');
  kept.add('past\n');
  t.equal(kept.text, '{"a"\n:1\npast', 'the piece that crosses the limit is kept');
  kept.add('more\n');
  t.equal(kept.text, '{"a"\n:1\npast', 'nothing is added once the limit is reached');
  kept.clear();
  t.equal(kept.text, '');
});
