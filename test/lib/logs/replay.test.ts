import t from 'tap';
import { createReplayRedactor, createRunPicker } from '../../../lib/logs/replay.js';
import type { OutputEvent } from '../../../lib/protocol/types.js';
import type { LogItem } from '../../../lib/logs/framing.js';
import { applyStep } from '../../../lib/streams.js';

const e = (runId: string, type: string, lineNo = 1): LogItem => ({ lineNo, value: { runId, type, ...(type === 'run_end' ? { exitCode: 3 } : {}) } });

t.test('the picker: the first run, or the one asked for; stops at its run_end', async (t) => {
  const items = [e('a', 'run_start'), e('a', 'run_end'), e('b', 'run_start'), e('b', 'text'), e('b', 'run_end'), { lineNo: 9, raw: 'junk', problem: 'not a JSON object' }];
  const first = createRunPicker();
  t.equal(applyStep(first, items).length, 2);
  t.equal(first.pick.chosen, 'a');
  t.equal(first.pick.exitCode, 3);
  t.equal(applyStep(createRunPicker('b'), items).length, 3);
});

t.test('the picker: the run\'s schema version, from its first line with version 1 or 2', async (t) => {
  const v = (runId: string, schemaVersion: unknown, type = 'text'): LogItem => ({ lineNo: 1, value: { schemaVersion, runId, type } });
  const picked = createRunPicker('b');
  applyStep(picked, [v('a', 1, 'run_start'), v('b', 3, 'run_start'), v('b', 2), v('b', 1, 'run_end')]);
  t.equal(picked.pick.schemaVersion, 2, 'not the other run\'s, nor a version zero does not speak');
  const none = createRunPicker();
  t.throws(() => applyStep(none, [v('a', '2', 'run_start')]));
  t.equal(none.pick.schemaVersion, undefined);
});

t.test('the picker: errors', async (t) => {
  t.throws(() => applyStep(createRunPicker(), [e('a', 'run_start')]), /no run_end/);
  t.throws(() => applyStep(createRunPicker('z'), [e('a', 'run_start')]), /No run z/);
  t.throws(() => applyStep(createRunPicker(), []), /No recorded run/);
  t.throws(() => applyStep(createRunPicker(), [e('a', 'run_start'), { lineNo: 2, raw: 'x', problem: 'not a JSON object' }]), /line 2/);
});

t.test('the picker: a session file\'s stored prompts belong to no run and are skipped', async (t) => {
  const prompt = (lineNo: number): LogItem => ({ lineNo, value: { schemaVersion: 1, type: 'prompt', content: 'Hi' } });
  const first = createRunPicker();
  t.same(applyStep(first, [prompt(1), e('a', 'run_start', 2), e('a', 'run_end', 3), prompt(4), e('b', 'run_start', 5), e('b', 'run_end', 6)]).map((item) => item.lineNo), [2, 3]);
  t.equal(first.pick.chosen, 'a');
  t.same(applyStep(createRunPicker('b'), [prompt(1), e('a', 'run_start', 2), e('a', 'run_end', 3), prompt(4), e('b', 'run_start', 5), e('b', 'run_end', 6)]).map((item) => item.lineNo), [5, 6]);
});

t.test('the picker: a recorded exit code no process can have is 1', async (t) => {
  for (const exitCode of [Infinity, 256, -1, 2.5]) {
    const picker = createRunPicker();
    applyStep(picker, [{ lineNo: 1, value: { runId: 'a', type: 'run_start' } }, { lineNo: 2, value: { runId: 'a', type: 'run_end', status: 'error', exitCode } }]);
    t.equal(picker.pick.exitCode, 1, String(exitCode));
  }
  const fine = createRunPicker();
  applyStep(fine, [{ lineNo: 1, value: { runId: 'a', type: 'run_end', exitCode: 130 } }]);
  t.equal(fine.pick.exitCode, 130);
});

const KEY = 'sk-ant-api03-' + 'U5q8fC_IrBOYo-HkFQaSuc5Rgocd1W61iOEH7p3XXS1BuE2Pn3lB8IcjmCF0UMSj98aka2eKs9cMMCv1u5tig_KpIZoacAA';
const ev = (type: string, fields: Record<string, unknown>) => ({ schemaVersion: 2, type, runId: 'run_20260101000000_aaaaaa', ...fields }) as unknown as OutputEvent;
const replayed = (events: OutputEvent[]) => applyStep(createReplayRedactor(), events) as Array<Record<string, unknown>>;

t.test('the replay redactor: a secret split across recorded deltas is redacted whole, across a usage or the other kind too', async (t) => {
  const middles = [[], [ev('usage', { promptTokens: 1, completionTokens: 1, totalTokens: 2 })], [ev('reasoning', { delta: 'hmm' })]];
  for (const middle of middles) {
    const out = replayed([ev('text', { delta: `Your key is ${KEY.slice(0, 18)}` }), ...middle, ev('text', { delta: `${KEY.slice(18)} ok` }), ev('final', { text: 'x' })]);
    t.notMatch(JSON.stringify(out), KEY.slice(10, 18));
    t.notMatch(JSON.stringify(out), KEY.slice(18, 30));
    t.equal(out.filter((e) => e.type === 'text').map((e) => e.delta).join(''), 'Your key is [REDACTED] ok');
    t.same(out.map((e) => e.type).filter((type) => type !== 'text'), [...middle.map((e) => e.type), 'final'], 'every other event, the final last');
  }
});

t.test('the replay redactor: a clean run\'s deltas as they were recorded, each the very event', async (t) => {
  const events = [ev('reasoning', { delta: 'Think ' }), ev('text', { delta: 'Hel' }), ev('usage', { promptTokens: 1, completionTokens: 1, totalTokens: 2 }), ev('text', { delta: 'lo, tok' }), ev('text', { delta: 'en count: 3' }), ev('final', { text: 'Hello, token count: 3' })];
  const out = replayed(events);
  t.equal(out.length, events.length);
  out.forEach((event, n) => t.equal(event, events[n], `event ${n} as recorded`));
});
