import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, appendFile, chmod, mkdir, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../../lib/errors.js';
import { SESSION_ID_PATTERN } from '../../../lib/protocol/ids.js';
import {
  appendEvents,
  createSession,
  eventsPath,
  forkSession,
  latestSessionFor,
  lockSession,
  openSession,
  prepareStore,
  promptEvent,
  readAllEvents,
  readEvents,
  syncSession,
  unlockSession,
  type Session,
} from '../../../lib/sessions/store.js';
import { listSessions } from '../../../lib/sessions/catalog.js';
import { startTimeOf } from '../../../lib/sessions/lock.js';

/** What a lock this process holds reads. */
const ourLock = `${process.pid} ${startTimeOf(process.pid)}\n`;

const runEvents = [
  { schemaVersion: 1, type: 'run_start', runId: 'run_20240102030405_aaaaaa', sessionId: 'x', cwd: '/work', provider: 'scripted', model: 'scripted' },
  { schemaVersion: 1, type: 'text', runId: 'run_20240102030405_aaaaaa', delta: 'Hello.' },
  { schemaVersion: 1, type: 'final', runId: 'run_20240102030405_aaaaaa', text: 'Hello.' },
  { schemaVersion: 1, type: 'run_end', runId: 'run_20240102030405_aaaaaa', status: 'success', exitCode: 0 },
];

const at = (iso: string) => new Date(iso);

