import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { errnoOf } from './folders.js';
import { readLines, type StoredEvent } from './journal.js';
import { metadataFromEvents, readMetadata, type SessionMetadata } from './metadata.js';
import { EVENTS_FILE, assertSessionId } from './paths.js';

// What a store holds: each session's metadata, read or rebuilt from its events, and the list of them.

export const notFound = (id: string) => new UsageError(`Zero session not found: ${id}`);
/** Metadata for a damaged metadata.json, from events.jsonl (see metadataFromEvents); its damaged lines are skipped. */
async function rebuildMetadata(dir: string, id: string): Promise<SessionMetadata> {
  const file = join(dir, EVENTS_FILE);
  const { mtime } = await stat(file);
  const events: StoredEvent[] = [];
  for await (const event of readLines(file, { label: `session ${id}` })) events.push(event);
  return metadataFromEvents(id, events, mtime);
}

/**
 * readMetadata, with its failures as UsageErrors: no metadata is an unknown
 * session (one still being made). A damaged metadata.json is rebuilt from
 * events.jsonl, so the session stays listed and resumable.
 */
export async function loadMetadata(dir: string, id: string): Promise<SessionMetadata> {
  try {
    return await readMetadata(dir, id);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') throw notFound(id);
    if (error instanceof UsageError) throw error;
    return rebuildMetadata(dir, id).catch(() => {
      throw new UsageError(`Zero session ${id} cannot be read: ${(error as Error).message}.`, { cause: error });
    });
  }
}

/** Every session under root, most recently updated first (damaged metadata rebuilt); folders without metadata are skipped. */
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
        return entry.isDirectory() ? await loadMetadata(join(root, entry.name), entry.name) : undefined;
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

