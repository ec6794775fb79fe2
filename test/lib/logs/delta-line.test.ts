import t from 'tap';
import { plainDelta, plainDeltaLine } from '../../../lib/logs/delta-line.js';

const RUN = 'run_20260101100000_abcdef';
const line = (value: Record<string, unknown>) => JSON.stringify(value);
const delta = (text: string, extra: Record<string, unknown> = {}) => ({ schemaVersion: 1, type: 'text', runId: RUN, delta: text, ...extra });

t.test('a delta line as zero writes it reads as its event, without the line being parsed', async (t) => {
  t.same(plainDeltaLine(line(delta('Hello '))), delta('Hello '));
  t.same(plainDeltaLine(line(delta('world'))), delta('world'), 'the next line of the run (its beginning remembered)');
  t.same(plainDeltaLine(line({ schemaVersion: 2, type: 'reasoning', runId: 'run_20260101100001_zzzzzz', delta: 'hm' })), { schemaVersion: 2, type: 'reasoning', runId: 'run_20260101100001_zzzzzz', delta: 'hm' }, 'another run, kind and version');
});

t.test('escapes in the delta are decoded, as JSON.parse of the line would', async (t) => {
  for (const text of ['a\nb', 'say "hi"', 'back\\slash', 'tab\there', '\u0001', 'é ✓ 𝄞', '']) {
    t.same(plainDeltaLine(line(delta(text))), delta(text), JSON.stringify(text));
  }
  t.same(plainDeltaLine(`{"schemaVersion":1,"type":"text","runId":"${RUN}","delta":"t\\u006fken"}`)?.delta, 'token', 'a \\u escape');
});

t.test('anything else is left to the parser (undefined)', async (t) => {
  const cases = {
    'another key order': `{"type":"text","schemaVersion":1,"runId":"${RUN}","delta":"x"}`,
    'spaces': `{"schemaVersion": 1, "type": "text", "runId": "${RUN}", "delta": "x"}`,
    'a field after the delta': line(delta('x', { extra: 1 })),
    'an unescaped quote inside the delta': `{"schemaVersion":1,"type":"text","runId":"${RUN}","delta":"a"b"}`,
    'a run id not of zero\'s shape (the parser reads it)': line({ schemaVersion: 1, type: 'text', runId: 'sess_EnZUTZQgBMRI', delta: 'x' }),
    'schema version 3': line({ schemaVersion: 3, type: 'text', runId: RUN, delta: 'x' }),
    'a tool result': line({ schemaVersion: 1, type: 'tool_result', runId: RUN, delta: 'x' }),
    'a torn line': line(delta('x')).slice(0, -1),
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
