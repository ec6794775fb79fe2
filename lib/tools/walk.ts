import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories no search tool descends into. */
export const IGNORED_DIRECTORIES: readonly string[] = ['.git', 'node_modules'];

/** Orders directory entries by name, by code unit so the order does not depend on the locale. */
export function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Yields the absolute paths of the files under `directory`, depth first with entries sorted by name.
 * Symlinks are yielded as files and never descended into (no cycles); callers check where they point.
 */
export async function* walkFiles(directory: string, signal: AbortSignal): AsyncGenerator<string> {
  signal.throwIfAborted();
  const entries = await readdir(directory, { withFileTypes: true });
  entries.sort(byName);
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!IGNORED_DIRECTORIES.includes(entry.name)) yield* walkFiles(path, signal);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      yield path;
    }
  }
}
