import t from 'tap';
import { plainDelta, plainDeltaLine } from '../../../lib/logs/delta-line.js';

const RUN = 'run_20260101100000_abcdef';
const line = (value: Record<string, unknown>) => JSON.stringify(value);
const delta = (text: string, extra: Record<string, unknown> = {}) => ({ schemaVersion: 1, type: 'text', runId: RUN, delta: text, ...extra });

/** The line's event as plainDeltaLine reads it: its fields, then its delta. */
const eventOf = (raw: string) => {
  const read = plainDeltaLine(raw);
  return read && { ...read.fields, delta: read.delta };
};

t.test('a delta line as zero writes it reads as its event, without the line being parsed', async (t) => {
  t.same(eventOf(line(delta('Hello '))), delta('Hello '));
  t.same(plainDeltaLine(line(delta('world'))), { fields: { schemaVersion: 1, type: 'text', runId: RUN }, delta: 'world', head: `{"schemaVersion":1,"type":"text","runId":"${RUN}","delta":"` }, 'the next line of the run (its beginning remembered), with that beginning');
  t.same(eventOf(line({ schemaVersion: 2, type: 'reasoning', runId: 'run_20260101100001_zzzzzz', delta: 'hm' })), { schemaVersion: 2, type: 'reasoning', runId: 'run_20260101100001_zzzzzz', delta: 'hm' }, 'another run, kind and version');
});

t.test('a delta line with other fields before its delta, in any order, reads the same way: its fields as they are', async (t) => {
  const shapes = [
    { schemaVersion: 1, type: 'text', runId: RUN, sessionId: 'sess_EnZUTZQgBMRI', delta: 'x' },
    { type: 'text', schemaVersion: 2, runId: 'a run id of another program', seq: 7, final: false, note: null, delta: 'y' },
    { schemaVersion: 3, type: 'reasoning', delta: 'z' },
  ];
  for (const shape of shapes) {
    const read = plainDeltaLine(line(shape));
    t.same(eventOf(line(shape)), shape, JSON.stringify(shape));
    t.same([...Object.keys(read!.fields), 'delta'], Object.keys(shape), 'the same keys, in the same order');
    t.equal(read!.head, line(shape).slice(0, line(shape).indexOf(',"delta":"') + 10));
  }
});

t.test('escapes in the delta are decoded, as JSON.parse of the line would', async (t) => {
  // a long delta is copied out of its line whether it has escapes or not: both lengths read the same
  for (const pad of ['', 'x'.repeat(200)]) {
    for (const text of ['a\nb', 'say "hi"', 'back\\slash', 'tab\there', '\u0001', 'é ✓ 𝄞', '', 'plain', 'ends in a backslash\\', 'a \\"quoted\\" backslash']) {
      t.same(eventOf(line(delta(pad + text))), delta(pad + text), `${pad.length} + ${JSON.stringify(text)}`);
    }
  }
  t.same(eventOf(`{"schemaVersion":1,"type":"text","runId":"${RUN}","delta":"t\\u006fken"}`)?.delta, 'token', 'a \\u escape');
  t.same(eventOf(`{"schemaVersion":1,"type":"text","runId":"${RUN}","note":"a \\",\\"delta\\":\\" b","delta":"c"}`), { schemaVersion: 1, type: 'text', runId: RUN, note: 'a ","delta":" b', delta: 'c' }, 'a field that spells the delta\'s key, escaped');
});

t.test('a delta followed by flat fields (a timestamp on every delta) reads with them: its fields before it, and after it as they are', async (t) => {
  const shapes = [
    delta('x', { extra: 1 }),
    delta('C:\\dir\\', { ts: 'then' }),
    delta('say "hi" \\"', { ts: 'then', seq: 7, final: false, note: null }),
    delta('x'.repeat(300), { ts: '2026-12-06T00:00:01.000Z' }),
    delta('é ✓', { ts: 'a "quoted", value' }),
  ];
  for (const shape of shapes) {
    const raw = line(shape);
    const read = plainDeltaLine(raw);
    const { schemaVersion, type, runId, delta: text, ...after } = shape;
    t.same(read && { fields: read.fields, delta: read.delta, after: read.after }, { fields: { schemaVersion, type, runId }, delta: text, after: { fields: after, raw: raw.slice(raw.indexOf(JSON.stringify(text)) + JSON.stringify(text).length) } }, raw);
  }
});

