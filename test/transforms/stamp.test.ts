import t from 'tap';
import { stamp } from '../../transforms/stamp.js';
import { RUN_ID_PATTERN } from '../../lib/protocol/ids.js';
import { through, throughUntilError } from '../helpers/streams.js';

t.test('adds schemaVersion and one runId to every event, first in the key order', async (t) => {
  const out = await through<Record<string, unknown>>(stamp(), [{ type: 'text', delta: 'hi' }, { type: 'run_end', status: 'success', exitCode: 0 }]);
  t.match(out[0]?.runId, RUN_ID_PATTERN);
  t.equal(out[0]?.runId, out[1]?.runId);
  t.same(Object.keys(out[0] ?? {}), ['schemaVersion', 'type', 'runId', 'delta']);
  t.equal(out[1]?.schemaVersion, 1);
});

t.test('a given run id is used', async (t) => {
  const [event] = await through<Record<string, unknown>>(stamp({ runId: 'run_20260101000000_abcdef' }), [{ type: 'final', text: '' }]);
  t.equal(event?.runId, 'run_20260101000000_abcdef');
});

t.test('two stages make two runs', async (t) => {
  const [a] = await through<Record<string, unknown>>(stamp(), [{ type: 'final', text: '' }]);
  const [b] = await through<Record<string, unknown>>(stamp(), [{ type: 'final', text: '' }]);
  t.not(a?.runId, b?.runId);
});

t.test('an event that has a runId keeps it: a log of two runs keeps its two runs; events without one are stamped', async (t) => {
  const [a, b] = ['run_20250101000000_aaaaaa', 'run_20250101000000_bbbbbb'];
  const log = [
    { schemaVersion: 1, type: 'text', runId: a, delta: 'one' },
    { schemaVersion: 1, type: 'run_end', runId: a, status: 'success', exitCode: 0 },
    { schemaVersion: 2, type: 'text', runId: b, delta: 'two' },
    { schemaVersion: 2, type: 'run_end', runId: b, status: 'error', exitCode: 3 },
  ];
  const codes: number[] = [];
  t.same(await through(stamp({ runId: 'run_20260101000000_newnew', onRunEnd: (code) => codes.push(code) }), log), log, 'each event as it was');
  t.same(codes, [0, 3], 'onRunEnd hears of each run_end written');
  const mixed = await through<Record<string, unknown>>(stamp({ runId: 'run_20260101000000_newnew' }), [log[0], { type: 'final', text: '' }]);
  t.same(mixed.map((event) => event.runId), [a, 'run_20260101000000_newnew']);
});

t.test("a program's own runId without a schemaVersion: kept, and the event written in the stage's version", async (t) => {
  const out = await through<Record<string, unknown>>(stamp({ runId: 'run_20260101000000_newnew', schemaVersion: 2 }), [
    { type: 'reasoning', runId: 'job-42', delta: 'Hm.' },
    { type: 'run_end', runId: 'job-42', status: 'interrupted', exitCode: 130 },
  ]);
  t.same(out, [
    { schemaVersion: 2, type: 'reasoning', runId: 'job-42', delta: 'Hm.' },
    { schemaVersion: 2, type: 'run_end', runId: 'job-42', status: 'interrupted', exitCode: 130 },
  ]);
  const [first] = await through<Record<string, unknown>>(stamp(), [{ type: 'final', runId: 'job-42', text: '' }]);
  t.same(Object.keys(first ?? {}), ['schemaVersion', 'type', 'runId', 'text'], 'stamped in the order clients read');
});

t.test('anything but an output event fails the stream, saying what the stage takes', async (t) => {
  for (const [item, what] of [['a', /not a string: parse lines into events first/], [{ type: 'txet', delta: 'x' }, /not an event of unknown type "txet"/]] as const) {
    const { out, error } = await throughUntilError(stamp(), [{ type: 'text', delta: 'ok' }, item]);
    t.equal(out.length, 1, 'what came before went on');
    t.match(error, { name: 'TypeError', message: what });
  }
});

t.test('schema version 2: every event stamped 2, reasoning kept; version 1 (the default) drops reasoning', async (t) => {
  const events = [{ type: 'reasoning', delta: 'hmm' }, { type: 'final', text: '' }];
  const v2 = await through<Record<string, unknown>>(stamp({ schemaVersion: () => 2 }), events);
  t.same(v2.map((event) => [event.schemaVersion, event.type]), [[2, 'reasoning'], [2, 'final']]);
  const v1 = await through<Record<string, unknown>>(stamp(), events);
  t.same(v1.map((event) => [event.schemaVersion, event.type]), [[1, 'final']]);
});

t.test('onRunEnd is told the exit code run_end is written with, in the chosen version', async (t) => {
  const cancelled = [
    { type: 'error', code: 'cancelled', message: 'Cancelled by SIGTERM.', recoverable: true },
    { type: 'run_end', status: 'error', exitCode: 143 },
  ];
  const codes: number[] = [];
  await through(stamp({ onRunEnd: (code) => codes.push(code) }), cancelled);
  await through(stamp({ schemaVersion: 2, onRunEnd: (code) => codes.push(code) }), cancelled);
  t.same(codes, [143, 130]);
});
