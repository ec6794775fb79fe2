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
      signalGroup(pgid, new Set([pgid]), 'SIGKILL');
    } catch {
      // EPERM: the group id now belongs to someone else's processes; ours are gone.
    }
  }
}

/**
 * Ends every process in the group `pgid` (a child spawned with `detached: true` leads its own group), and every
 * process below it: SIGTERM, then SIGKILL for whatever still runs after `graceMs`. Resolves once none of them runs.
 */
export async function killProcessGroup(pgid: number, graceMs: number): Promise<void> {
  const sessions = new Set([pgid]);
  signalGroup(pgid, sessions, 'SIGTERM');
  if (await waitUntilGone(pgid, sessions, graceMs)) return;
  signalGroup(pgid, sessions, 'SIGKILL');
  await waitUntilGone(pgid, sessions, KILL_WAIT_MS);
}

/**
 * `signal` to the group `pgid`, to the members of `sessions`, and to every process below them; the sessions of
 * those are added to `sessions`. A tool leads a session as well as a group (detached: setsid). A command may move a
 * child to a group of its own (`timeout 60 make &`, `set -m`) without leaving the session; and bubblewrap's sandbox
 * runs in a session of its own below bwrap (`--new-session`), its PID namespace's init ignoring SIGTERM: found by
 * their parents while bwrap still lives, they are signalled themselves and watched by their session after.
 */
function signalGroup(pgid: number, sessions: Set<number>, signal: NodeJS.Signals): void {
  // the tree first: once the group's leader is signalled, its children may be handed to init before /proc is read
  const tree = processTree(livingProcesses(), (process) => process.group === pgid || sessions.has(process.session));
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
  for (const { pid, session } of tree) {
    sessions.add(session);
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
}

/** The processes `isRoot` picks, and every process below one of them (by parent, through any depth). */
function processTree(processes: ProcessIds[], isRoot: (process: ProcessIds) => boolean): ProcessIds[] {
  const children = new Map<number, ProcessIds[]>();
  for (const process of processes) {
    const siblings = children.get(process.parent);
    if (siblings) siblings.push(process);
    else children.set(process.parent, [process]);
  }
  const tree = processes.filter(isRoot);
  const inTree = new Set(tree.map((process) => process.pid));
  for (let next = 0; next < tree.length; next++) {
    for (const child of children.get(tree[next]!.pid) ?? []) {
      if (inTree.has(child.pid)) continue;
      inTree.add(child.pid);
      tree.push(child);
    }
  }
  return tree;
}

async function waitUntilGone(pgid: number, sessions: ReadonlySet<number>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await groupIsRunning(pgid, sessions)) {
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

async function groupIsRunning(pgid: number, sessions: ReadonlySet<number>): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPERM') return true;
    if (process.platform !== 'linux') return false;
  }
  // kill() also finds zombies: processes already dead that wait for their parent to collect them. Orphans are
  // collected by init, which in some containers does so only every few seconds; on Linux, /proc tells them apart.
  if (process.platform !== 'linux') return true;
  return livingProcesses().some((process) => process.group === pgid || sessions.has(process.session));
}

export type ProcessIds = { pid: number; parent: number; group: number; session: number };

/** Every process of the machine that is not a zombie, with its parent, group and session (Linux only: /proc). */
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
    const [state, parent, group, session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state !== 'Z' && state !== 'X') found.push({ pid: Number(entry), parent: Number(parent), group: Number(group), session: Number(session) });
  }
  return found;
}
