import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { newSessionId } from '../protocol/ids.js';
import { appendLines, readLines, repairJournal, type StoredEvent } from './journal.js';
import { acquireLock, type SessionLock } from './lock.js';
import { redactOutbound } from '../redaction/index.js';
import { readMetadata, titleFromPrompt, writeMetadata, type SessionMetadata } from './metadata.js';
import { EVENTS_FILE, assertSessionId, sessionDir } from './paths.js';

/** An open session: its folder and its metadata as last written by this handle. */
export type Session = {
  readonly root: string;
  readonly id: string;
  readonly dir: string;
  metadata: SessionMetadata;
};

/** `secrets`: the credentials in use, redacted (with every other secret) from the metadata as it is created. */
export type NewSession = { root: string; cwd: string; provider: string; model: string; prompt: string; now?: Date; secrets?: readonly string[] };
export type ForkOptions = { cwd?: string; provider?: string; model?: string; now?: Date; secrets?: readonly string[] };

type State = { lock?: SessionLock; queue: Promise<unknown> };
const states = new WeakMap<Session, State>();

function stateOf(session: Session): State {
  let state = states.get(session);
  if (!state) states.set(session, (state = { queue: Promise.resolve() }));
  return state;
}

function handle(root: string, id: string, metadata: SessionMetadata): Session {
  return { root, id, dir: join(root, id), metadata };
}

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException)?.code;

export const notFound = (id: string) => new UsageError(`Zero session not found: ${id}`);

/** The recorded prompt of a run: an input event, written before that run's output events. */
export function promptEvent(content: string) {
  return { schemaVersion: 1 as const, type: 'prompt' as const, content };
}

export function eventsPath(session: Session): string {
  return join(session.dir, EVENTS_FILE);
}

/** A fresh folder under root with a new id; holds its lock before anything else can see it. */
async function makeFolder(root: string, now: Date): Promise<{ id: string; dir: string; lock: SessionLock }> {
  await mkdir(root, { recursive: true });
  for (;;) {
    const id = newSessionId(now);
    const dir = join(root, id);
    try {
      await mkdir(dir);
    } catch (error) {
      if (errnoOf(error) === 'EEXIST') continue;
      throw error;
    }
    return { id, dir, lock: await acquireLock(dir, id) };
  }
}

/**
 * A new session for a run: folder, lock, empty events.jsonl, then metadata.json
 * (last, so a folder without it is a session still being made, and is skipped).
 * Returned locked. The prompt gives only the title: record it with
 * appendEvents(session, [promptEvent(prompt), …]). Hand over redacted text only.
 */
export async function createSession(options: NewSession): Promise<Session> {
  const now = options.now ?? new Date();
  const { id, dir, lock } = await makeFolder(options.root, now);
  const time = now.toISOString();
  const metadata: SessionMetadata = redactOutbound({
    id,
    title: titleFromPrompt(options.prompt),
    cwd: options.cwd,
    provider: options.provider,
    model: options.model,
    createdAt: time,
    updatedAt: time,
    eventCount: 0,
  }, { secrets: options.secrets });
  try {
    await writeFile(join(dir, EVENTS_FILE), '', { flag: 'wx' });
    await writeMetadata(dir, metadata);
  } catch (error) {
    await lock.unlock();
    throw error;
  }
  const session = handle(options.root, id, metadata);
  stateOf(session).lock = lock;
  return session;
}

/** readMetadata, with its failures as UsageErrors: no metadata is an unknown session. */
async function loadMetadata(dir: string, id: string): Promise<SessionMetadata> {
  try {
    return await readMetadata(dir, id);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') throw notFound(id);
    throw new UsageError(`Zero session ${id} cannot be read: ${(error as Error).message}.`, { cause: error });
  }
}

/** An existing session, not locked. A bad id is refused before the disk is touched; an unknown one is a UsageError. */
export async function openSession(root: string, id: string): Promise<Session> {
  const dir = sessionDir(root, id);
  return handle(root, id, await loadMetadata(dir, id));
}

