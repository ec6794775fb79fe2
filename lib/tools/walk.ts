import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories no search tool descends into. */
export const IGNORED_DIRECTORIES: readonly string[] = ['.git', 'node_modules'];

/** Orders directory entries by name, by code unit so the order does not depend on the locale. */
export function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Yields the absolute paths of what is under `directory` other than directories (files, symlinks, FIFOs, sockets,
 * devices), depth first with entries sorted by name. Symlinks are never descended into (no cycles); callers check
 * where they point, and what each path is before they read it (openRegularFile).
 */
export async function* walkFiles(directory: string, signal: AbortSignal): AsyncGenerator<string> {
  signal.throwIfAborted();
  const entries = await readdir(directory, { withFileTypes: true });
  entries.sort(byName);
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!IGNORED_DIRECTORIES.includes(entry.name)) yield* walkFiles(path, signal);
    } else {
      yield path;
    }
  }
}

/** At most this many paths are named in a note; the rest are counted. */
const NAMED_IN_NOTES = 10;

/** "a, b, c" or "a, b, … and 5 more": the first few of `items`, for a note. */
export function listed(items: string[]): string {
  const more = items.length > NAMED_IN_NOTES ? ` and ${items.length - NAMED_IN_NOTES} more` : '';
  return `${items.slice(0, NAMED_IN_NOTES).join(', ')}${more}`;
}

/** The note a search tool adds when it skipped special files: "path (kind)" each, as fileKind names them. */
export function skippedSpecialFiles(skipped: string[]): string {
  const count = skipped.length === 1 ? '1 special file' : `${skipped.length} special files`;
  return `(Skipped ${count}, which the file tools never read: ${listed(skipped)}.)`;
}