async function create(root: string, options: { cwd?: string; prompt?: string; now?: Date } = {}): Promise<Session> {
  return createSession({ root, cwd: options.cwd ?? '/work', provider: 'scripted', model: 'scripted-model', prompt: options.prompt ?? 'Inspect this repo.', now: options.now });
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

t.test('create: a folder named by a new id, metadata, an empty journal, and the lock held', async (t) => {
  const root = join(t.testdir({}), 'deep', 'sessions');
  const session = await create(root, { prompt: '  Inspect\n this   repo, please. ', now: at('2024-01-02T03:04:05.678Z') });
  t.match(session.id, SESSION_ID_PATTERN);
  t.match(session.id, /^zero_20240102030405_/);
  t.equal(session.dir, join(root, session.id));
  t.same((await readdir(session.dir)).sort(), ['events.jsonl', 'lock', 'metadata.json']);
  t.equal(await readFile(eventsPath(session), 'utf8'), '');
  const expected = {
    id: session.id,
    title: 'Inspect this repo, please.',
    cwd: '/work',
    provider: 'scripted',
    model: 'scripted-model',
    createdAt: '2024-01-02T03:04:05.678Z',
    updatedAt: '2024-01-02T03:04:05.678Z',
    eventCount: 0,
  };
  t.same(JSON.parse(await readFile(join(session.dir, 'metadata.json'), 'utf8')), expected);
  t.same(session.metadata, expected);
  t.equal(await readFile(join(session.dir, 'lock'), 'utf8'), ourLock);
  await unlockSession(session);
  t.notOk(await exists(join(session.dir, 'lock')));
});

t.test('create with a chosen id, title and tags (--init-session-id, --session-title, --tag); a taken id is a usage error', async (t) => {
  const root = t.testdir({});
  const session = await createSession({ root, cwd: '/work', provider: 'scripted', model: 'm', prompt: 'Inspect this repo.', id: 'ci-4711', title: 'Nightly', tags: ['ci'] });
  t.same([session.id, session.dir], ['ci-4711', join(root, 'ci-4711')]);
  t.match(JSON.parse(await readFile(join(root, 'ci-4711', 'metadata.json'), 'utf8')), { id: 'ci-4711', title: 'Nightly', tags: ['ci'] });
  await unlockSession(session);
  t.match((await openSession(root, 'ci-4711')).metadata, { title: 'Nightly', tags: ['ci'] });
  await t.rejects(createSession({ root, cwd: '/work', provider: 'scripted', model: 'm', prompt: 'again', id: 'ci-4711' }), new UsageError('Zero session already exists: ci-4711'));
  const fork = await forkSession(root, 'ci-4711', { id: 'ci-4712' });
  t.match(fork.metadata, { id: 'ci-4712', title: 'Nightly', tags: ['ci'], parentId: 'ci-4711' }, "a fork keeps the parent's title and tags unless given its own");
  await unlockSession(fork);
  const renamed = await forkSession(root, 'ci-4711', { title: 'Other', tags: ['x'] });
  t.match(renamed.metadata, { title: 'Other', tags: ['x'] });
  await unlockSession(renamed);
  await t.rejects(forkSession(root, 'ci-4711', { id: 'ci-4712' }), new UsageError('Zero session already exists: ci-4712'));
});

t.test('two sessions created in the same second get different ids', async (t) => {
  const root = t.testdir({});
  const now = at('2024-01-02T03:04:05Z');
  const sessions = await Promise.all(Array.from({ length: 10 }, () => create(root, { now })));
  t.equal(new Set(sessions.map((s) => s.id)).size, 10);
});

t.test('append and read back: prompt and events as given, metadata counted and touched', async (t) => {
  const root = t.testdir({});
  const session = await create(root, { now: at('2024-01-02T03:04:05Z') });
  await appendEvents(session, [promptEvent('Inspect this repo.')], { now: at('2024-01-02T03:04:06Z') });
  await appendEvents(session, runEvents, { now: at('2024-01-02T03:04:07Z') });
  const lines = (await readFile(eventsPath(session), 'utf8')).split('\n');
  t.equal(lines[0], '{"schemaVersion":1,"type":"prompt","content":"Inspect this repo."}');
  t.equal(lines.length, 6, 'five lines, each ending with a newline');
  t.same(await readAllEvents(session), [promptEvent('Inspect this repo.'), ...runEvents]);
  t.match(session.metadata, { eventCount: 5, updatedAt: '2024-01-02T03:04:07.000Z', createdAt: '2024-01-02T03:04:05.000Z' });
  const reopened = await openSession(root, session.id);
  t.same(reopened.metadata, session.metadata);
  const streamed = [];
  for await (const event of readEvents(reopened)) streamed.push(event);
  t.equal(streamed.length, 5);
});

t.test('appends through one handle keep their call order', async (t) => {
  const session = await create(t.testdir({}));
  await Promise.all(Array.from({ length: 30 }, (_, i) => appendEvents(session, [{ i }])));
  t.same((await readAllEvents(session)).map((e) => e.i), [...Array(30).keys()]);
  t.equal(session.metadata.eventCount, 30);
  t.equal((await openSession(session.root, session.id)).metadata.eventCount, 30);
});

t.test('appends happen only under the lock', async (t) => {
  const root = t.testdir({});
  const session = await create(root);
  await unlockSession(session);
  await t.rejects(appendEvents(session, [{ a: 1 }]), /must be locked/);
  const other = await openSession(root, session.id);
  await t.rejects(appendEvents(other, [{ a: 1 }]), /must be locked/);
  t.equal(await readFile(eventsPath(session), 'utf8'), '');
  await lockSession(other);
  await appendEvents(other, [{ a: 1 }]);
  t.same(await readAllEvents(other), [{ a: 1 }]);
  t.equal(await lockSession(other), await lockSession(other), 'locking a handle that holds the lock returns that lock');
  await unlockSession(other);
});

t.test('a failed append does not block the next one', async (t) => {
  const session = await create(t.testdir({}));
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  await t.rejects(appendEvents(session, [cyclic]));
  await appendEvents(session, [{ ok: true }]);
  t.same(await readAllEvents(session), [{ ok: true }]);
});

t.test('metadata is replaced atomically: always parses, no temporary file remains', async (t) => {
  const session = await create(t.testdir({}));
  let done = false;
  const reader = (async () => {
    let reads = 0;
    while (!done || reads === 0) {
      const metadata = JSON.parse(await readFile(join(session.dir, 'metadata.json'), 'utf8'));
      t.equal(metadata.id, session.id);
      reads++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return reads;
  })();
  for (let i = 0; i < 100; i++) await appendEvents(session, [{ type: 'text', delta: `d${i}` }]);
  done = true;
  t.ok((await reader) > 0);
  t.same((await readdir(session.dir)).sort(), ['events.jsonl', 'lock', 'metadata.json']);
  t.equal(JSON.parse(await readFile(join(session.dir, 'metadata.json'), 'utf8')).eventCount, 100);
});

t.test('open: an unknown id is a usage error', async (t) => {
  const root = t.testdir({ zero_20240102030405_nometa: {} });
  await t.rejects(openSession(root, 'zero_20240102030405_abcdef'), new UsageError('Zero session not found: zero_20240102030405_abcdef'));
  await t.rejects(openSession(root, 'zero_20240102030405_nometa'), new UsageError('Zero session not found: zero_20240102030405_nometa'), 'a folder without metadata is a session never finished');
  await t.rejects(openSession(join(root, 'missing'), 'zero_20240102030405_abcdef'), new UsageError('Zero session not found: zero_20240102030405_abcdef'));
});

t.test('open: unreadable metadata is a usage error saying so', async (t) => {
  const root = t.testdir({ zero_20240102030405_broken: { 'metadata.json': '{' } });
  await t.rejects(openSession(root, 'zero_20240102030405_broken'), { name: 'UsageError', message: /^Zero session zero_20240102030405_broken cannot be read: metadata.json is not valid JSON/ });
});

t.test('bad ids are refused before the disk is touched', async (t) => {
  const parent = t.testdir({ 'x': { 'metadata.json': '{}' } });
  const root = join(parent, 'never-created');
  for (const bad of ['../x', '/etc', 'a.b', '', `../${'zero_20240102030405_abcdef'}`]) {
    const message = `Invalid session id: ${JSON.stringify(bad)}`;
    await t.rejects(openSession(root, bad), new UsageError(message));
    await t.rejects(forkSession(root, bad, { cwd: '/work' }), new UsageError(message));
  }
  t.notOk(await exists(root), 'the root was never created');
  t.same(await readdir(parent), ['x']);
});

t.test('fork: a byte copy of the parent; the parent stays byte-identical', async (t) => {
  const root = t.testdir({});
  const parent = await create(root, { now: at('2024-01-02T03:04:05Z') });
  await appendEvents(parent, [promptEvent('Inspect this repo.'), ...runEvents], { now: at('2024-01-02T03:04:06Z') });
  await unlockSession(parent);
  const snapshot = async () => Object.fromEntries(await Promise.all((await readdir(parent.dir)).sort().map(async (name) => [name, await readFile(join(parent.dir, name))] as const)));
  const before = await snapshot();

  const fork = await forkSession(root, parent.id, { cwd: '/elsewhere', provider: 'openai', model: 'gpt-4.1', now: at('2024-01-03T00:00:00Z') });
  t.not(fork.id, parent.id);
  t.same(await readFile(eventsPath(fork)), await readFile(eventsPath(parent)));
  t.same(fork.metadata, {
    id: fork.id,
    title: 'Inspect this repo.',
    cwd: '/elsewhere',
    provider: 'openai',
    model: 'gpt-4.1',
    parentId: parent.id,
    forkedAt: 5,
    createdAt: '2024-01-03T00:00:00.000Z',
    updatedAt: '2024-01-03T00:00:00.000Z',
    eventCount: 5,
  });
  t.same(await snapshot(), before, 'parent unchanged by the fork');

  await appendEvents(fork, [promptEvent('And now?'), { type: 'final', text: 'ok' }]);
  t.same(await snapshot(), before, 'parent unchanged by appending to the fork');
  t.same(await readAllEvents(fork), [promptEvent('Inspect this repo.'), ...runEvents, promptEvent('And now?'), { type: 'final', text: 'ok' }]);
  t.equal(fork.metadata.eventCount, 7);
  t.equal(fork.metadata.forkedAt, 5);
  await unlockSession(fork);
  t.same((await openSession(root, fork.id)).metadata.parentId, parent.id);
});

t.test('fork: cwd, provider and model default to the parent\'s; a running parent can be forked', async (t) => {
  const root = t.testdir({});
  const parent = await create(root);
  await appendEvents(parent, [promptEvent('p')]);
  const fork = await forkSession(root, parent.id);
  t.match(fork.metadata, { cwd: '/work', provider: 'scripted', model: 'scripted-model', forkedAt: 1, eventCount: 1 });
  t.equal(await readFile(join(parent.dir, 'lock'), 'utf8'), ourLock, 'the parent is still locked by its run');
  t.equal(await readFile(join(fork.dir, 'lock'), 'utf8'), ourLock, 'the fork is returned locked');
});

t.test('fork: a torn last line of a parent being written is not carried on', async (t) => {
  const root = t.testdir({});
  const parent = await create(root);
  await appendEvents(parent, [promptEvent('p'), { type: 'text', delta: 'a' }]);
  await appendFile(eventsPath(parent), '{"type":"te');
  const parentBytes = await readFile(eventsPath(parent));
  const fork = await forkSession(root, parent.id);
  t.equal(fork.metadata.forkedAt, 2);
  t.equal(await readFile(eventsPath(fork), 'utf8'), '{"schemaVersion":1,"type":"prompt","content":"p"}\n{"type":"text","delta":"a"}\n');
  t.same(await readFile(eventsPath(parent)), parentBytes);
});

t.test('fork: an unknown parent is a usage error', async (t) => {
  const root = t.testdir({});
  await t.rejects(forkSession(root, 'zero_20240102030405_abcdef'), new UsageError('Zero session not found: zero_20240102030405_abcdef'));
  t.same(await readdir(root), []);
});

t.test('torn last line: ignored when reading, and a resume goes on after it', async (t) => {
  const root = t.testdir({});
  const session = await create(root);
  await appendEvents(session, [promptEvent('first'), ...runEvents]);
  await unlockSession(session);
  // The process was killed in the middle of its next write, before updating metadata.
  await appendFile(eventsPath(session), '{"schemaVersion":1,"type":"prompt","content":"sec');

  const resumed = await openSession(root, session.id);
  t.same(await readAllEvents(resumed), [promptEvent('first'), ...runEvents]);
  await lockSession(resumed);
  await appendEvents(resumed, [promptEvent('second')]);
  t.same(await readAllEvents(resumed), [promptEvent('first'), ...runEvents, promptEvent('second')]);
  t.equal(resumed.metadata.eventCount, 6);
  await unlockSession(resumed);
});

t.test('resume: an event count left short by a killed run is set right', async (t) => {
  const root = t.testdir({});
  const session = await create(root);
  await appendEvents(session, [promptEvent('first')]);
  await unlockSession(session);
  // Events written, metadata not: as if killed between the two.
  await appendFile(eventsPath(session), `${JSON.stringify(runEvents[0])}\n${JSON.stringify(runEvents[1])}`);
  const resumed = await openSession(root, session.id);
  t.equal(resumed.metadata.eventCount, 1);
  await lockSession(resumed);
  t.equal(resumed.metadata.eventCount, 3);
  t.equal((await openSession(root, session.id)).metadata.eventCount, 3);
  t.equal(await readFile(eventsPath(session), 'utf8'), [promptEvent('first'), runEvents[0], runEvents[1]].map((e) => `${JSON.stringify(e)}\n`).join(''));
  await unlockSession(resumed);
});

t.test('a torn line in the middle is skipped, reported with the session and the line', async (t) => {
  const root = t.testdir({});
  const session = await create(root);
  await appendEvents(session, [promptEvent('first')]);
  await appendFile(eventsPath(session), '{"type":"text","del\n');
  await appendEvents(session, [{ type: 'final', text: '' }]);
  const damaged: string[] = [];
  t.same(await readAllEvents(session, { onDamaged: (message) => damaged.push(message) }), [promptEvent('first'), { type: 'final', text: '' }]);
  t.same(damaged, [`Invalid session ${session.id} at line 2: expected a JSON object.`]);
});

t.test('concurrent resume: the second run is refused while the first holds the session', async (t) => {
  const root = t.testdir({});
  const created = await create(root);
  await unlockSession(created);
  const [a, b] = await Promise.all([openSession(root, created.id), openSession(root, created.id)]);
  const outcomes = await Promise.allSettled([lockSession(a), lockSession(b)]);
  t.same(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
  const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
  t.ok(refused.reason instanceof UsageError);
  t.equal(refused.reason.message, `Zero session ${created.id} is in use by another run (pid ${process.pid}).`);
  const winner = outcomes[0].status === 'fulfilled' ? a : b;
  const loser = winner === a ? b : a;
  await t.rejects(appendEvents(loser, [{ a: 1 }]), /must be locked/);
  await unlockSession(winner);
  await lockSession(loser);
  await appendEvents(loser, [{ a: 1 }]);
  await unlockSession(loser);
});

t.test('concurrent resume: a new run refuses a session being created', async (t) => {
  const root = t.testdir({});
  const session = await create(root);
  await t.rejects(lockSession(await openSession(root, session.id)), new UsageError(`Zero session ${session.id} is in use by another run (pid ${process.pid}).`));
  await unlockSession(session);
});

t.test('concurrent resume: a stale lock left by a dead run is taken over', async (t) => {
  const root = t.testdir({});
  const session = await create(root);
  await unlockSession(session);
  await writeFile(join(session.dir, 'lock'), `${await deadPid()}\n`);
  const resumed = await openSession(root, session.id);
  await lockSession(resumed);
  t.equal(await readFile(join(session.dir, 'lock'), 'utf8'), ourLock);
  await appendEvents(resumed, [promptEvent('again')]);
  await unlockSession(resumed);
});

t.test('latest: the newest session whose cwd is this one', async (t) => {
  const root = t.testdir({});
  const here1 = await create(root, { cwd: '/here', prompt: 'here 1', now: at('2024-01-01T00:00:00Z') });
  await create(root, { cwd: '/here', prompt: 'here 2', now: at('2024-01-02T00:00:00Z') });
  await create(root, { cwd: '/there', prompt: 'there', now: at('2024-01-05T00:00:00Z') });
  await create(root, { cwd: '/here/sub', prompt: 'sub', now: at('2024-01-06T00:00:00Z') });
  t.equal((await latestSessionFor(root, '/here')).metadata.title, 'here 2');
  t.equal((await latestSessionFor(root, '/here/')).metadata.title, 'here 2', 'a trailing slash is the same folder');
  await appendEvents(here1, [promptEvent('more')], { now: at('2024-01-03T00:00:00Z') });
  const latest = await latestSessionFor(root, '/here');
  t.equal(latest.id, here1.id);
  t.equal(latest.dir, here1.dir);
  t.equal((await latestSessionFor(root, '/there')).metadata.title, 'there');
});

t.test('latest: nothing recorded for this cwd, or nothing at all, is a usage error', async (t) => {
  const root = t.testdir({});
  await t.rejects(latestSessionFor(root, '/here'), new UsageError('No Zero sessions available to resume.'));
  await create(root, { cwd: '/there' });
  await t.rejects(latestSessionFor(root, '/here'), new UsageError('No Zero sessions available to resume.'));
  const missing = join(root, 'missing');
  await t.rejects(latestSessionFor(missing, '/here'), new UsageError('No Zero sessions available to resume.'));
  t.notOk(await exists(missing));
});

t.test('lock: a session whose folder vanished is not found', async (t) => {
  const root = t.testdir({});
  const session = await create(root);
  await unlockSession(session);
  const ghost: Session = { ...session, dir: join(root, 'gone'), metadata: session.metadata };
  await t.rejects(lockSession(ghost), new UsageError(`Zero session not found: ${session.id}`));
  await mkdir(join(root, 'gone'));
  await t.rejects(lockSession(ghost), new UsageError(`Zero session not found: ${session.id}`), 'no metadata');
  t.notOk(await exists(join(root, 'gone', 'lock')), 'the lock is given back');
});

t.test('a damaged metadata.json is rebuilt from events.jsonl: listed, opened, and written back once locked', async (t) => {
  const root = t.testdir({});
  const session = await create(root, { prompt: 'What broke?' });
  await appendEvents(session, [promptEvent('What broke?'), runEvents[0], runEvents[1]]);
  await unlockSession(session);
  await writeFile(join(session.dir, 'metadata.json'), '{"id": "zero_2024');
  const rebuilt = { id: session.id, title: 'What broke?', cwd: '/work', provider: 'scripted', model: 'scripted', eventCount: 3 };
  t.match(await listSessions(root), [rebuilt], 'listed, not hidden');
  t.equal((await listSessions(root))[0]?.createdAt.slice(0, 19), session.metadata.createdAt.slice(0, 19), 'created when its id says');
  const opened = await openSession(root, session.id);
  t.match(opened.metadata, rebuilt);
  await lockSession(opened);
  t.match(JSON.parse(await readFile(join(session.dir, 'metadata.json'), 'utf8')), rebuilt, 'written back');
  await unlockSession(opened);
});

t.test('modes: the store and session folders are 0700, every file 0600, under a umask of 022', async (t) => {
  const previous = process.umask(0o022);
  t.teardown(() => void process.umask(previous));
  const home = t.testdir({});
  const root = join(home, 'sessions');
  const mode = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);
  const session = await create(root);
  await appendEvents(session, [promptEvent('hi')]);
  t.equal(await mode(root), '700');
  t.equal(await mode(session.dir), '700');
  for (const file of ['events.jsonl', 'metadata.json', 'lock']) t.equal(await mode(join(session.dir, file)), '600', file);
  await unlockSession(session);

  // A session left 0755/0644 by an older version is narrowed when it is used again, and so is its copy.
  await chmod(root, 0o755);
  await chmod(session.dir, 0o755);
  for (const file of ['events.jsonl', 'metadata.json']) await chmod(join(session.dir, file), 0o644);
  const fork = await forkSession(root, session.id);
  t.equal(await mode(root), '700', 'the root narrowed');
  t.equal(await mode(join(fork.dir, 'events.jsonl')), '600', 'a fork does not copy the wider mode');
  const again = await openSession(root, session.id);
  await lockSession(again);
  t.equal(await mode(session.dir), '700');
  for (const file of ['events.jsonl', 'metadata.json']) t.equal(await mode(join(session.dir, file)), '600', file);
  await unlockSession(again);
  await unlockSession(fork);
});

t.test('prepareStore: a root that cannot be a folder is a usage error naming it, at once', async (t) => {
  const home = t.testdir({ file: 'not a folder' });
  const throughFile = join(home, 'file', 'sessions');
  await t.rejects(prepareStore(throughFile), new UsageError(`Cannot use the session store at ${throughFile}: part of that path is a file, not a folder (ENOTDIR). Set ZERO_HOME to a writable folder, or pass --no-session.`));
  await t.rejects(createSession({ root: throughFile, cwd: '/', provider: 'p', model: 'm', prompt: 'x' }), { name: 'UsageError', message: /ENOTDIR/ });
  // Node's recursive mkdir loops forever here.
  await t.rejects(prepareStore('/proc/zero/sessions'), { name: 'UsageError', message: /^Cannot use the session store at \/proc\/zero\/sessions: a folder cannot be created there \(ENOENT\)/ });
});

t.test('appends may leave metadata.json for later: syncSession writes it after them', async (t) => {
  const root = t.testdir({});
  const session = await create(root);
  await appendEvents(session, [promptEvent('hi')]);
  await appendEvents(session, runEvents, { metadata: false, now: at('2024-02-02T00:00:00Z') });
  t.equal(session.metadata.eventCount, 5);
  t.equal((await openSession(root, session.id)).metadata.eventCount, 1, 'not written yet');
  t.equal((await readAllEvents(session)).length, 5, 'the events are');
  await syncSession(session);
  t.match((await openSession(root, session.id)).metadata, { eventCount: 5, updatedAt: '2024-02-02T00:00:00.000Z' });
  await unlockSession(session);
});

t.test('lockSession: a session whose metadata.json is a folder is a usage error naming it, not a crash', async (t) => {
  const root = t.testdir({});
  const session = await create(root);
  await unlockSession(session);
  const metadata = join(session.dir, 'metadata.json');
  await rm(metadata);
  await mkdir(metadata);
  await t.rejects(lockSession(await openSession(root, session.id)), {
    name: 'UsageError',
    message: `Cannot use the session store at ${session.dir}: a folder stands where a file should be (EISDIR). Set ZERO_HOME to a writable folder, or pass --no-session.`,
  });
});

t.test('symbolic links inside the store are refused, not followed: a session folder, events.jsonl, metadata.json', async (t) => {
  const root = t.testdir({ elsewhere: { 'events.jsonl': 'not ours\n', 'metadata.json': '{}' } });
  const elsewhere = join(root, 'elsewhere');
  const linked = (name: string) => ({ message: `${name} is a symbolic link: zero follows no links inside its session store. Remove it, or move the real file there.` });

  const folder = await create(root);
  await unlockSession(folder);
  await rm(folder.dir, { recursive: true });
  await symlink(elsewhere, folder.dir);
  await t.rejects(openSession(root, folder.id), linked(folder.dir), 'a session folder');

  const events = await create(root);
  await rm(eventsPath(events));
  await symlink(join(elsewhere, 'events.jsonl'), eventsPath(events));
  await t.rejects(appendEvents(events, [{ type: 'text' }], { metadata: false }), linked(eventsPath(events)), 'events.jsonl, appended to by its run');
  await unlockSession(events);
  await t.rejects(lockSession(events), linked(eventsPath(events)), 'events.jsonl, on resume');
  await t.rejects(readAllEvents(events), linked(eventsPath(events)), 'events.jsonl, read');

  const metadata = await create(root);
  await unlockSession(metadata);
  await rm(join(metadata.dir, 'metadata.json'));
  await symlink(join(elsewhere, 'metadata.json'), join(metadata.dir, 'metadata.json'));
  await t.rejects(openSession(root, metadata.id), linked(join(metadata.dir, 'metadata.json')), 'metadata.json');

  t.equal(await readFile(join(elsewhere, 'events.jsonl'), 'utf8'), 'not ours\n', 'the file linked to is untouched');
});