/** Every readable session under root, most recently updated first; folders without readable metadata are skipped. */
export async function listSessions(root: string): Promise<SessionMetadata[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return [];
    throw error;
  }
  const found = await Promise.all(
    entries.map(async (entry) => {
      try {
        assertSessionId(entry.name);
        return entry.isDirectory() ? await readMetadata(join(root, entry.name), entry.name) : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  const time = (iso: string) => Date.parse(iso) || 0;
  return found
    .filter((metadata): metadata is SessionMetadata => metadata !== undefined)
    .sort((a, b) => time(b.updatedAt) - time(a.updatedAt) || time(b.createdAt) - time(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** The most recently updated session recorded for this working directory. */
export async function latestSessionFor(root: string, cwd: string): Promise<Session> {
  const wanted = resolve(cwd);
  const latest = (await listSessions(root)).find((metadata) => resolve(metadata.cwd) === wanted);
  if (!latest) throw new UsageError('No Zero sessions available to resume.');
  return handle(root, latest.id, latest);
}

/**
 * Takes the session's lock for this handle (see lock.ts), then makes the journal
 * safe to append to: a torn last line is cut off, and eventCount is set to the
 * lines there are (a run killed between writing events and metadata left it short).
 * Locking a handle that holds the lock already returns that lock.
 */
export async function lockSession(session: Session): Promise<SessionLock> {
  const state = stateOf(session);
  if (state.lock?.held) return state.lock;
  const lock = await acquireLock(session.dir, session.id).catch((error) => {
    throw errnoOf(error) === 'ENOENT' ? notFound(session.id) : error;
  });
  try {
    const current = await loadMetadata(session.dir, session.id);
    const lines = await repairJournal(eventsPath(session), `session ${session.id}`);
    session.metadata = current.eventCount === lines ? current : { ...current, eventCount: lines };
    if (current.eventCount !== lines) await writeMetadata(session.dir, session.metadata);
  } catch (error) {
    await lock.unlock();
    throw error;
  }
  state.lock = lock;
  return lock;
}

/** Releases this handle's lock, if it holds one. */
export async function unlockSession(session: Session): Promise<void> {
  await states.get(session)?.lock?.unlock();
}

/**
 * Appends events (already redacted: the store writes what it is handed) as whole
 * lines in one write, then updates eventCount and updatedAt. Only under this
 * handle's lock; appends through one handle are applied in call order.
 */
export function appendEvents(session: Session, events: readonly object[], options: { now?: Date } = {}): Promise<void> {
  const state = stateOf(session);
  const run = state.queue.then(async () => {
    if (!state.lock?.held) throw new Error(`Session ${session.id} must be locked (lockSession) before appending.`);
    if (events.length === 0) return;
    await appendLines(eventsPath(session), events);
    session.metadata = { ...session.metadata, eventCount: session.metadata.eventCount + events.length, updatedAt: (options.now ?? new Date()).toISOString() };
    await writeMetadata(session.dir, session.metadata);
  });
  state.queue = run.catch(() => undefined);
  return run;
}

/** The session's events in order, streamed; a torn last line is skipped, a bad line elsewhere is a UsageError naming it. */
export function readEvents(session: Session): AsyncGenerator<StoredEvent> {
  return readLines(eventsPath(session), { label: `session ${session.id}` });
}

export async function readAllEvents(session: Session): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for await (const event of readEvents(session)) events.push(event);
  return events;
}

/**
 * A new session whose events.jsonl starts as a byte copy of the parent's; the
 * parent is only read (not locked: it may be running). parentId and forkedAt (the
 * events copied) are set; cwd, provider and model default to the parent's.
 * Returned locked, like createSession.
 */
export async function forkSession(root: string, parentId: string, options: ForkOptions = {}): Promise<Session> {
  const parent = await openSession(root, parentId);
  const now = options.now ?? new Date();
  const { id, dir, lock } = await makeFolder(root, now);
  try {
    const events = join(dir, EVENTS_FILE);
    await copyFile(eventsPath(parent), events).catch((error) => {
      if (errnoOf(error) !== 'ENOENT') throw error;
    });
    // The parent may have been mid-append: a torn last line is not copied on.
    const copied = await repairJournal(events, `session ${id}`);
    const time = now.toISOString();
    const metadata: SessionMetadata = redactOutbound({
      id,
      title: parent.metadata.title,
      cwd: options.cwd ?? parent.metadata.cwd,
      provider: options.provider ?? parent.metadata.provider,
      model: options.model ?? parent.metadata.model,
      parentId,
      forkedAt: copied,
      createdAt: time,
      updatedAt: time,
      eventCount: copied,
    }, { secrets: options.secrets });
    await writeMetadata(dir, metadata);
    const session = handle(root, id, metadata);
    stateOf(session).lock = lock;
    return session;
  } catch (error) {
    await lock.unlock();
    throw error;
  }
}
