import t from 'tap';
import { OUTPUT_EVENT_TYPES, checkEvent, guardStep } from '../../../lib/output/event-guard.js';
import { applyStep, mapStep } from '../../../lib/streams.js';

t.test('checkEvent: an object of a known event type passes; anything else is a TypeError saying what it is, not its content', async (t) => {
  for (const type of ['text', 'run_end', 'reasoning', 'permission_request', 'turn_end', 'heartbeat']) t.doesNotThrow(() => checkEvent('redact', { type }), type);
  const refused: [unknown, RegExp][] = [
    ['sk-proj-secretsecretsecret', /^The redact stage takes output events \(objects whose type is one of run_start, .*\), not a string: parse lines into events first \(split → parse → validate\('output'\)\)\.$/],
    [Buffer.from('{"type":"text"}'), /not bytes: parse lines/],
    [{ type: 'txet', delta: 'x' }, /not an event of unknown type "txet"\.$/],
    [{ type: 'x'.repeat(100) }, /not an event of unknown type "x{40}…"\.$/],
    [{ delta: 'no type' }, /not an object without a string type\.$/],
    [[{ type: 'text' }], /not an array\.$/],
    [null, /not null\.$/],
    [42, /not a number\.$/],
    [{ value: { type: 'text' }, lineNo: 1 }, /not an object without a string type/],
  ];
  for (const [item, message] of refused) t.throws(() => checkEvent('redact', item), { name: 'TypeError', message });
  t.throws(() => checkEvent('redact', 'sk-proj-secretsecretsecret'), { message: /^(?!.*secret)/ }, 'the item itself is never in the message');
  t.equal(OUTPUT_EVENT_TYPES.size, 16);
});

t.test('guardStep: the step sees only events; its end still runs', async (t) => {
  const step = guardStep('stamp', { ...mapStep((event: { type: string }) => event.type), end: (emit) => emit('end') });
  t.same(applyStep(step, [{ type: 'text' }, { type: 'final' }]), ['text', 'final', 'end']);
  t.throws(() => applyStep(step, [{ type: 'text' }, 'a' as never]), { message: /^The stamp stage takes output events/ });
});
