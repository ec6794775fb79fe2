import t from 'tap';
import { PART_CHARS, emitJsonLine, jsonLineParts } from '../../../lib/output/json-parts.js';
import { TextSpool } from '../../../lib/files/text-spool.js';

const line = (value: object) => [...jsonLineParts(value)];

t.test('an object without a long string is its JSON line, in one part', async (t) => {
  const event = { schemaVersion: 1, type: 'final', runId: 'run_1', text: 'short "quoted"\n', skipped: undefined };
  t.same(line(event), [`${JSON.stringify(event)}\n`]);
});

t.test('a long string field comes in slices whose concatenation is JSON.stringify, byte for byte', async (t) => {
  // quotes, control characters, an emoji, a lone surrogate and line separators: every escape JSON.stringify makes
  const text = 'a"b\\c\n\t\u0001\u2028😀\ud800 end '.repeat(Math.ceil((2.5 * PART_CHARS) / 24));
  const event = { schemaVersion: 1, type: 'final', runId: 'run_1', text, structured: { ok: [1, 'two'] }, gone: undefined, fn: () => 1 };
  const parts = line(event);
  t.equal(parts.join(''), `${JSON.stringify(event)}\n`);
  t.ok(parts.length >= 3, 'several parts');
  t.ok(Math.max(...parts.map((part) => part.length)) <= 6 * PART_CHARS + 8, 'no part holds the whole line');
  for (const field of [{ text, first: true }, { first: 1, text }]) t.equal(line(field).join(''), `${JSON.stringify(field)}\n`, 'wherever the long field is');
});

t.test('a long string only inherited is not written: the line is JSON.stringify of the object, byte for byte', async (t) => {
  const event = Object.assign(Object.create({ text: 'x'.repeat(2 * PART_CHARS) }) as object, { type: 'text', delta: 'hi' });
  t.equal(line(event).join(''), `${JSON.stringify(event)}\n`);
  t.equal(line(event).join(''), '{"type":"text","delta":"hi"}\n');
});

t.test('a surrogate pair at the end of a slice stays whole: never written as two escaped halves', async (t) => {
  for (const shift of [0, 1, 2]) {
    const text = `${'x'.repeat(PART_CHARS - shift)}${'😀'.repeat(4)}${'y'.repeat(PART_CHARS)}`;
    const parts = line({ text });
    t.equal(parts.join(''), `${JSON.stringify({ text })}\n`, `pair ${shift} before the cut`);
    t.notMatch(parts.join(''), /\\ud/, 'no escaped half');
  }
});

t.test('a spooled final: its text is written from the spool, as JSON.stringify writes the same final with the text', async (t) => {
  const text = 'a"b\\c\n\t\u0001\u2028😀 end é '.repeat(Math.ceil((3 * PART_CHARS) / 20));
  const spool = new TextSpool(PART_CHARS);
  // pieces of 5 units: pairs and escapes cut everywhere
  for (let start = 0; start < text.length; start += 5) spool.write(text.slice(start, start + 5));
  t.ok(spool.spooled);
  const stamped = { schemaVersion: 2, type: 'final', runId: 'run_1', text: '', spool };
  const parts = line(stamped);
  t.equal(parts.join(''), `${JSON.stringify({ schemaVersion: 2, type: 'final', runId: 'run_1', text })}\n`);
  t.ok(Math.max(...parts.map((part) => part.length)) <= 6 * PART_CHARS + 40, 'in parts');
});

t.test('emitJsonLine: a spooled line is emitted as its parts unread, any other line as strings', async (t) => {
  const spool = new TextSpool(4);
  spool.write('spooled text');
  const emitted: (string | Iterable<string>)[] = [];
  emitJsonLine({ type: 'final', text: '', spool }, (part) => void emitted.push(part));
  emitJsonLine({ type: 'final', text: 'short' }, (part) => void emitted.push(part));
  t.equal(typeof emitted[0], 'object', 'an Iterable');
  t.equal([...(emitted[0] as Iterable<string>)].join(''), '{"type":"final","text":"spooled text"}\n');
  t.same(emitted.slice(1), ['{"type":"final","text":"short"}\n']);
});
