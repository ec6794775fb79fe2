import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { SESSION_ID_PATTERN } from '../protocol/ids.js';

export const METADATA_FILE = 'metadata.json';
export const EVENTS_FILE = 'events.jsonl';
export const LOCK_FILE = 'lock';

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

/** A session id is never a path: anything but `zero_<14 digits>_<6 base36>` is refused before the disk is touched. */
export function assertSessionId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !SESSION_ID_PATTERN.test(id)) {
    throw new UsageError(`Invalid session id: ${typeof id === 'string' ? JSON.stringify(id) : String(id)}`);
  }
}

/** The folder of a session; the id is checked first. */
export function sessionDir(root: string, id: string): string {
  assertSessionId(id);
  return join(root, id);
}