t.test('anything else is left to the parser (undefined)', async (t) => {
  const cases = {
    'spaces': `{"schemaVersion": 1, "type": "text", "runId": "${RUN}", "delta": "x"}`,
    'a field that is an object': line({ schemaVersion: 1, type: 'text', runId: RUN, meta: { delta: 'a' }, delta: 'x' }),
    'the delta twice': `{"schemaVersion":1,"type":"text","delta":"a","runId":"${RUN}","delta":"x"}`,
    'an unescaped quote inside the delta': `{"schemaVersion":1,"type":"text","runId":"${RUN}","delta":"a"b"}`,
    'a tool result': line({ schemaVersion: 1, type: 'tool_result', runId: RUN, delta: 'x' }),
    'a tool call whose args name a delta': line({ schemaVersion: 1, type: 'tool_call', runId: RUN, id: 'c1', args: { path: 'a', delta: 'x' }, name: 'edit' }),
    'a torn line': line(delta('x')).slice(0, -1),
    'not an object': `["schemaVersion",1,"type","text","delta":"x"}`,
    'a delta whose type comes after 256 characters of other fields': line({ note: 'x'.repeat(300), schemaVersion: 1, type: 'text', runId: RUN, delta: 'x' }),
    'an object after the delta': line(delta('x', { meta: { a: 1 } })),
    'an array after the delta': line(delta('x', { tags: ['a'] })),
    'a key after the delta that the line has before it': `{"schemaVersion":1,"type":"text","runId":"${RUN}","delta":"x","type":"reasoning"}`,
    'the delta again after it': `{"schemaVersion":1,"type":"text","runId":"${RUN}","delta":"x","delta":"y"}`,
    'no comma after the delta': `{"schemaVersion":1,"type":"text","runId":"${RUN}","delta":"x" "ts":1}`,
    'what follows the delta is no JSON': `{"schemaVersion":1,"type":"text","runId":"${RUN}","delta":"x","ts":tomorrow}`,
    'an unescaped quote inside a long delta': `{"schemaVersion":1,"type":"text","runId":"${RUN}","delta":"${'x'.repeat(300)}"b"}`,
    'a raw control character in a long delta (no JSON)': `{"schemaVersion":1,"type":"text","runId":"${RUN}","delta":"${'x'.repeat(300)}\tb"}`,
  };
  for (const [name, raw] of Object.entries(cases)) t.equal(plainDeltaLine(raw), undefined, name);
});

t.test('plainDelta: a parsed delta whose other fields have their protocol shape', async (t) => {
  t.ok(plainDelta(delta('x')));
  t.ok(plainDelta({ type: 'text', delta: 'x' }), 'fields left out');
  t.notOk(plainDelta(delta('x', { note: 'token=abc' })), 'another field: it may hold a secret');
  t.notOk(plainDelta({ ...delta('x'), runId: 'sk-not a run id' }), 'a run id of another shape');
  t.notOk(plainDelta({ ...delta('x'), schemaVersion: 7 }), 'an unknown schema version');
});

t.test('a run whose lines begin alike but for one value (a seq, a ts): each line read with its own fields, and where it changed', async (t) => {
  const stamped = (seq: number, ts: string, extra: Record<string, unknown> = {}) => line({ seq, ts, schemaVersion: 1, type: 'text', runId: RUN, ...extra, delta: `d${seq}` });
  const lines = [
    stamped(1, '2026-12-06T00:00:00.001Z'),
    stamped(1, '2026-12-06T00:00:00.002Z'),
    stamped(1, 'a "quoted" \\ one'),
    stamped(2, 'a "quoted" \\ one'),
    stamped(10, 'a "quoted" \\ one'),
    stamped(11, 'both change'),
    stamped(11, 'both change', { note: 'a field more' }),
    line({ seq: 11, ts: 'both change', schemaVersion: 1, type: 'reasoning', runId: RUN, delta: 'r' }),
    stamped(12, '2026-12-06T00:00:00.003Z'),
  ];
  const reads = lines.map((raw) => plainDeltaLine(raw));
  t.same(reads.map((read) => read && { ...read.fields, delta: read.delta }), lines.map((raw) => JSON.parse(raw) as unknown), 'every line read as JSON.parse reads it');
  t.same(reads.map((read) => read!.changed !== undefined), [false, true, true, true, true, false, false, false, false], 'changed: only when one value differs from the line before');
  const { from, to } = reads[1]!.changed!;
  t.equal(reads[1]!.changed!.previous, reads[0]!.head);
  t.equal(reads[1]!.head.slice(from, to), '"2026-12-06T00:00:00.002Z"', 'the value that changed, as written');
  t.equal(reads[4]!.head.slice(reads[4]!.changed!.from, reads[4]!.changed!.to), '10', 'a number, longer than before');
});
