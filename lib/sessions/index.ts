/** The session store (docs/protocol.md §6): every run recorded, resumable and forkable. */

export { sessionsRoot, assertSessionId, isSessionId, sessionDir, METADATA_FILE, EVENTS_FILE, LOCK_FILE } from './paths.js';
export { titleFromPrompt, TITLE_LENGTH, type SessionMetadata } from './metadata.js';
export type { StoredEvent } from './journal.js';
export type { SessionLock } from './lock.js';
export {
  createSession,
  prepareStore,
  syncSession,
  openSession,
  latestSessionFor,
  forkSession,
  lockSession,
  unlockSession,
  appendEvents,
  readEvents,
  readAllEvents,
  promptEvent,
  eventsPath,
  sessionExists,
  type Session,
  type NewSession,
  type ForkOptions,
  type Launch,
  type Labels,
} from './store.js';
export { diskFailure } from './folders.js';
export { listSessions } from './catalog.js';
export { removeSession, pruneSessions, type PruneReport } from './remove.js';
export { conversationFromEvents, trimHistory, messageChars, historyChars } from './history.js';
