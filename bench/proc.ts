import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** `NAME=value` in a process's environment: every process a run starts inherits it, whatever its process group or session. */
export type Tag = string;

function environmentOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return ''; // gone, or not ours to read
  }
}

/** Running (not zombie) processes whose environment carries `tag`. */
export function taggedProcesses(tag: Tag): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    if (!environmentOf(pid).split('\0').includes(tag)) continue;
    if (!isZombie(pid)) found.push(Number(pid));
  }
  return found;
}

function isZombie(pid: string): boolean {
  try {
    return /^\d+ \(.*\) [ZX] /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Polls until no process carries `tag` or `withinMs` has passed; returns those still running. */
export async function survivors(tag: Tag, withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const left = taggedProcesses(tag);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await sleep(100);
  }
}

/** SIGKILLs what a run left behind, so that the soak itself leaves nothing running. */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Whether process `pid` has `path` open (one of /proc/PID/fd links to it). */
export function hasOpenFile(pid: number, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false; // closed meanwhile
      }
    });
  } catch {
    return false; // gone, or not ours to read
  }
}

/** Whether a thread of `pid` waits in open() for a FIFO's other end (Linux wchan `wait_for_partner`): a blocking open of a FIFO nobody writes. */
export function waitsOpeningFifo(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((task) => {
      try {
        return readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8') === 'wait_for_partner';
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** How process `pid` reads the FIFO `path`: `open` (it has it open), `opening` (a thread is stuck opening a FIFO), or undefined (not yet). */
export function fifoReading(pid: number, path: string): 'open' | 'opening' | undefined {
  if (hasOpenFile(pid, path)) return 'open';
  return waitsOpeningFifo(pid) ? 'opening' : undefined;
}
