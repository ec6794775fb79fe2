import t from 'tap';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { listSessions } from '../../../lib/sessions/catalog.js';
import { appendEvents, createSession, promptEvent, type Session } from '../../../lib/sessions/store.js';

const at = (iso: string) => new Date(iso);

function create(root: string, options: { prompt: string; now: Date }): Promise<Session> {
  return createSession({ root, cwd: '/work', provider: 'scripted', model: 'scripted-model', prompt: options.prompt, now: options.now });
}

const exists = (path: string) => access(path).then(() => true, () => false);

t.test('list: newest first, unreadable folders skipped; a missing root lists nothing', async (t) => {
  const root = t.testdir({
    zero_20240101000000_broken: { 'metadata.json': 'not json' },
    zero_20240101000000_nometa: {},
    zero_20240101000000_wrongid: { 'metadata.json': JSON.stringify({ id: 'zero_20240101000000_other1' }) },
    'not-a-session': { 'metadata.json': '{}' },
    zero_20240101000000_isfile: 'a file, not a folder',
  });
  const old = await create(root, { prompt: 'old', now: at('2024-01-01T00:00:00Z') });
  await create(root, { prompt: 'mid', now: at('2024-01-02T00:00:00Z') });
  await create(root, { prompt: 'young', now: at('2024-01-03T00:00:00Z') });
  await appendEvents(old, [promptEvent('old again')], { now: at('2024-01-04T00:00:00Z') });
  t.same((await listSessions(root)).map((m) => m.title), ['old', 'young', 'mid']);
  t.same((await listSessions(root))[0], old.metadata);
  const missing = join(root, 'missing');
  t.same(await listSessions(missing), []);
  t.notOk(await exists(missing));
  t.same(await listSessions(join(root, 'zero_20240101000000_isfile')), []);
});

t.test('list: equal times fall back to the newest creation, then the id', async (t) => {
  const root = t.testdir({});
  const a = await create(root, { prompt: 'a', now: at('2024-01-01T00:00:00Z') });
  const b = await create(root, { prompt: 'b', now: at('2024-01-02T00:00:00Z') });
  await appendEvents(a, [{}], { now: at('2024-01-05T00:00:00Z') });
  await appendEvents(b, [{}], { now: at('2024-01-05T00:00:00Z') });
  t.same((await listSessions(root)).map((m) => m.title), ['b', 'a']);
});
