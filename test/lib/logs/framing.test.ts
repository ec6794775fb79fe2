import t from 'tap';
import { createLogFramer, createLogLineFramer, tooLongValue, type Framing, type LogFramingOptions, type LogItem } from '../../../lib/logs/framing.js';
import { applyStep } from '../../../lib/streams.js';

/** The items of a log given in chunks, each chunk as bytes. */
function items(text: string | (string | Buffer)[], framing?: Framing, options?: LogFramingOptions): LogItem[] {
  const chunks = Array.isArray(text) ? text.map((c) => (Buffer.isBuffer(c) ? c : Buffer.from(c))) : [Buffer.from(text)];
  return applyStep(createLogFramer(framing, options), chunks);
}

/** The items without their bytes, for the tests about everything else. */
const withoutBytes = (got: LogItem[]) => got.map(({ bytes: _bytes, ...rest }) => rest);

const a = { type: 'run_start', n: 1 };
const b = { type: 'text', delta: 'x\ny' };
const line = (value: unknown) => JSON.stringify(value);

t.test('lines: JSONL with a non-JSON line kept', async (t) => {
  const got = items(`${line(a)}\n\nnot json\n${line(b)}\n`, 'lines');
  t.same(got, [
    { lineNo: 1, value: a, raw: line(a), bytes: Buffer.from(line(a)) },
    { lineNo: 3, raw: 'not json', problem: 'not a JSON object', bytes: Buffer.from('not json') },
    { lineNo: 4, value: b, raw: line(b), bytes: Buffer.from(line(b)) },
  ]);
});

t.test('lines: each item has its line exactly as read, a Latin-1 é and all, without the line ending', async (t) => {
  const latin1 = Buffer.from('{"type":"text","delta":"caf\xe9"}', 'latin1');
  const got = items([latin1, Buffer.from('\r\nx\n')], 'lines');
  t.same(got[0]?.bytes, latin1);
  t.match(got[0], { lineNo: 1, value: { type: 'text', delta: 'caf\uFFFD' }, raw: '{"type":"text","delta":"caf\uFFFD"}' });
  t.same(got[1]?.bytes, Buffer.from('x'));
});

t.test('lines, keepBytes false: the same items without their bytes', async (t) => {
  const latin1 = Buffer.from('{"type":"text","delta":"caf\xe9"}', 'latin1');
  const chunks = [latin1, Buffer.from(`\r\n${line(a)}\nnot json\n`)];
  const got = applyStep(createLogFramer('lines', { keepBytes: false }), chunks);
  t.same(got, withoutBytes(items(chunks, 'lines')));
  t.ok(got.every((item) => item.bytes === undefined));
  t.same(applyStep(createLogFramer('auto', { keepBytes: false }), chunks), got, 'auto choosing lines too');
});

t.test('lines: chunks split anywhere, torn last line', async (t) => {
  const text = `${line(a)}\n${line(b)}\n{"type":"te`;
  const got = items(text.match(/[\s\S]{1,5}/g)!, 'lines');
  t.equal(got.length, 3);
  t.match(got[2], { lineNo: 3, raw: '{"type":"te', problem: /JSON/ });
});

t.test('lines: a line over the limit fails, naming it', async (t) => {
  t.throws(() => items(`${line(a)}\n${'x'.repeat(40)}\n`, 'lines', { maxLineBytes: 32 }), {
    message: 'Invalid stream-json input at line 2: the line is longer than 32 bytes (--max-line-bytes).',
  });
});

t.test('for a reader that writes what it reads (zero redact): a value over the limit fails, naming it, in the values framing too', async (t) => {
  const long = `{"type":"text","delta":"${'x'.repeat(200)}"}`;
  const redacting = (framing: Framing, text: string) => () => applyStep(createLogLineFramer(framing, { maxLineBytes: 64 }), [Buffer.from(text)]);
  const message = (lineNo: number) => ({ message: `Invalid stream-json input at line ${lineNo}: the line is longer than 64 bytes (--max-line-bytes).` });
  t.throws(redacting('values', `${line(a)}\n${long}\n${line(b)}\n`), message(2), 'values');
  t.throws(redacting('auto', `${long}\n${line(b)}\n`), message(1), 'auto, which picks values for a first line it cannot see end');
  t.match(items(`${line(a)}\n${long}\n`, 'values', { maxLineBytes: 64 })[1], { problem: tooLongValue(64) }, 'a reader of events is told of it instead');
});

t.test('values: pretty-printed, concatenated, with start lines', async (t) => {
  const text = JSON.stringify(a, null, 2) + '\n' + JSON.stringify(b, null, 2) + line(a);
  const got = items(text.match(/[\s\S]{1,3}/g)!, 'values');
  t.same(got, [
    { lineNo: 1, value: a },
    { lineNo: 5, value: b },
    { lineNo: 8, value: a },
  ]);
});

t.test('values: a top-level array is unwrapped', async (t) => {
  const got = items(JSON.stringify([a, b], null, 2), 'values');
  t.same(got.map((item) => ('value' in item ? item.value : item)), [a, b]);
  t.same(got.map((item) => item.lineNo), [2, 6]);
});

t.test('values: a torn last value is kept as a problem', async (t) => {
  const got = items(JSON.stringify(a, null, 2) + '\n{\n  "type": "te', 'values');
  t.equal(got.length, 2);
  t.match(got[1], { lineNo: 5, problem: /JSON/, raw: '{\n  "type": "te' });
  t.match(items(`${line(a)}\n{ oops`, 'values'), [{ lineNo: 1, value: a }, { lineNo: 2, raw: '{ oops', problem: /JSON/ }], 'broken for good: one problem');
  t.equal(items(`${line(a)}\n{ oops`, 'values').length, 2);
});

