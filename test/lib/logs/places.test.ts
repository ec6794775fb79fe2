import t from 'tap';
import { createLogFramer, type LogItem } from '../../../lib/logs/framing.js';
import { createFilesFramer, createLogPlaces, isLogFileStart } from '../../../lib/logs/places.js';
import { applyStep } from '../../../lib/streams.js';

t.test('places: a line of the joined log as its file and its line there', async (t) => {
  const places = createLogPlaces();
  t.same(places.of(7), { line: 7 }, 'one input: lines are its own');
  t.equal(places.label(7), 'line 7');
  places.start('a.jsonl', 1);
  places.start('empty.jsonl', 4);
  places.start('b.jsonl', 4);
  t.same([1, 3, 4, 9].map((line) => places.of(line)), [
    { file: 'a.jsonl', line: 1 },
    { file: 'a.jsonl', line: 3 },
    { file: 'b.jsonl', line: 1 },
    { file: 'b.jsonl', line: 6 },
  ]);
  t.equal(places.label(5), 'line 2 of b.jsonl');
  t.ok(isLogFileStart({ logFile: 'x' }) && !isLogFileStart(Buffer.from('{"logFile":"x"}')) && !isLogFileStart('x'));
});

/** The framed items of chunks (bytes, and a file's start before each file), and the places they were given. */
function frame(chunks: (string | { logFile: string })[]) {
  const places = createLogPlaces();
  const items = applyStep(createFilesFramer(() => createLogFramer('auto'), places), chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
  return { places, items: items as LogItem[] };
}

t.test('files: each framed on its own, lines numbered on across them', async (t) => {
  const pretty = JSON.stringify({ type: 'run_start', n: 3 }, null, 2);
  const { items, places } = frame([{ logFile: 'a.jsonl' }, '{"n":1}\n{"n"', ':2}', { logFile: 'b.json' }, '\n', pretty, '\n', { logFile: 'c.jsonl' }, '\uFEFF{"n":4}\nnot json\n']);
  t.same(
    items.map((item) => ('value' in item ? [item.lineNo, item.value] : [item.lineNo, item.problem])),
    [
      [1, { n: 1 }],
      [2, { n: 2 }],
      [4, { type: 'run_start', n: 3 }],
      [8, { n: 4 }],
      [9, 'not a JSON object'],
    ],
    'a.jsonl ends without a newline and is not joined to the next file; b.json is pretty-printed (framed as values); c.jsonl starts with a BOM',
  );
  t.same([2, 4, 9].map((line) => places.label(line)), ['line 2 of a.jsonl', 'line 2 of b.json', 'line 2 of c.jsonl']);
});

t.test('files: without a file start, the framer as it is', async (t) => {
  const { items } = frame(['{"n":1}\n', '{"n":2}\n']);
  t.same(items.map((item) => item.lineNo), [1, 2]);
});
