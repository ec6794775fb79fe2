import { randomBytes } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { UsageError } from '../errors.js';
import { PRIVATE_FILE_MODE } from './folders.js';
import { LOCK_FILE } from './paths.js';

/** A held session lock; unlock() removes the lock file (once; later calls do nothing). */
export type SessionLock = {
  readonly pid: number;
  readonly held: boolean;
  unlock(): Promise<void>;
};

const ATTEMPTS = 50;
const RETRY_MS = 10;

/** Whether a process with this pid exists (one we may not signal, EPERM, exists too). */
export function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates `file` holding our pid, exclusively: the content is written to a
 * temporary file first and hard-linked into place, which fails if `file` exists.
 * (Unlike open 'wx' then write, no one can ever read the lock empty.)
 */
async function createExclusive(file: string): Promise<boolean> {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, `${process.pid}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** The pid in a lock file; 'missing' if there is no file, NaN if it holds no pid. */
async function holderOf(file: string): Promise<number | 'missing'> {
  try {
    const text = await readFile(file, 'utf8');
    return /^\d+\s*$/.test(text) ? Number(text.trim()) : NaN;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}

async function removeIfOurs(file: string): Promise<void> {
  if ((await holderOf(file)) === process.pid) await unlink(file).catch(() => undefined);
}

/**
 * Removes a stale lock under a takeover guard, so two runs taking over the same
 * stale lock cannot remove each other's fresh one: only the guard's holder
 * unlinks, and only after seeing, under the guard, that the lock is still stale.
 */
async function removeStale(file: string): Promise<void> {
  const guard = `${file}.takeover`;
  if (!(await createExclusive(guard))) {
    const holder = await holderOf(guard);
    // A guard is held for a moment; one whose process is gone was left by a crash.
    if (holder !== 'missing' && !isRunning(holder)) await unlink(guard).catch(() => undefined);
    else await delay(RETRY_MS);
    return;
  }
  try {
    const holder = await holderOf(file);
    if (holder !== 'missing' && !isRunning(holder)) await unlink(file).catch(() => undefined);
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

/**
 * Takes the lock of the session in `dir`: a `lock` file created exclusively and
 * holding our pid. A lock held by a running process is a UsageError naming it;
 * one left by a process that is gone is taken over.
 */
export async function acquireLock(dir: string, id: string): Promise<SessionLock> {
  const file = join(dir, LOCK_FILE);
  let holder: number | 'missing' = 'missing';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await createExclusive(file)) {
      let held = true;
      return {
        pid: process.pid,
        get held() {
          return held;
        },
        async unlock() {
          if (!held) return;
          held = false;
          await removeIfOurs(file);
        },
      };
    }
    holder = await holderOf(file);
    if (holder === 'missing') continue;
    if (isRunning(holder)) break;
    await removeStale(file);
  }
  const by = typeof holder === 'number' && isRunning(holder) ? ` (pid ${holder})` : '';
  throw new UsageError(`Zero session ${id} is in use by another run${by}.`);
}