t.test('values: a syntax error keeps the rest as lines', async (t) => {
  const got = items(`${JSON.stringify(a, null, 2)}\n{ oops\n${line(b)}\n`, 'values');
  t.match(got, [{ lineNo: 1, value: a }, { lineNo: 5, problem: /JSON/ }, { lineNo: 6, value: b }]);
});

t.test('values: however a broken line was cut into chunks, it is one problem with all its text, and the lines after it are read as lines', async (t) => {
  const broken = '{"a":1} oops, more oops, still';
  const expected = [{ lineNo: 1, raw: broken, problem: 'not JSON (Parser cannot parse input: expected a value)' }, { lineNo: 2, value: b, raw: line(b) }];
  t.same(withoutBytes(items(`${broken}\n${line(b)}\n`, 'values')), expected);
  t.same(withoutBytes(items(['{"a":1} oops', ', more oops', `, still\n${line(b)}\n`], 'values')), expected);
});

t.test('values: a BOM at the start, even split across chunks, and characters split across chunks', async (t) => {
  const whole = Buffer.from('\uFEFF{"delta":"héllo 🌍"}\r\n"€"');
  const got = items([...whole].map((byte) => Buffer.from([byte])), 'values');
  t.same(got, [
    { lineNo: 1, value: { delta: 'héllo 🌍' } },
    { lineNo: 2, value: '€' },
  ]);
});

t.test('values: a value whose text passes the limit is a problem, not read further; the lines after its line are read as lines', async (t) => {
  const long = `{"type":"text","delta":"${'x'.repeat(200)}"}`;
  const got = items([`${line(a)}\n`, long.slice(0, 100), long.slice(100), `\n${line(b)}\n`], 'values', { maxLineBytes: 64 });
  t.match(withoutBytes(got), [{ lineNo: 1, value: a }, { lineNo: 2, problem: tooLongValue(64) }, { lineNo: 3, value: b }]);
  t.equal(got.length, 3);
  t.equal(tooLongValue(64), 'longer than 64 bytes');
  const pretty = JSON.stringify({ type: 'text', list: Array.from({ length: 40 }, (_, i) => i) }, null, 2);
  t.match(items(pretty, 'values', { maxLineBytes: 64 })[0], { lineNo: 1, problem: tooLongValue(64) }, 'the lines a value spans all count');
  t.same(items(`${line(a)}\n${' '.repeat(200)}\n${line(b)}`, 'values', { maxLineBytes: 64 }), [
    { lineNo: 1, value: a },
    { lineNo: 3, value: b },
  ], 'what is between values does not count');
});

t.test('auto picks by the first value', async (t) => {
  t.same(items(`${line(a)}\n${line(b)}\n`).map((i) => 'raw' in i && i.raw !== undefined), [true, true], 'JSONL → lines (raw kept)');
  t.same(items(JSON.stringify([a, b])).map((i) => i.lineNo), [1, 1], 'array → values');
  t.same(items(JSON.stringify(a, null, 2) + JSON.stringify(b, null, 2)).map((i) => i.lineNo), [1, 4], 'pretty → values');
  t.same(items(''), []);
  t.same(items('\n\n'), []);
  t.match(items('\n\nhello\n'), [{ lineNo: 3, raw: 'hello', problem: /JSON/ }]);
});

t.test('auto decides on the first line with content however the bytes come, and hands on all of them', async (t) => {
  const text = `\uFEFF\n  \n${line(a)}\r\n${line(b)}`;
  const oneByOne = [...Buffer.from(text)].map((byte) => Buffer.from([byte]));
  t.same(withoutBytes(items(oneByOne)), [
    { lineNo: 3, value: a, raw: line(a) },
    { lineNo: 4, value: b, raw: line(b) },
  ]);
  t.same(items(['\n', '\n', '[', JSON.stringify(a), ']']), [{ lineNo: 3, value: a }]);
});

t.test('auto: a first line not finished within the limit decides by how it starts', async (t) => {
  const long = `{"type":"text","delta":"${'x'.repeat(200)}"}`;
  t.match(items(['\n', long, '\n'], 'auto', { maxLineBytes: 64 }), [{ lineNo: 2, problem: tooLongValue(64) }], '{ → values');
  t.throws(() => items(['\n', 'y'.repeat(200), '\n'], 'auto', { maxLineBytes: 64 }), { message: /at line 2: the line is longer than 64 bytes/ }, 'else lines');
});

// Nested arrays built as text; a value this deep crashed every log tool (stack overflow) before the framing caught it.
t.test('a value nested more than 256 levels deep is kept as text with a problem, in both framings', async (t) => {
  const deepLine = `{"type":"text","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
  const log = `${line(a)}\n${deepLine}\n${line(b)}\n`;
  for (const framing of ['lines', 'values'] as const) {
    const got = items(log, framing);
    t.same(got.map((item) => ('problem' in item ? { lineNo: item.lineNo, problem: item.problem } : item.value)), [a, { lineNo: 2, problem: 'nested more than 256 levels deep' }, b], framing);
    t.ok(got[1]!.raw === deepLine, `${framing}: the line is kept whole`);
  }
  const deepArray = '['.repeat(5000) + ']'.repeat(5000);
  const [only, ...rest] = items(`${deepArray}\n`, 'values');
  t.match(only, { lineNo: 1, problem: 'nested more than 256 levels deep' });
  t.ok(only!.raw === deepArray, 'a deep top-level array is kept whole');
  t.same(rest, []);
});
