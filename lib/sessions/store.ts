import { chmod, copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { newSessionId } from '../protocol/ids.js';
import type { ImageInput, InputEvent } from '../protocol/types.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, assertNotLink, errnoOf, makePrivateDir, storeError } from './folders.js';
import { listSessions, loadMetadata, notFound } from './catalog.js';
import { appendLines, readLines, repairJournal, syncJournal, type StoredEvent } from './journal.js';
import { acquireLock, type SessionLock } from './lock.js';
import { redactOutbound } from '../redaction/index.js';
import { titleFromPrompt, writeMetadata, type SessionMetadata } from './metadata.js';
import { EVENTS_FILE, sessionDir } from './paths.js';
import { cwdHash, hiddenFields, ranIn, readLaunch, writeLaunch, type PrivateLaunch } from './launch.js';

/** An open session: its folder and its metadata as last written by this handle. */
export type Session = {
  readonly root: string;
  readonly id: string;
  readonly dir: string;
  metadata: SessionMetadata;
};

/** `secrets`: the credentials in use, redacted (with every other secret) from the metadata as it is created. */
/** How a run chose its provider, besides its name and model: kept for --resume (see SessionMetadata). */
export type Launch = { profile?: string; script?: string };
/** What the user named a new session (--init-session-id, --session-title, --tag), instead of a new id and a title from the prompt. */
export type Labels = { id?: string; title?: string; tags?: string[] };
export type NewSession = Launch & Labels & { root: string; cwd: string; provider: string; model: string; prompt: string; now?: Date; secrets?: readonly string[] };
export type ForkOptions = Launch & Labels & { cwd?: string; provider?: string; model?: string; now?: Date; secrets?: readonly string[] };

export const sessionExists = (id: string) => new UsageError(`Zero session already exists: ${id}`);

const launchFields = ({ profile, script }: Launch): Launch => ({ ...(profile ? { profile } : {}), ...(script ? { script } : {}) });
const tagsOf = ({ tags }: { tags?: string[] }) => (tags?.length ? { tags } : {});

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



/**
 * The recorded prompt of a run: an input event, written before that run's output events
 * (docs/protocol.md §6). A prompt with images is a version 2 user message, so that --resume sends them again.
 */
export function promptEvent(content: string, images?: ImageInput[]): InputEvent {
  if (images?.length) return { schemaVersion: 2, type: 'message', role: 'user', content, images };
  return { schemaVersion: 1, type: 'prompt', content };
}

export function eventsPath(session: Session): string {
  return join(session.dir, EVENTS_FILE);
}

/**
 * Makes the sessions root usable (created 0700 if missing, narrowed to 0700 if
 * wider). A path that cannot be a folder, or one that cannot be written, is a
 * configuration error (exit 2) naming it: check it before the run starts.
 */
export async function prepareStore(root: string): Promise<void> {
  await makePrivateDir(root).catch((error) => {
    throw storeError(root, error);
  });
}

/** A session folder this process made and could not finish (a full disk): no empty folder is left behind. */
const removeFolder = (dir: string) => rm(dir, { recursive: true, force: true }).catch(() => undefined);

/** Ids are random: a clash more than a few times in a row means the folder answers EEXIST to everything. */
const NEW_ID_ATTEMPTS = 20;

/** A fresh folder (0700) under root with a new id, or the one asked for; holds its lock before anything else can see it. */
async function makeFolder(root: string, now: Date, asked?: string): Promise<{ id: string; dir: string; lock: SessionLock }> {
  await prepareStore(root);
  for (let attempt = 0; attempt < NEW_ID_ATTEMPTS; attempt++) {
    const id = asked ?? newSessionId(now);
    const dir = sessionDir(root, id);
    try {
      await mkdir(dir, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw storeError(dir, error);
      if (asked) throw sessionExists(asked);
      continue;
    }
    try {
      await chmod(dir, PRIVATE_DIR_MODE);
      return { id, dir, lock: await acquireLock(dir, id) };
    } catch (error) {
      await removeFolder(dir);
      throw storeError(dir, error);
    }
  }
  throw new UsageError(`Cannot use the session store at ${root}: no new session folder could be created there.`);
}

/**
 * A new session for a run: folder, lock, empty events.jsonl, then metadata.json
 * (last, so a folder without it is a session still being made, and is skipped).
 * Returned locked. The prompt gives only the title: record it with
 * appendEvents(session, [promptEvent(prompt), …]). Hand over redacted text only.
 */
export async function createSession(options: NewSession): Promise<Session> {
  const now = options.now ?? new Date();
  const { id, dir, lock } = await makeFolder(options.root, now, options.id);
  const time = now.toISOString();
  const metadata: SessionMetadata = redactOutbound({
    id,
    title: options.title ?? titleFromPrompt(options.prompt),
    ...tagsOf(options),
    cwd: options.cwd,
    provider: options.provider,
    model: options.model,
    ...launchFields(options),
    createdAt: time,
    updatedAt: time,
    eventCount: 0,
  }, { secrets: options.secrets });
  let stored: SessionMetadata;
  try {
    await writeFile(join(dir, EVENTS_FILE), '', { flag: 'wx', mode: PRIVATE_FILE_MODE });
    stored = await withHidden(dir, metadata, { cwd: options.cwd, ...launchFields(options) });
    await writeMetadata(dir, stored);
  } catch (error) {
    await lock.unlock();
    await removeFolder(dir);
    throw error;
  }
  const session = handle(options.root, id, stored);
  stateOf(session).lock = lock;
  return session;
}

/**
 * The metadata as redacted, with the hash of a redacted cwd; the real values of the fields redaction changed
 * go to launch.json, so that --resume can still use them.
 */
async function withHidden(dir: string, metadata: SessionMetadata, real: PrivateLaunch): Promise<SessionMetadata> {
  const hidden = hiddenFields(real, metadata);
  await writeLaunch(dir, hidden);
  return hidden.cwd === undefined ? metadata : { ...metadata, cwdHash: cwdHash(hidden.cwd) };
}

/** An existing session, not locked. A bad id is refused before the disk is touched; an unknown one is a UsageError. */
export async function openSession(root: string, id: string): Promise<Session> {
  const dir = sessionDir(root, id);
  await assertNotLink(dir);
  return handle(root, id, await loadMetadata(dir, id));
}

/** The most recently updated session recorded for this working directory. */
export async function latestSessionFor(root: string, cwd: string): Promise<Session> {
  const wanted = resolve(cwd);
  const latest = (await listSessions(root)).find((metadata) => ranIn(metadata, wanted));
  if (!latest) throw new UsageError('No Zero sessions available to resume.');
  return handle(root, latest.id, latest);
}

/**
 * Takes the session's lock for this handle (see lock.ts), then makes the journal
 * safe to append to: a torn last line is cut off, and eventCount is set to the
 * lines there are (a run killed between writing events and metadata left it short).
 * Metadata is written back (a rebuilt one replaces the damaged file), and a session
 * made by an older version gets the private modes (folder 0700, files 0600).
 * Locking a handle that holds the lock already returns that lock.
 */
export async function lockSession(session: Session): Promise<SessionLock> {
  const state = stateOf(session);
  if (state.lock?.held) return state.lock;
  const lock = await acquireLock(session.dir, session.id).catch((error) => {
    // a lock that cannot be written (a full disk) is the session store's failure, said as one, not a crash
    throw errnoOf(error) === 'ENOENT' ? notFound(session.id) : storeError(session.dir, error);
  });
  try {
    const current = await loadMetadata(session.dir, session.id);
    const lines = await repairJournal(eventsPath(session), `session ${session.id}`);
    await chmod(session.dir, PRIVATE_DIR_MODE);
    await chmod(eventsPath(session), PRIVATE_FILE_MODE);
    session.metadata = { ...current, eventCount: lines };
    await writeMetadata(session.dir, session.metadata);
  } catch (error) {
    await lock.unlock();
    // A file-system failure here (a metadata.json that is a folder, a read-only session) is the session's, not a crash.
    throw storeError(session.dir, error);
  }
  state.lock = lock;
  return lock;
}

/** Releases this handle's lock, if it holds one. */
export async function unlockSession(session: Session): Promise<void> {
  await states.get(session)?.lock?.unlock();
}

/** Runs fn after every earlier write through this handle, under its lock: writes are ordered, never concurrent. */
function queued(session: Session, fn: () => Promise<void>): Promise<void> {
  const state = stateOf(session);
  const run = state.queue.then(() => {
    if (!state.lock?.held) throw new Error(`Session ${session.id} must be locked (lockSession) before appending.`);
    return fn();
  });
  state.queue = run.catch(() => undefined);
  return run;
}

export type AppendOptions = {
  now?: Date;
  /**
   * false: only the in-memory eventCount and updatedAt change; metadata.json is
   * written by a later syncSession (a run appends often; lockSession repairs the
   * count of a run killed in between).
   */
  metadata?: boolean;
};

/**
 * Appends events (already redacted: the store writes what it is handed) as whole
 * lines in one write, then updates eventCount and updatedAt. Only under this
 * handle's lock; appends through one handle are applied in call order.
 */
export function appendEvents(session: Session, events: readonly object[], options: AppendOptions = {}): Promise<void> {
  return queued(session, async () => {
    if (events.length === 0) return;
    await appendLines(eventsPath(session), events);
    session.metadata = { ...session.metadata, eventCount: session.metadata.eventCount + events.length, updatedAt: (options.now ?? new Date()).toISOString() };
    if (options.metadata !== false) await writeMetadata(session.dir, session.metadata);
  });
}

/** After every earlier append: events.jsonl is flushed to the disk (fsync) and metadata.json written. */
export function syncSession(session: Session): Promise<void> {
  return queued(session, async () => {
    await syncJournal(eventsPath(session));
    await writeMetadata(session.dir, session.metadata);
  });
}

export type ReadEventsOptions = {
  /** A damaged line is skipped; this gets a message naming the session and the line. */
  onDamaged?: (message: string) => void;
};

/** The session's events in order, streamed; a torn last line is skipped silently, a damaged line elsewhere with onDamaged. */
export function readEvents(session: Session, options: ReadEventsOptions = {}): AsyncGenerator<StoredEvent> {
  return readLines(eventsPath(session), { label: `session ${session.id}`, onDamaged: options.onDamaged });
}

export async function readAllEvents(session: Session, options: ReadEventsOptions = {}): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for await (const event of readEvents(session, options)) events.push(event);
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
  const parentLaunch = { ...launchFields(parent.metadata), cwd: parent.metadata.cwd, ...(await readLaunch(parent.dir)) };
  const now = options.now ?? new Date();
  const { id, dir, lock } = await makeFolder(root, now, options.id);
  try {
    const events = join(dir, EVENTS_FILE);
    await copyFile(eventsPath(parent), events).catch((error) => {
      if (errnoOf(error) !== 'ENOENT') throw error;
    });
    // A copy keeps the parent's mode, which an older version made 0644.
    await chmod(events, PRIVATE_FILE_MODE).catch((error) => {
      if (errnoOf(error) !== 'ENOENT') throw error;
    });
    // The parent may have been mid-append: a torn last line is not copied on.
    const copied = await repairJournal(events, `session ${id}`);
    const time = now.toISOString();
    const metadata: SessionMetadata = redactOutbound({
      id,
      title: options.title ?? parent.metadata.title,
      ...tagsOf(options.tags ? options : parent.metadata),
      cwd: options.cwd ?? parent.metadata.cwd,
      provider: options.provider ?? parent.metadata.provider,
      model: options.model ?? parent.metadata.model,
      ...launchFields(options.provider ? options : parent.metadata),
      parentId,
      forkedAt: copied,
      createdAt: time,
      updatedAt: time,
      eventCount: copied,
    }, { secrets: options.secrets });
    const real = { cwd: options.cwd ?? parentLaunch.cwd, ...launchFields(options.provider ? options : parentLaunch) };
    const stored = await withHidden(dir, metadata, real);
    await writeMetadata(dir, stored);
    const session = handle(root, id, stored);
    stateOf(session).lock = lock;
    return session;
  } catch (error) {
    await lock.unlock();
    await removeFolder(dir);
    throw error;
  }
}
