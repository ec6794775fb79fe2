import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { METADATA_FILE, isSessionId, sessionDir, sessionsRoot } from '../sessions/paths.js';
import type { Labels } from '../sessions/store.js';

// The session flags of exec: --resume, --fork, --no-session, and Zero's --init-session-id, --session-title and --tag,
// which name a new session.

export type SessionFlags = {
  /** --resume [ID]: true without an id. */
  resume?: string | boolean;
  fork?: string;
  /** --no-session: false. */
  session?: boolean;
  initSessionId?: string;
  sessionTitle?: string;
  /** --tag (repeatable). */
  tag?: string[];
};

/** Which session the run continues or forks; undefined for a new one. */
export type SessionChoice = { resume: string | true } | { fork: string };

export function sessionChoice(raw: SessionFlags, noSession: string | undefined): SessionChoice | undefined {
  if (raw.resume !== undefined && raw.fork !== undefined) throw new UsageError('Use either --resume or --fork, not both.');
  if (noSession && (raw.resume !== undefined || raw.fork !== undefined)) throw new UsageError(`${noSession} cannot be used with --resume or --fork: they continue a recorded session.`);
  if (raw.fork !== undefined) return { fork: raw.fork };
  if (raw.resume !== undefined) return { resume: raw.resume === true ? true : String(raw.resume) };
  return undefined;
}

/**
 * `--resume "And the tests?"`: the option's optional value swallows the prompt.
 * A value that names no session (zero_…, or one the store holds) is given back to the prompt words.
 */
export function reclaimPrompt<Raw extends SessionFlags>(words: string[], raw: Raw, env: NodeJS.ProcessEnv): [string[], Raw] {
  if (typeof raw.resume !== 'string' || namesStoredSession(raw.resume, env)) return [words, raw];
  return [[raw.resume, ...words], { ...raw, resume: true }];
}

/** Values of ZERO_NO_SESSION that turn recording off: someone who wrote `true` meant it, and a miss writes to disk. */
const TRUTHY = /^(1|true|yes|on)$/i;

/** Which of --no-session or ZERO_NO_SESSION=1 turned sessions off, if one did. */
export function noSessionSource(raw: SessionFlags, env: NodeJS.ProcessEnv): string | undefined {
  if (raw.session === false) return '--no-session';
  const value = env.ZERO_NO_SESSION?.trim() ?? '';
  return TRUTHY.test(value) ? `ZERO_NO_SESSION=${value}` : undefined;
}

/** A flag's text, whitespace runs made one space; an empty one is a usage error, as in Zero. */
function text(flag: string, value: string): string {
  const collapsed = value.replace(/\s+/g, ' ').trim();
  if (!collapsed) throw new UsageError(`Invalid value for ${flag}: ${JSON.stringify(value)}. Expected some text.`);
  return collapsed;
}

function initialId(value: string): string {
  const id = value.trim();
  if (!isSessionId(id)) {
    throw new UsageError(`Invalid value for --init-session-id: ${JSON.stringify(value)}. Expected a session id: a letter or digit, then up to 127 letters, digits, "_" or "-".`);
  }
  return id;
}

/**
 * What the user names a new session (or a fork): checked here, before anything runs. They name a session the run
 * creates, so with --resume (Zero refuses --init-session-id there) or with nothing recorded, they are usage errors.
 */
export function sessionLabels(raw: SessionFlags, noSession: string | undefined): Labels {
  const given = [raw.initSessionId !== undefined && '--init-session-id', raw.sessionTitle !== undefined && '--session-title', raw.tag !== undefined && '--tag'].filter(Boolean);
  if (given.length === 0) return {};
  if (raw.resume !== undefined) throw new UsageError(`Use ${given.join(', ')} only when creating or forking a session, not with --resume.`);
  if (noSession) throw new UsageError(`${given.join(', ')} cannot be used with ${noSession}: nothing is recorded.`);
  const tags = raw.tag?.map((tag) => text('--tag', tag));
  return {
    ...(raw.initSessionId === undefined ? {} : { id: initialId(raw.initSessionId) }),
    ...(raw.sessionTitle === undefined ? {} : { title: text('--session-title', raw.sessionTitle) }),
    ...(tags ? { tags: [...new Set(tags)] } : {}),
  };
}

/**
 * Whether `--resume VALUE` names a stored session. Ours start with `zero_`, but an --init-session-id one may be
 * any id: the store says whether it exists (else VALUE is the prompt, as `zero exec --resume "And the tests?"`).
 */
export function namesStoredSession(value: string, env: NodeJS.ProcessEnv): boolean {
  return value.startsWith('zero_') || (isSessionId(value) && existsSync(join(sessionsRoot(env), value, METADATA_FILE)));
}

/**
 * --init-session-id, checked against the store before the run starts: a session that exists already (creating it
 * would fail later), or an id that looks like a key (metadata.json and every event are redacted, and the id would
 * no longer name its own folder), is a usage error. Loaded by a run only: it needs the redaction rules.
 */
export async function checkNewSessionId(root: string, { id }: Labels): Promise<void> {
  if (id === undefined) return;
  const [{ redactText }, { sessionExists }] = await Promise.all([import('../redaction/index.js'), import('../sessions/store.js')]);
  if (redactText(id) !== id) throw new UsageError('Invalid value for --init-session-id: it looks like a secret, and would be redacted wherever it is written. Choose another id.');
  if (existsSync(sessionDir(root, id))) throw sessionExists(id);
}
