import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { readRegularFile } from '../files/bounded.js';
import { NotRegularFileError } from '../files/open.js';
import { looksBinary } from './text_file.js';

/** The largest file edit_file and apply_patch change: each holds the whole file, and its new content, in memory. */
export const MAX_EDITABLE_BYTES = 32 * 1024 * 1024;

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
  if (!stats.isFile()) throw new NotRegularFileError(shownPath, stats);
  // Unlike a symlink, a hard link does not say where its other names are: one may be outside the allowed directories.
  if (stats.nlink > 1) {
    throw new Error(`"${shownPath}" has ${stats.nlink} hard links, and another of its names may be outside the working directory; write tools do not change hard-linked files (copy it to a file of its own first).`);
  }
  return stats;
}

/**
 * The UTF-8 text of the file at `path` and its stats, or null when there is none. Binary files, files over
 * MAX_EDITABLE_BYTES and anything but a regular file (checked on the file opened) are refused.
 */
export async function readEditableText(path: string, shownPath: string): Promise<{ text: string; stats: Stats } | null> {
  if (!(await statWritable(path, shownPath))) return null;
  const tooLarge = (size?: number) =>
    new Error(`"${shownPath}" is ${size === undefined ? 'larger' : `${size} bytes`}; edit_file and apply_patch change files of at most ${MAX_EDITABLE_BYTES} bytes (32 MiB): use bash (sed, a script) for larger ones.`);
  const { bytes, stats } = await readRegularFile(path, shownPath, MAX_EDITABLE_BYTES, tooLarge);
  if (looksBinary(bytes)) throw new Error(`"${shownPath}" is a binary file; only text files can be edited.`);
  return { text: bytes.toString('utf8'), stats };
}
