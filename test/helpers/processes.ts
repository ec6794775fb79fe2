import { existsSync, fstatSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fifoReading } from '../../bench/proc.js';
import { livingProcesses } from '../../lib/tools/process_group.js';

const POLL_MS = 20;
/** How long a process just sent SIGKILL may take to be gone on a busy machine: generous, it only bounds a failing test. */
const DYING_MS = 5000;

/** Whether the process runs: a zombie (dead, waiting to be collected) does not count. Linux only: reads /proc. */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX] /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The running processes whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  return livingProcesses()
    .filter((process) => process.group === pgid)
    .map((process) => process.pid);
}

/** The pids (and members of the groups) still running once dying ones had time to go. */
export async function survivors(pids: number[], groups: number[] = []): Promise<number[]> {
  const running = () => [...new Set([...pids.filter(isRunning), ...groups.flatMap(groupMembers)])];
  const deadline = Date.now() + DYING_MS;
  while (running().length > 0 && Date.now() < deadline) await sleep(POLL_MS);
  return running();
}

/** Waits until a file holds a number (a bash command writes a pid there) and returns it. */
export async function waitForPid(path: string): Promise<number> {
  for (;;) {
    const text = existsSync(path) ? readFileSync(path, 'utf8').trim() : '';
    if (/^\d+$/.test(text)) return Number(text);
    await sleep(POLL_MS);
  }
}

/** Waits until a file exists. */
export async function waitForFile(path: string): Promise<void> {
  while (!existsSync(path)) await sleep(POLL_MS);
}

/** The CPU time a process has used so far, all its threads, user and system, in ms. Linux only: reads /proc. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields 14 and 15 (utime, stime), in clock ticks of 1/100 s; after the ")" the fields start at the 3rd.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Waits until a process has used `ms` more CPU time than it had: it is computing, not waiting for input. */
export async function waitForCpuWork(pid: number, ms: number): Promise<void> {
  const target = cpuMs(pid) + ms;
  while (cpuMs(pid) < target) await sleep(POLL_MS);
}

/**
 * Waits until process `pid` reads the FIFO `path` (see fifoReading): `open`, or `opening` when a thread is stuck in
 * a blocking open() of it; `undefined` if neither came within `maxMs` (a slow start on a busy machine).
 */
export async function waitForFifoRead(pid: number, path: string, maxMs: number): Promise<'open' | 'opening' | undefined> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const reading = fifoReading(pid, path);
    if (reading || Date.now() > deadline) return reading;
    await sleep(POLL_MS);
  }
}

/** Whether file descriptor `fd` of this process is still open a moment later: a stream closes its file asynchronously. */
export async function stillOpen(fd: number, withinMs = 1000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      fstatSync(fd);
    } catch {
      return false;
    }
    if (Date.now() > deadline) return true;
    await sleep(10);
  }
}
