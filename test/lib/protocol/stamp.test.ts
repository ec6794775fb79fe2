import t from 'tap';
import { stampEvent } from '../../../lib/protocol/stamp.js';
import { checkAgainstSchema } from '../../../lib/protocol/validate.js';
import type { Event } from '../../../lib/protocol/types.js';

const runId = 'run_20261130053326_ab12cd';

const events: Event[] = [
  { type: 'run_start', sessionId: 'zero_20261130053326_zz99aa', cwd: '/repo', provider: 'scripted', model: 'demo', apiModel: 'demo-2026' },
  { type: 'text', delta: 'Hello' },
  { type: 'tool_call', id: 'call_1', name: 'read_file', args: { path: 'README.md' }, sideEffect: 'read' },
  { type: 'tool_result', id: 'call_1', status: 'ok', output: '# zero', truncated: false },
  { type: 'usage', promptTokens: 10, completionTokens: 5, totalTokens: 15 },
  { type: 'warning', message: 'Careful.' },
  { type: 'final', text: 'Done.' },
  { type: 'error', code: 'max_turns', message: 'Reached the turn limit.', recoverable: true },
  { type: 'run_end', status: 'success', exitCode: 0 },
];

for (const event of events) {
  t.test(`${event.type}: schemaVersion, type, runId come first, then the event's own fields in order`, async (t) => {
    const stamped = stampEvent(event, runId);
    const ownKeys = Object.keys(event).filter((key) => key !== 'type');
    t.same(Object.keys(stamped), ['schemaVersion', 'type', 'runId', ...ownKeys]);
    t.equal(stamped.schemaVersion, 1);
    t.equal(stamped.runId, runId);
    t.same(stamped, { ...event, schemaVersion: 1, runId });
  });

  t.test(`${event.type}: the stamped event is a valid output event`, async (t) => {
    t.same(checkAgainstSchema('output', stampEvent(event, runId)), { ok: true, value: stampEvent(event, runId) });
  });
}

t.test('the type is moved to second place even when it is not first in the input', async (t) => {
  const event = { delta: 'x', type: 'text' } as Event;
  t.same(Object.keys(stampEvent(event, runId)), ['schemaVersion', 'type', 'runId', 'delta']);
});

t.test('the input event is not mutated and a new object is returned', async (t) => {
  const event: Event = { type: 'tool_call', id: 'call_1', name: 'grep', args: { pattern: 'x' } };
  const before = structuredClone(event);
  Object.freeze(event);
  const stamped = stampEvent(event, runId);
  t.not(stamped, event);
  t.same(event, before);
  t.same(Object.keys(event), ['type', 'id', 'name', 'args']);
  t.notOk('runId' in event);
});

t.test('nested values are shared, not copied', async (t) => {
  const args = { path: 'a' };
  const stamped = stampEvent({ type: 'tool_call', id: 'c', name: 'read_file', args }, runId);
  t.equal(stamped.args, args);
});

t.test('restamping an already stamped event uses the new run id', async (t) => {
  const recorded = { schemaVersion: 1, type: 'text', runId: 'run_20200101000000_old000', delta: 'x' } as unknown as Event;
  const restamped = stampEvent(recorded, runId);
  t.equal(restamped.runId, runId);
  t.same(Object.keys(restamped), ['schemaVersion', 'type', 'runId', 'delta']);
});

t.test('an event with a stamp field of its own but not the other gets the given ones, each once, in their places', async (t) => {
  const versioned = { type: 'text', delta: 'x', schemaVersion: 2 } as unknown as Event;
  t.equal(JSON.stringify(stampEvent(versioned, runId)), `{"schemaVersion":1,"type":"text","runId":"${runId}","delta":"x"}`);
  const unset = { type: 'text', runId: undefined, delta: 'x' } as unknown as Event;
  t.equal(JSON.stringify(stampEvent(unset, runId)), `{"schemaVersion":1,"type":"text","runId":"${runId}","delta":"x"}`);
});
