import { randomBytes } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NO_FOLLOW, PRIVATE_FILE_MODE, openError } from './folders.js';
import type { StoredEvent } from './journal.js';
import { METADATA_FILE } from './paths.js';

/** `metadata.json` of a session; times are ISO strings. */
export type SessionMetadata = {
  id: string;
  /** --session-title, else the first 80 characters of the session's first prompt, whitespace collapsed. */
  title: string;
  /** --tag: labels the user gave the session (Zero's `tag`, which holds one). */
  tags?: string[];
  cwd: string;
  /** When cwd above is redacted: the SHA-256 of the real one, which --resume without an id matches. */
  cwdHash?: string;
  provider: string;
  model: string;
  /** The config profile that chose the provider, if one did: --resume asks for it again. */
  profile?: string;
  /** The scripted provider's script (absolute): --resume runs it again. */
  script?: string;
  /** For a fork: the session it was copied from. */
  parentId?: string;
  /** For a fork: how many events the parent had when it was copied. */
  forkedAt?: number;
  createdAt: string;
  updatedAt: string;
  /** Lines in events.jsonl: output events and recorded prompts. */
  eventCount: number;
};

export const TITLE_LENGTH = 80;

/**
 * Whitespace runs become one space; the first 80 characters (code points, so no half surrogate pair) are kept.
 * Only the words the title needs are read: a prompt of megabytes is not copied or split into characters.
 */
export function titleFromPrompt(prompt: string): string {
  let title = '';
  // 2 UTF-16 units a code point at most: a word cut there still holds TITLE_LENGTH whole characters
  for (const [word] of prompt.matchAll(/\S+/g)) {
    title += `${title ? ' ' : ''}${word.slice(0, 2 * TITLE_LENGTH)}`;
    if (title.length >= 2 * TITLE_LENGTH) break;
  }
  return Array.from(title).slice(0, TITLE_LENGTH).join('');
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** The metadata if the value has the right shape for session `id`, else undefined. */
export function checkMetadata(value: unknown, id: string): SessionMetadata | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const m = value as Record<string, unknown>;
  if (m.id !== id) return undefined;
  if (![m.title, m.cwd, m.provider, m.model, m.createdAt, m.updatedAt].every(isString)) return undefined;
  if (!isCount(m.eventCount)) return undefined;
  if ([m.parentId, m.profile, m.script].some((field) => field !== undefined && !isString(field))) return undefined;
  if (m.forkedAt !== undefined && !isCount(m.forkedAt)) return undefined;
  if (m.tags !== undefined && !(Array.isArray(m.tags) && m.tags.every(isString))) return undefined;
  if (m.cwdHash !== undefined && !isString(m.cwdHash)) return undefined;
  return m as SessionMetadata;
}

/** Reads and checks `metadata.json`; a missing file rejects with ENOENT, a malformed one with an Error saying so. */
export async function readMetadata(dir: string, id: string): Promise<SessionMetadata> {
  const file = join(dir, METADATA_FILE);
  const text = await readFile(file, { encoding: 'utf8', flag: NO_FOLLOW.read }).catch((error) => {
    throw openError(file, error);
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${METADATA_FILE} is not valid JSON`);
  }
  const metadata = checkMetadata(value, id);
  if (!metadata) throw new Error(`${METADATA_FILE} does not describe session ${id}`);
  return metadata;
}

/** Fields in a fixed order, optional ones only when set. */
function ordered(m: SessionMetadata): SessionMetadata {
  return {
    id: m.id,
    title: m.title,
    ...(m.tags === undefined ? {} : { tags: m.tags }),
    cwd: m.cwd,
    ...(m.cwdHash === undefined ? {} : { cwdHash: m.cwdHash }),
    provider: m.provider,
    model: m.model,
    ...(m.profile === undefined ? {} : { profile: m.profile }),
    ...(m.script === undefined ? {} : { script: m.script }),
    ...(m.parentId === undefined ? {} : { parentId: m.parentId }),
    ...(m.forkedAt === undefined ? {} : { forkedAt: m.forkedAt }),
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    eventCount: m.eventCount,
  };
}

/**
 * Replaces `metadata.json` atomically: a temporary file in the same folder, then
 * a rename over the old one, so a reader sees the old file or the new, never half.
 */
export async function writeMetadata(dir: string, metadata: SessionMetadata): Promise<void> {
  const temp = join(dir, `${METADATA_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, `${JSON.stringify(ordered(metadata), null, 2)}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    await rename(temp, join(dir, METADATA_FILE));
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** When a session was created, from its id (`zero_<UTC yyyymmddHHMMSS>_…`). */
function timeOfId(id: string): string {
  const [, stamp = ''] = id.split('_');
  const time = new Date(stamp.replace(/^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/, '$1-$2-$3T$4:$5:$6Z'));
  return Number.isNaN(time.getTime()) ? new Date(0).toISOString() : time.toISOString();
}

/**
 * Metadata for a session whose metadata.json is damaged, rebuilt from what its
 * events tell: the title from the first prompt, cwd, provider and model from the
 * first run_start, the creation time from the id. A fork's parentId, a --session-title and the tags are lost.
 */
export function metadataFromEvents(id: string, events: readonly StoredEvent[], updatedAt: Date): SessionMetadata {
  const prompt = events.find((event) => (event.type === 'prompt' || (event.type === 'message' && event.role === 'user')) && isString(event.content));
  const start = events.find((event) => event.type === 'run_start') ?? {};
  const field = (value: unknown, fallback: string) => (isString(value) ? value : fallback);
  return {
    id,
    title: prompt ? titleFromPrompt(prompt.content as string) : '(no prompt recorded)',
    cwd: field(start.cwd, ''),
    provider: field(start.provider, 'unknown'),
    model: field(start.model, 'unknown'),
    createdAt: timeOfId(id),
    updatedAt: updatedAt.toISOString(),
    eventCount: events.length,
  };
}
