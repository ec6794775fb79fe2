import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { isBinaryFile } from './text_file.js';

/**
 * What a write tool finds at `path` (a real path, from resolveWritable): undefined when nothing is there yet,
 * else the stats of a regular file. Directories and special files are refused; `shownPath` names it in errors.
 */
export async function statWritable(path: string, shownPath: string): Promise<Stats | undefined> {
  let stats: Stats;
  try {
    stats = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  if (stats.isDirectory()) throw new Error(`"${shownPath}" is a directory.`);
  if (!stats.isFile()) throw new Error(`"${shownPath}" is not a regular file.`);
  return stats;
}

/** The UTF-8 text of the file at `path`, or null when there is none; binary files are refused. */
export async function readEditableText(path: string, shownPath: string): Promise<string | null> {
  if (!(await statWritable(path, shownPath))) return null;
  if (await isBinaryFile(path)) throw new Error(`"${shownPath}" is a binary file; only text files can be edited.`);
  return readFile(path, 'utf8');
}
