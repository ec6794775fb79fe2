import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';

export const METADATA_FILE = 'metadata.json';
export const EVENTS_FILE = 'events.jsonl';
export const LOCK_FILE = 'lock';
/** The launch fields metadata.json holds redacted, as they were (see launch.ts). */
export const LAUNCH_FILE = 'launch.json';

/**
 * Where sessions live: `$ZERO_HOME/sessions`, else `$XDG_DATA_HOME/zero/sessions`,
 * else `~/.local/share/zero/sessions`. Empty variables count as unset, and so does
 * a relative XDG_DATA_HOME (the XDG spec says to ignore it).
 */
export function sessionsRoot(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  if (env.ZERO_HOME) return join(resolve(env.ZERO_HOME), 'sessions');
  if (env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME)) return join(env.XDG_DATA_HOME, 'zero', 'sessions');
  return join(home, '.local', 'share', 'zero', 'sessions');
}

/**
 * The ids a session folder may have: Zero's (internal/sessions/store.go), a letter or digit, then up to 127 letters,
 * digits, `_` or `-`. Ours (`zero_<14 digits>_<6 base36>`) are among them; `--init-session-id` may choose another.
 */
const STORED_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isSessionId(id: unknown): id is string {
  return typeof id === 'string' && STORED_SESSION_ID.test(id);
}

/** A session id is never a path: no `/`, no `.`, nothing but an id is accepted before the disk is touched. */
export function assertSessionId(id: unknown): asserts id is string {
  if (!isSessionId(id)) {
    throw new UsageError(`Invalid session id: ${typeof id === 'string' ? JSON.stringify(id) : String(id)}`);
  }
}

/** The folder of a session; the id is checked first. */
export function sessionDir(root: string, id: string): string {
  assertSessionId(id);
  return join(root, id);
}
