import { constants } from 'node:fs';
import { chmod, lstat, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';

/** Sessions hold prompts, file contents and command output: readable by their owner only, whatever the umask. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Deeper than any real path: the walk up to an existing folder is bounded. */
const MAX_DEPTH = 256;

export const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException)?.code;

const PROBLEMS: Record<string, string> = {
  ENOTDIR: 'part of that path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOENT: 'a folder cannot be created there',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'too many symbolic links',
  EISDIR: 'a folder stands where a file should be',
};

/**
 * A failure of the session store's file system as a configuration error (exit 2)
 * naming the path and what is wrong; an error that is not a file-system one is returned as it is.
 */
export function storeError(path: string, error: unknown): unknown {
  const code = errnoOf(error);
  if (!code || error instanceof UsageError) return error;
  const problem = PROBLEMS[code] ?? code;
  return new UsageError(`Cannot use the session store at ${path}: ${problem} (${code}). Set ZERO_HOME to a writable folder, or pass --no-session.`, { cause: error });
}

/**
 * Flags for the files of a session: a symbolic link there (planted to make zero write or read elsewhere) is
 * refused by open() itself (ELOOP), not followed.
 */
export const NO_FOLLOW = {
  read: constants.O_RDONLY | constants.O_NOFOLLOW,
  append: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
  readAppend: constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
};

const linkRefused = (path: string) =>
  new UsageError(`${path} is a symbolic link: zero follows no links inside its session store. Remove it, or move the real file there.`);

/** An error of opening `path` with NO_FOLLOW, with a link said to be one. */
export function openError(path: string, error: unknown): unknown {
  return errnoOf(error) === 'ELOOP' ? linkRefused(path) : error;
}

/** Refuses a session folder that is a symbolic link (O_NOFOLLOW covers only the last part of a path). */
export async function assertNotLink(path: string): Promise<void> {
  const stats = await lstat(path).catch(() => undefined);
  if (stats?.isSymbolicLink()) throw linkRefused(path);
}

/** Failures of the disk itself: the store cannot take more now, whatever the run does. */
const DISK_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO', 'EROFS']);

/** What is wrong with the disk that made `error` (also through a storeError's cause), or undefined when it is not the disk. */
export function diskFailure(error: unknown): string | undefined {
  // a storeError is a UsageError, whose own code (`usage_error`) says nothing of the disk: its cause does
  const code = [errnoOf(error), errnoOf((error as { cause?: unknown })?.cause)].find((found) => found !== undefined && DISK_FAILURES.has(found));
  if (!code) return undefined;
  return `${PROBLEMS[code] ?? 'the disk failed'} (${code})`;
}

/**
 * Creates `dir` and its missing parents with mode 0700, then sets `dir` itself to
 * 0700 (a folder that existed with a wider mode is narrowed). Node's own
 * recursive mkdir loops forever on some paths (under /proc); this walk is bounded.
 */
export async function makePrivateDir(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let current = dir; missing.length < MAX_DEPTH; current = dirname(current)) {
    try {
      if (!(await stat(current)).isDirectory()) throw Object.assign(new Error(`${current} is not a folder`), { code: 'ENOTDIR' });
      break;
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT' || dirname(current) === current) throw error;
      missing.push(current);
    }
  }
  for (const folder of missing.reverse()) {
    await mkdir(folder, { mode: PRIVATE_DIR_MODE }).catch((error) => {
      if (errnoOf(error) !== 'EEXIST') throw error;
    });
  }
  await chmod(dir, PRIVATE_DIR_MODE);
}
