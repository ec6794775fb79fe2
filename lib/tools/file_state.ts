import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { isBinaryFile } from './text_file.js';

/**
 * What a write tool finds at `path` (a real path, from resolveWritable): undefined when nothing is there yet,
 * else the stats of a regular file. Directories, special files and files with more than one hard link are
 * refused; `shownPath` names it in errors.
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
  // Unlike a symlink, a hard link does not say where its other names are: one may be outside the allowed directories.
  if (stats.nlink > 1) {
    throw new Error(`"${shownPath}" has ${stats.nlink} hard links, and another of its names may be outside the working directory; write tools do not change hard-linked files (copy it to a file of its own first).`);
  }
  return stats;
}

/** The UTF-8 text of the file at `path` and its stats, or null when there is none; binary files are refused. */
export async function readEditableText(path: string, shownPath: string): Promise<{ text: string; stats: Stats } | null> {
  const stats = await statWritable(path, shownPath);
  if (!stats) return null;
  if (await isBinaryFile(path)) throw new Error(`"${shownPath}" is a binary file; only text files can be edited.`);
  return { text: await readFile(path, 'utf8'), stats };
}
