import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRecorder } from '../../../lib/sessions/recorder.js';
import { listSessions, lockSession, openSession, readAllEvents } from '../../../lib/sessions/index.js';

const base = { cwd: '/repo', provider: 'scripted', model: 'scripted' };
const stamped = (type: string, fields: object = {}) => ({ schemaVersion: 1, type, runId: 'run_20261130000000_aaaaaa', ...fields });

t.test('a new session: the redacted prompt, then the recorded events, then unlocked', async (t) => {
  const root = t.testdir({});
  const recorder = createRecorder({ root, plan: { kind: 'new' }, ...base, secrets: ['credential-in-use-123'] });
  recorder.record(stamped('text', { delta: 'ignored: no session yet' }));
  const start = await recorder.begin('Use credential-in-use-123 please');
  t.same(start.history, []);
  t.same(start.warnings, []);
  for (let i = 0; i < 100; i++) recorder.record(stamped('text', { delta: `d${i}` }));
  recorder.record(stamped('run_end', { status: 'success', exitCode: 0 }));
  await recorder.finish();
  const [meta] = await listSessions(root);
  t.match(meta, { id: start.sessionId, title: 'Use [REDACTED] please', eventCount: 102 });
  const events = readFileSync(join(root, start.sessionId, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  t.same(events[0], { schemaVersion: 1, type: 'prompt', content: 'Use [REDACTED] please' });
  t.equal(events.length, 102);
  await t.resolves(lockSession(await openSession(root, start.sessionId)), 'the lock was released');
});

t.test('resume: the earlier conversation comes back; fork: a new session with a copy', async (t) => {
  const root = t.testdir({});
  const first = createRecorder({ root, plan: { kind: 'new' }, ...base });
  const { sessionId } = await first.begin('first question');
  first.record(stamped('text', { delta: 'first answer' }));
  first.record(stamped('final', { text: 'first answer' }));
  await first.finish();

  const session = await openSession(root, sessionId);
  await lockSession(session);
  const resumed = createRecorder({ root, plan: { kind: 'resume', session }, ...base });
  const again = await resumed.begin('second question');
  t.equal(again.sessionId, sessionId);
  t.same(again.history, [
    { role: 'user', content: 'first question' },
    { role: 'assistant', content: 'first answer', toolCalls: [] },
  ]);
  await resumed.finish();

  const forked = createRecorder({ root, plan: { kind: 'fork', parentId: sessionId }, ...base });
  const fork = await forked.begin('third question');
  t.not(fork.sessionId, sessionId);
  t.equal(fork.history.length, 3, 'both earlier prompts and the answer');
  await forked.finish();
  t.equal((await readAllEvents(await openSession(root, sessionId))).length, 4, 'the parent only has its own two runs');
});

t.test('a history over the budget is trimmed from the oldest end, with a warning', async (t) => {
  const root = t.testdir({});
  const first = createRecorder({ root, plan: { kind: 'new' }, ...base });
  const { sessionId } = await first.begin('old '.repeat(100));
  first.record(stamped('final', { text: 'old answer' }));
  await first.finish();
  const session = await openSession(root, sessionId);
  await lockSession(session);
  const resumed = createRecorder({ root, plan: { kind: 'resume', session }, ...base, maxContextChars: 100 });
  const start = await resumed.begin('new');
  t.same(start.history, []);
  t.match(start.warnings, [/--max-context-chars \(100\)/]);
  await resumed.finish();
});
