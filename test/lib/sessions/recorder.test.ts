import t from 'tap';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { MAX_BACKLOG_CHARS, createRecorder } from '../../../lib/sessions/recorder.js';
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
  t.match(meta, { id: start.sessionId!, title: 'Use [REDACTED] please', eventCount: 102 });
  const events = readFileSync(join(root, start.sessionId!, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  t.same(events[0], { schemaVersion: 1, type: 'prompt', content: 'Use [REDACTED] please' });
  t.equal(events.length, 102);
  await t.resolves(lockSession(await openSession(root, start.sessionId!)), 'the lock was released');
});

t.test('a prompt with images is recorded as a version 2 message, and a resumed session sends them again', async (t) => {
  const root = t.testdir({});
  const images = [{ mediaType: 'image/png' as const, data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' }];
  const first = createRecorder({ root, plan: { kind: 'new' }, ...base });
  const { sessionId } = await first.begin('', images);
  first.record(stamped('final', { text: 'A pixel.' }));
  await first.finish();
  const [stored] = await readAllEvents(await openSession(root, sessionId!));
  t.same(stored, { schemaVersion: 2, type: 'message', role: 'user', content: '', images });
  t.match((await listSessions(root))[0], { title: '(1 image)' }, 'a prompt of images alone is titled by them');

  const session = await openSession(root, sessionId!);
  await lockSession(session);
  const resumed = createRecorder({ root, plan: { kind: 'resume', session }, ...base });
  t.same((await resumed.begin('And now?')).history, [
    { role: 'user', content: '', images },
    { role: 'assistant', content: 'A pixel.', toolCalls: [] },
  ]);
  await resumed.finish();
});

t.test('resume: the earlier conversation comes back; fork: a new session with a copy', async (t) => {
  const root = t.testdir({});
  const first = createRecorder({ root, plan: { kind: 'new' }, ...base });
  const { sessionId } = await first.begin('first question');
  first.record(stamped('text', { delta: 'first answer' }));
  first.record(stamped('final', { text: 'first answer' }));
  await first.finish();

  const session = await openSession(root, sessionId!);
  await lockSession(session);
  const resumed = createRecorder({ root, plan: { kind: 'resume', session }, ...base });
  const again = await resumed.begin('second question');
  t.equal(again.sessionId, sessionId);
  t.same(again.history, [
    { role: 'user', content: 'first question' },
    { role: 'assistant', content: 'first answer', toolCalls: [] },
  ]);
  await resumed.finish();

  const forked = createRecorder({ root, plan: { kind: 'fork', parentId: sessionId! }, ...base });
  const fork = await forked.begin('third question');
  t.not(fork.sessionId, sessionId);
  t.equal(fork.history.length, 3, 'both earlier prompts and the answer');
  await forked.finish();
  t.equal((await readAllEvents(await openSession(root, sessionId!))).length, 4, 'the parent only has its own two runs');
});

t.test('a history over the budget is trimmed from the oldest end, with a warning', async (t) => {
  const root = t.testdir({});
  const first = createRecorder({ root, plan: { kind: 'new' }, ...base });
  const { sessionId } = await first.begin('old '.repeat(100));
  first.record(stamped('final', { text: 'old answer' }));
  await first.finish();
  const session = await openSession(root, sessionId!);
  await lockSession(session);
  const resumed = createRecorder({ root, plan: { kind: 'resume', session }, ...base, maxContextChars: 100 });
  const start = await resumed.begin('new');
  t.same(start.history, []);
  t.match(start.warnings, [/--max-context-chars \(100\)/]);
  await resumed.finish();
});

/** The lines of a session's events.jsonl, polled until `done` holds (bounded: a generous 10 s for a busy machine). */
async function linesWhen(file: string, done: (lines: Record<string, unknown>[]) => boolean): Promise<Record<string, unknown>[]> {
  let lines: Record<string, unknown>[] = [];
  for (let waited = 0; waited < 10_000; waited += 10) {
    lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
    if (done(lines)) break;
    await setTimeout(10);
  }
  return lines;
}

t.test('events reach events.jsonl as the run goes, not only at its end', async (t) => {
  const root = t.testdir({});
  const recorder = createRecorder({ root, plan: { kind: 'new' }, ...base });
  const { sessionId } = await recorder.begin('Run it');
  const file = join(root, sessionId!, 'events.jsonl');
  recorder.record(stamped('text', { delta: 'Running.' }));
  t.same((await linesWhen(file, (lines) => lines.length === 2)).map((line) => line.type), ['prompt', 'text'], 'a delta, after a short delay');
  recorder.record(stamped('text', { delta: 'Now:' }));
  recorder.record(stamped('tool_call', { id: 'c1', name: 'bash', args: { command: 'sleep 60' } }));
  t.same((await linesWhen(file, (lines) => lines.length === 4)).map((line) => line.type), ['prompt', 'text', 'text', 'tool_call'], 'a tool call, in order');
  t.equal((await openSession(root, sessionId!)).metadata.eventCount, 1, 'metadata.json waits for the end');
  recorder.record(stamped('tool_result', { id: 'c1', status: 'success', output: '' }));
  recorder.record(stamped('run_end', { status: 'success', exitCode: 0 }));
  await recorder.finish();
  t.equal((await openSession(root, sessionId!)).metadata.eventCount, 6, 'written at the end');
});

t.test('an append that fails stops the recording, not the run: one warning says why, and the session is still released', async (t) => {
  const root = t.testdir({});
  const recorder = createRecorder({ root, plan: { kind: 'new' }, ...base });
  const { sessionId } = await recorder.begin('Run it');
  rmSync(join(root, sessionId!, 'events.jsonl'));
  mkdirSync(join(root, sessionId!, 'events.jsonl'));
  recorder.record(stamped('tool_call', { id: 'c1', name: 'bash', args: {} }));
  recorder.record(stamped('run_end', { status: 'success', exitCode: 0 }));
  await recorder.finish();
  t.match(recorder.takeWarning(), new RegExp(`^The session ${sessionId} could not be written: EISDIR`));
  t.equal(recorder.takeWarning(), undefined, 'said once');
  t.notOk(existsSync(join(root, sessionId!, 'lock')), 'unlocked');
});

t.test("an image's data holding the base64 of a credential in use is redacted before it is stored", async (t) => {
  const root = t.testdir({});
  const key = 'zk4821Qm7TfRp2LxWc9VabcDEF123';
  // six bytes before the key: its own base64 is in the image's, as it is
  const data = Buffer.from(`PNGHDR${key}IEND`).toString('base64');
  t.ok(data.includes(Buffer.from(key).toString('base64').slice(0, 20)));
  const recorder = createRecorder({ root, plan: { kind: 'new' }, ...base, secrets: [key] });
  const { sessionId } = await recorder.begin('Look at this.', [{ mediaType: 'image/png', data }]);
  await recorder.finish();
  const stored = readFileSync(join(root, sessionId!, 'events.jsonl'), 'utf8');
  t.notOk(stored.includes(Buffer.from(key).toString('base64').slice(0, 20)), 'not its base64 form');
  t.match(JSON.parse(stored.split('\n')[0]!), { type: 'message', images: [{ mediaType: 'image/png', data: /\[REDACTED\]/ }] });
});

t.test('more than MAX_BACKLOG_CHARS waiting for the disk: record asks the caller to wait until it is written', async (t) => {
  const root = t.testdir({});
  const recorder = createRecorder({ root, plan: { kind: 'new' }, ...base });
  const { sessionId } = await recorder.begin('Write a lot.');
  const delta = 'x'.repeat(1 << 20);
  const waits: number[] = [];
  for (let index = 0; index < (MAX_BACKLOG_CHARS >> 20) * 2; index++) {
    const backlog = recorder.record(stamped('text', { delta }));
    if (!backlog) continue;
    waits.push(index);
    await backlog;
    const lines = readFileSync(join(root, sessionId!, 'events.jsonl'), 'utf8').trim().split('\n');
    t.equal(lines.length, index + 2, 'once it resolves, every event recorded is in events.jsonl');
  }
  t.ok(waits.length >= 1, 'the caller was asked to wait');
  t.ok(waits[0]! <= MAX_BACKLOG_CHARS >> 20, 'as soon as the backlog passed the bound');
  t.equal(recorder.record(stamped('warning', { message: 'small' })), undefined, 'a small event below the bound goes on at once');
  await recorder.finish();
});
