import { existsSync } from 'node:fs';
import t from 'tap';
import { UsageError } from '../../../lib/errors.js';
import { pruneSessions, removeSession } from '../../../lib/sessions/remove.js';
import { listSessions } from '../../../lib/sessions/catalog.js';
import { createSession, openSession, unlockSession, type Session } from '../../../lib/sessions/store.js';

async function made(root: string, now: Date, release = true): Promise<Session> {
  const session = await createSession({ root, cwd: root, provider: 'scripted', model: 'scripted', prompt: 'hi', now });
  if (release) await unlockSession(session);
  return session;
}

t.test('removeSession deletes the folder; the id is unknown afterwards', async (t) => {
  const root = t.testdir({});
  const session = await made(root, new Date());
  await removeSession(root, session.id);
  t.notOk(existsSync(session.dir));
  await t.rejects(openSession(root, session.id), /Zero session not found/);
});

t.test('removeSession refuses a session a run holds, and an unknown id, removing nothing', async (t) => {
  const root = t.testdir({});
  const held = await made(root, new Date(), false);
  await t.rejects(removeSession(root, held.id), UsageError);
  t.ok(existsSync(held.dir));
  await t.rejects(removeSession(root, 'zero_20200101000000_aaaaaa'), /Zero session not found/);
  await unlockSession(held);
});

t.test('pruneSessions removes the sessions last updated before the date, and names those in use', async (t) => {
  const root = t.testdir({});
  const old = await made(root, new Date('2020-01-01T00:00:00Z'));
  const oldHeld = await made(root, new Date('2020-01-02T00:00:00Z'), false);
  const recent = await made(root, new Date());
  const report = await pruneSessions(root, new Date('2021-01-01T00:00:00Z'));
  t.same(report, { removed: [old.id], inUse: [oldHeld.id] });
  t.same((await listSessions(root)).map((session) => session.id).sort(), [oldHeld.id, recent.id].sort());
  await unlockSession(oldHeld);
});
