import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 25;
/** How long to wait, after SIGKILL, for the group to be gone before giving up on it. */
const KILL_WAIT_MS = 5000;

/** Process groups of tools still running (or being killed): whatever ends the process kills them first. */
const runningGroups = new Set<number>();

/** Notes a tool's process group as running until the returned function is called. */
export function trackProcessGroup(pgid: number): () => void {
  runningGroups.add(pgid);
  return () => runningGroups.delete(pgid);
}

/** SIGKILL to every tracked group: a second signal hurries the end, and nothing survives an exit. */
export function killRunningGroups(): void {
  for (const pgid of runningGroups) {
    try {
      signalGroup(pgid, 'SIGKILL');
    } catch {
      // EPERM: the group id now belongs to someone else's processes; ours are gone.
    }
  }
}

/**
 * Ends every process in the group `pgid` (a child spawned with `detached: true` leads its own group):
 * SIGTERM, then SIGKILL for whatever still runs after `graceMs`. Resolves once none of them runs.
 */
export async function killProcessGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  if (await waitUntilGone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitUntilGone(pgid, KILL_WAIT_MS);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
  // A tool leads a session as well as a group (detached: setsid). A command may move a child to a group of
  // its own (`timeout 60 make &`, `set -m`) without leaving the session, so the session's members go too.
  for (const { pid } of livingProcesses().filter((process) => process.session === pgid)) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
}

async function waitUntilGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await groupIsRunning(pgid)) {
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

async function groupIsRunning(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPERM') return true;
    if (process.platform !== 'linux') return false;
  }
  // kill() also finds zombies: processes already dead that wait for their parent to collect them. Orphans are
  // collected by init, which in some containers does so only every few seconds; on Linux, /proc tells them apart.
  if (process.platform !== 'linux') return true;
  return livingProcesses().some((process) => process.group === pgid || process.session === pgid);
}

export type ProcessIds = { pid: number; group: number; session: number };

/** Every process of the machine that is not a zombie, with its group and session (Linux only: /proc). */
export function livingProcesses(): ProcessIds[] {
  if (process.platform !== 'linux') return [];
  const found: ProcessIds[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat = '';
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses, so split after the last ")".
    const [state, , group, session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state !== 'Z' && state !== 'X') found.push({ pid: Number(entry), group: Number(group), session: Number(session) });
  }
  return found;
}
