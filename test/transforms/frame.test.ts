import { once } from 'node:events';
import t from 'tap';
import type { LogItem } from '../../lib/logs/framing.js';
import { frame } from '../../transforms/frame.js';
import { chained, lineInChunks } from '../helpers/long_line.js';
import { searchedWhile } from '../helpers/searched.js';
import { through, writeUntilFailure } from '../helpers/streams.js';

const MiB = 1024 * 1024;
const a = { type: 'run_start', n: 1 };
const b = { type: 'text', delta: 'é' };

t.test('bytes in, LogItems out, in each framing', async (t) => {
  const jsonl = Buffer.from(`${JSON.stringify(a)}\n${JSON.stringify(b)}\n`);
  const halves = [jsonl.subarray(0, 30), jsonl.subarray(30)];
  t.match(await through<LogItem>(frame('lines'), halves), [
    { lineNo: 1, value: a, raw: JSON.stringify(a) },
    { lineNo: 2, value: b, raw: JSON.stringify(b) },
  ]);
  t.same(await through<LogItem>(frame('values'), [Buffer.from(JSON.stringify([a, b], null, 2))]), [
    { lineNo: 2, value: a },
    { lineNo: 6, value: b },
  ]);
  t.match(await through<LogItem>(frame(), halves), [{ lineNo: 1, value: a }, { lineNo: 2, value: b }], 'auto is the default');
  const stage = frame('lines');
  t.equal(stage.writableObjectMode, false);
  t.equal(stage.readableObjectMode, true);
});

t.test('input without a newline: each byte is searched about once in every framing, so 4× the input is 4× the work', async (t) => {
  // Before, the lines framing (split2) re-split the unfinished tail on every chunk, and auto re-split all it had read.
  for (const framing of ['lines', 'values', 'auto'] as const) {
    const searchedFor = (bytes: number) => searchedWhile(() => through(frame(framing), lineInChunks(bytes)));
    const [small, large] = [await searchedFor(2 * MiB), await searchedFor(8 * MiB)];
    t.ok(large <= 2 * 8 * MiB, `${framing}: ${large} bytes searched for 8 MiB`);
    t.ok(large / small < 5, `${framing}: the ratio is ${(large / small).toFixed(2)}`);
  }
});

t.test('lines: a 100 MB line is refused once the limit plus one chunk was taken in, naming the line', async (t) => {
  const stage = frame('lines');
  const failed = once(stage, 'error');
  stage.resume();
  const chunk = 64 * 1024;
  let taken = 0;
  const searched = await searchedWhile(async () => (taken = await writeUntilFailure(stage, chained([Buffer.from(`${JSON.stringify(a)}\n`)], lineInChunks(100e6, chunk)))));
  const [error] = (await failed) as [Error];
  t.match(error.message, /^Invalid stream-json input at line 2: the line is longer than 16777216 bytes/);
  t.ok(taken <= 100 + 16 * MiB + chunk, `${taken} bytes taken in`);
  t.ok(searched <= 2 * taken, `${searched} bytes searched`);
});

t.test('values: a 100 MB value is one problem, the rest of its line dropped as it comes, and the next line read', async (t) => {
  let items: LogItem[] = [];
  const value = chained([Buffer.from('{"type":"text","delta":"')], lineInChunks(100e6), [Buffer.from(`"}\n${JSON.stringify(b)}\n`)]);
  const searched = await searchedWhile(async () => (items = await through<LogItem>(frame('values'), value)));
  t.match(items, [{ lineNo: 1, problem: 'longer than 16777216 bytes' }, { lineNo: 2, value: b }]);
  t.equal(items.length, 2);
  t.ok(searched <= 2 * 100e6, `${searched} bytes searched`);
});
