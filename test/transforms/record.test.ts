import t from 'tap';
import { record } from '../../transforms/record.js';
import { through } from '../helpers/streams.js';
import type { SessionRecorder } from '../../lib/sessions/recorder.js';
import type { TextSpool } from '../../lib/files/text-spool.js';
import { CancelledError } from '../../lib/errors.js';

t.test('events pass through unchanged and are recorded; run_end waits until the session has them', async (t) => {
  const log: string[] = [];
  const recorder: SessionRecorder = {
    begin: async () => ({ sessionId: 'zero_20261130000000_aaaaaa', history: [], warnings: [] }),
    record: (event) => void log.push(`record ${(event as { type: string }).type}`),
    finish: async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      log.push('finished');
    },
    takeWarning: () => undefined,
    written: async () => {},
  };
  const stage = record(recorder);
  const events = [{ type: 'text', delta: 'hi' }, { type: 'run_end', status: 'success', exitCode: 0 }];
  stage.on('data', (event: { type: string }) => log.push(`out ${event.type}`));
  t.same(await through(stage, events), events, 'unchanged');
  t.same(log.filter((line) => line.startsWith('record')), ['record text', 'record run_end']);
  t.same(log.slice(-2), ['finished', 'out run_end'], 'run_end only once the session has everything');
});

t.test('a recorder that fails fails the stage', async (t) => {
  const recorder: SessionRecorder = {
    begin: async () => ({ sessionId: 'x', history: [], warnings: [] }),
    record: () => {},
    finish: async () => {
      throw new Error('disk full');
    },
    takeWarning: () => undefined,
    written: async () => {},
  };
  await t.rejects(through(record(recorder), [{ type: 'run_end', status: 'success', exitCode: 0 }]), { message: 'disk full' });
});

t.test('an event its version lacks (version 1 reasoning, kept for the text format) passes on but is not recorded', async (t) => {
  const recorded: string[] = [];
  const recorder: SessionRecorder = { begin: async () => ({ sessionId: 'x', history: [], warnings: [] }), record: (event) => void recorded.push((event as { type: string }).type), finish: async () => {}, takeWarning: () => undefined, written: async () => {} };
  const runId = 'run_20261201000000_abcdef';
  const events = [
    { schemaVersion: 1, type: 'reasoning', runId, delta: 'hm' },
    { schemaVersion: 1, type: 'text', runId, delta: 'hi' },
    { schemaVersion: 2, type: 'reasoning', runId, delta: 'hm' },
  ];
  t.same(await through(record(recorder), events), events);
  t.same(recorded, ['text', 'reasoning'], 'version 2 reasoning is recorded, version 1 reasoning is not');
});

t.test('a session that could not be written: its warning goes out once, stamped like the run, before the next event', async (t) => {
  let failed = false;
  const recorder: SessionRecorder = {
    begin: async () => ({ sessionId: 'x', history: [], warnings: [] }),
    record: () => void (failed = true),
    finish: async () => {},
    takeWarning: () => (failed ? ((failed = false), 'The session x could not be written: the disk is full (ENOSPC).') : undefined),
    written: async () => {},
  };
  const runId = 'run_20261201000000_abcdef';
  const text = { schemaVersion: 2, type: 'text', runId, delta: 'hi' };
  const end = { schemaVersion: 2, type: 'run_end', runId, status: 'success', exitCode: 0 };
  const warning = { schemaVersion: 2, type: 'warning', runId, message: 'The session x could not be written: the disk is full (ENOSPC).' };
  t.same(await through(record(recorder), [text, end]), [warning, text, warning, end]);
});

t.test('while the recorder is behind the disk, the event waits for it before it goes on', async (t) => {
  const log: string[] = [];
  const recorder: SessionRecorder = {
    begin: async () => ({ sessionId: 'x', history: [], warnings: [] }),
    record: (event) => {
      if ((event as { delta?: string }).delta !== 'big') return;
      return new Promise<void>((resolve) => setTimeout(resolve, 20)).then(() => void log.push('written'));
    },
    finish: async () => {},
    takeWarning: () => undefined,
    written: async () => {},
  };
  const stage = record(recorder);
  stage.on('data', (event: { delta?: string }) => log.push(`out ${event.delta}`));
  await through(stage, [{ type: 'text', delta: 'big' }, { type: 'text', delta: 'small' }]);
  t.same(log, ['written', 'out big', 'out small']);
});

t.test('a spooled final the journal stores (-o text): a signal that cut it there ends the run cancelled, in the session and the output', async (t) => {
  const runId = 'run_20261206000000_abcdef';
  const spoolMade = (whole: boolean) => ({ whole }) as unknown as TextSpool;
  const run = async (whole: boolean, aborted: boolean) => {
    const log: string[] = [];
    const recorder: SessionRecorder = {
      begin: async () => ({ sessionId: 'x', history: [], warnings: [] }),
      record: (event) => void log.push(`record ${(event as { type: string }).type}`),
      written: async () => void log.push('written'),
      finish: async () => void log.push('finished'),
      takeWarning: () => undefined,
    };
    const controller = new AbortController();
    if (aborted) controller.abort(new CancelledError('SIGINT'));
    const exitCodes: number[] = [];
    const final = { schemaVersion: 1, type: 'final', runId, text: '', spool: spoolMade(whole) };
    const end = { schemaVersion: 1, type: 'run_end', runId, status: 'success', exitCode: 0 };
    const out = await through(record(recorder, { signal: controller.signal, onRunEnd: (code) => exitCodes.push(code) }), [final, end]);
    return { log, out, exitCodes };
  };
  const cut = await run(false, true);
  t.same(cut.out.slice(1), [
    { schemaVersion: 1, type: 'error', runId, code: 'cancelled', message: 'Cancelled by SIGINT.', recoverable: true },
    { schemaVersion: 1, type: 'run_end', runId, status: 'error', exitCode: 130 },
  ], 'as the stamp stage writes a cancelled run in its version');
  t.same(cut.exitCodes, [130], 'the exit code told');
  t.same(cut.log, ['record final', 'written', 'record error', 'record run_end', 'finished'], 'the final stored before the ending is chosen, and the ending stored');
  for (const [whole, aborted] of [[true, true], [false, false]] as const) {
    const kept = await run(whole, aborted);
    t.same(kept.out.map((event) => (event as { type: string }).type), ['final', 'run_end'], `a final ${whole ? 'whole' : 'cut'} and a signal ${aborted ? 'given' : 'not given'}: the run_end as it came`);
    t.same(kept.exitCodes, []);
  }
});
