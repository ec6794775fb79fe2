import t from 'tap';
import { Readable } from 'node:stream';
import { logItems, type Framing, type LogItem } from '../../../lib/logs/framing.js';

async function items(text: string | string[], framing?: Framing): Promise<LogItem[]> {
  const out: LogItem[] = [];
  const chunks = Array.isArray(text) ? text.map((c) => Buffer.from(c)) : [Buffer.from(text)];
  for await (const item of Readable.from(chunks).pipe(logItems(framing))) out.push(item as LogItem);
  return out;
}

const a = { type: 'run_start', n: 1 };
const b = { type: 'text', delta: 'x\ny' };

t.test('lines: JSONL with a non-JSON line kept', async (t) => {
  const got = await items(`${JSON.stringify(a)}\n\nnot json\n${JSON.stringify(b)}\n`, 'lines');
  t.same(got, [
    { lineNo: 1, value: a, raw: JSON.stringify(a) },
    { lineNo: 3, raw: 'not json', problem: 'not a JSON object' },
    { lineNo: 4, value: b, raw: JSON.stringify(b) },
  ]);
});

t.test('lines: chunks split anywhere, torn last line', async (t) => {
  const text = `${JSON.stringify(a)}\n${JSON.stringify(b)}\n{"type":"te`;
  const got = await items(text.match(/[\s\S]{1,5}/g)!, 'lines');
  t.equal(got.length, 3);
  t.match(got[2], { lineNo: 3, raw: '{"type":"te', problem: /JSON/ });
});

t.test('values: pretty-printed, concatenated, with start lines', async (t) => {
  const text = JSON.stringify(a, null, 2) + '\n' + JSON.stringify(b, null, 2) + JSON.stringify(a);
  const got = await items(text.match(/[\s\S]{1,3}/g)!, 'values');
  t.same(got, [
    { lineNo: 1, value: a },
    { lineNo: 5, value: b },
    { lineNo: 8, value: a },
  ]);
});

t.test('values: a top-level array is unwrapped', async (t) => {
  const got = await items(JSON.stringify([a, b], null, 2), 'values');
  t.same(got.map((item) => ('value' in item ? item.value : item)), [a, b]);
  t.same(got.map((item) => item.lineNo), [2, 6]);
});

t.test('values: a torn last value is kept as a problem', async (t) => {
  const got = await items(JSON.stringify(a, null, 2) + '\n{\n  "type": "te', 'values');
  t.equal(got.length, 2);
  t.match(got[1], { lineNo: 5, problem: /JSON/, raw: '{\n  "type": "te' });
});

t.test('values: a syntax error keeps the rest as lines', async (t) => {
  const got = await items(`${JSON.stringify(a, null, 2)}\n{ oops\n${JSON.stringify(b)}\n`, 'values');
  t.match(got, [{ lineNo: 1, value: a }, { lineNo: 5, problem: /JSON/ }, { lineNo: 6, value: b }]);
});

t.test('auto picks by the first value', async (t) => {
  t.same((await items(`${JSON.stringify(a)}\n${JSON.stringify(b)}\n`)).map((i) => 'raw' in i && i.raw !== undefined), [true, true], 'JSONL → lines (raw kept)');
  t.same((await items(JSON.stringify([a, b]))).map((i) => i.lineNo), [1, 1], 'array → values');
  t.same((await items(JSON.stringify(a, null, 2) + JSON.stringify(b, null, 2))).map((i) => i.lineNo), [1, 4], 'pretty → values');
  t.same(await items(''), []);
  t.same(await items('\n\n'), []);
  t.match(await items('\n\nhello\n'), [{ lineNo: 3, raw: 'hello', problem: /JSON/ }]);
});

// Nested arrays built as text; a value this deep crashed every log tool (stack overflow) before the framing caught it.
t.test('a value nested more than 256 levels deep is kept as text with a problem, in both framings', async (t) => {
  const deepLine = `{"type":"text","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
  const log = `${JSON.stringify(a)}\n${deepLine}\n${JSON.stringify(b)}\n`;
  for (const framing of ['lines', 'values'] as const) {
    const got = await items(log, framing);
    t.same(got.map((item) => ('problem' in item ? { lineNo: item.lineNo, problem: item.problem } : item.value)), [a, { lineNo: 2, problem: 'nested more than 256 levels deep' }, b], framing);
    t.ok(got[1]!.raw === deepLine, `${framing}: the line is kept whole`);
  }
  const deepArray = '['.repeat(5000) + ']'.repeat(5000);
  const [only, ...rest] = await items(`${deepArray}\n`, 'values');
  t.match(only, { lineNo: 1, problem: 'nested more than 256 levels deep' });
  t.ok(only!.raw === deepArray, 'a deep top-level array is kept whole');
  t.same(rest, []);
});
