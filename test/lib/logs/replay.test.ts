import t from 'tap';
import { Readable } from 'node:stream';
import { pace, pickRun } from '../../../lib/logs/replay.js';
import type { LogItem } from '../../../lib/logs/framing.js';

const e = (runId: string, type: string, lineNo = 1): LogItem => ({ lineNo, value: { runId, type, ...(type === 'run_end' ? { exitCode: 3 } : {}) } });

async function collect(stream: NodeJS.ReadableStream): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

t.test('pickRun: the first run, or the one asked for; stops at its run_end', async (t) => {
  const items = [e('a', 'run_start'), e('a', 'run_end'), e('b', 'run_start'), e('b', 'text'), e('b', 'run_end'), { lineNo: 9, raw: 'junk', problem: 'not a JSON object' }];
  const first = pickRun();
  t.equal((await collect(Readable.from(items).pipe(first.stream))).length, 2);
  t.equal(first.pick.chosen, 'a');
  t.equal(first.pick.exitCode, 3);
  const second = pickRun('b');
  t.equal((await collect(Readable.from(items).pipe(second.stream))).length, 3);
});

t.test('pickRun: the run\'s schema version, from its first line with version 1 or 2', async (t) => {
  const v = (runId: string, schemaVersion: unknown, type = 'text'): LogItem => ({ lineNo: 1, value: { schemaVersion, runId, type } });
  const picked = pickRun('b');
  await collect(Readable.from([v('a', 1, 'run_start'), v('b', 3, 'run_start'), v('b', 2), v('b', 1, 'run_end')]).pipe(picked.stream));
  t.equal(picked.pick.schemaVersion, 2, 'not the other run\'s, nor a version zero does not speak');
  const none = pickRun();
  await t.rejects(collect(Readable.from([v('a', '2', 'run_start')]).pipe(none.stream)));
  t.equal(none.pick.schemaVersion, undefined);
});

t.test('pickRun: errors', async (t) => {
  await t.rejects(collect(Readable.from([e('a', 'run_start')]).pipe(pickRun().stream)), /no run_end/);
  await t.rejects(collect(Readable.from([e('a', 'run_start')]).pipe(pickRun('z').stream)), /No run z/);
  await t.rejects(collect(Readable.from([]).pipe(pickRun().stream)), /No recorded run/);
  await t.rejects(collect(Readable.from([e('a', 'run_start'), { lineNo: 2, raw: 'x', problem: 'not a JSON object' }]).pipe(pickRun().stream)), /line 2/);
});

t.test('pace', async (t) => {
  const started = Date.now();
  t.same(await collect(Readable.from([1, 2, 3]).pipe(pace(20))), [1, 2, 3]);
  t.ok(Date.now() - started >= 40);
});
