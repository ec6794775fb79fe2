import t from 'tap';
import { stamp } from '../../transforms/stamp.js';
import { RUN_ID_PATTERN } from '../../lib/protocol/ids.js';
import { through } from '../helpers/streams.js';

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

t.test('an event stamped before gets the new run id', async (t) => {
  const [event] = await through<Record<string, unknown>>(stamp({ runId: 'run_20260101000000_newnew' }), [
    { schemaVersion: 1, type: 'final', runId: 'run_20250101000000_oldold', text: '' },
  ]);
  t.same(event, { schemaVersion: 1, type: 'final', runId: 'run_20260101000000_newnew', text: '' });
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
