import { randomBytes } from 'node:crypto';
import { constants, readFileSync } from 'node:fs';
import { link, lstat, readFile, unlink, writeFile } from 'node:fs/promises';
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

/** A process's state (/proc/PID/stat field 3: `Z` for one killed and not yet reaped) and start time; undefined where it cannot be read. */
function statOf(pid: number): { state: string; start: string | undefined } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command name, which may hold spaces and parentheses: from field 3 (state) on
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, start: fields[19] };
  } catch {
    return undefined;
  }
}

/** When the process with this pid started (/proc/PID/stat field 22, in clock ticks since boot); undefined where it cannot be read. */
export function startTimeOf(pid: number): string | undefined {
  return statOf(pid)?.start;
}

/** Who holds a lock: a pid, and when that process started (absent in a lock written by an older version). */
type Holder = { pid: number; start?: string };

/** Whether the lock's process still runs: the pid, and (when the lock says) the same start time, so a reused pid does not count. */
function isAlive({ pid, start }: Holder): boolean {
  if (!isRunning(pid)) return false;
  const stat = statOf(pid);
  // killed (`kill -9`) and not yet reaped by its parent: it holds nothing, and `--resume` right after must not wait on it
  if (stat?.state === 'Z') return false;
  return start === undefined || stat?.start === undefined || stat.start === start;
}

const OUR_LOCK = `${process.pid} ${startTimeOf(process.pid) ?? ''}`.trimEnd() + '\n';

/**
 * Creates `file` holding our pid, exclusively: the content is written to a
 * temporary file first and hard-linked into place, which fails if `file` exists.
 * (Unlike open 'wx' then write, no one can ever read the lock empty.)
 */
async function createExclusive(file: string): Promise<boolean> {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // inside the try: a write that fails part way (a full disk) leaves no temporary file behind
    await writeFile(temp, OUR_LOCK, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    await link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** A lock zero did not write (a folder, other content): nobody can tell whether a run holds it. */
const badLock = (file: string, what: string) =>
  new UsageError(`The session lock ${file} is ${what}, not a lock zero wrote: remove it if no run is using the session.`);

/** Who holds a lock file; 'missing' if there is none. One that is not a lock is a UsageError naming it. */
async function holderOf(file: string): Promise<Holder | 'missing'> {
  let text;
  try {
    const stats = await lstat(file);
    if (!stats.isFile()) throw badLock(file, stats.isDirectory() ? 'a folder' : 'not a regular file');
    text = await readFile(file, { encoding: 'utf8', flag: constants.O_RDONLY | constants.O_NOFOLLOW });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  const found = /^(\d{1,10})(?: (\d{1,20}))?\n?$/.exec(text);
  if (!found) throw badLock(file, 'garbage');
  return { pid: Number(found[1]), ...(found[2] ? { start: found[2] } : {}) };
}

async function removeIfOurs(file: string): Promise<void> {
  const holder = await holderOf(file).catch(() => 'missing' as const);
  if (holder !== 'missing' && holder.pid === process.pid) await unlink(file).catch(() => undefined);
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
    if (holder !== 'missing' && !isAlive(holder)) await unlink(guard).catch(() => undefined);
    else await delay(RETRY_MS);
    return;
  }
  try {
    const holder = await holderOf(file);
    if (holder !== 'missing' && !isAlive(holder)) await unlink(file).catch(() => undefined);
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

/**
 * Takes the lock of the session in `dir`: a `lock` file created exclusively and
 * holding our pid and its start time. A lock held by a running process is a
 * UsageError naming it; one left by a process that is gone (or whose pid now
 * names another process) is taken over; one that is not a lock is a UsageError
 * naming the file to remove.
 */
export async function acquireLock(dir: string, id: string): Promise<SessionLock> {
  const file = join(dir, LOCK_FILE);
  let holder: Holder | 'missing' = 'missing';
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
    if (isAlive(holder)) break;
    await removeStale(file);
  }
  const by = holder !== 'missing' && isAlive(holder) ? ` (pid ${holder.pid})` : '';
  throw new UsageError(`Zero session ${id} is in use by another run${by}.`);
}
