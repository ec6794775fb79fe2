import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 25;
/** How long to wait, after SIGKILL, for the groups to be gone before giving up on them. */
const KILL_WAIT_MS = 5000;

/** Process groups of tools still running (or being killed): whatever ends the process kills them first. */
const runningGroups = new Set<readonly number[]>();

/** Notes a tool's process groups as running until the returned function is called; the tool may add to the list. */
export function trackProcessGroups(groups: readonly number[]): () => void {
  runningGroups.add(groups);
  return () => runningGroups.delete(groups);
}

/** SIGKILL to every tracked group: a second signal hurries the end, and nothing survives an exit. */
export function killRunningGroups(): void {
  signalGroups(doomed([...runningGroups].flat()), 'SIGKILL');
}

/** What is being ended: the groups, the sessions found below them, and each process found, by pid and start time. */
type Doomed = { groups: readonly number[]; sessions: Set<number>; found: Map<number, string> };

const doomed = (groups: readonly number[]): Doomed => ({ groups, sessions: new Set(groups), found: new Map() });

const isDoomed = (target: Doomed, process: ProcessIds) =>
  target.groups.includes(process.group) || target.sessions.has(process.session) || target.found.get(process.pid) === process.started;

/**
 * Ends every process in the groups `groups` (a child spawned with `detached: true` leads its own group), and every
 * process below them: SIGTERM, then SIGKILL for whatever still runs after `graceMs`. Resolves once none of them runs.
 */
export async function killProcessGroups(groups: readonly number[], graceMs: number): Promise<void> {
  const target = doomed(groups);
  signalGroups(target, 'SIGTERM');
  if (await waitUntilGone(target, graceMs)) return;
  signalGroups(target, 'SIGKILL');
  await waitUntilGone(target, KILL_WAIT_MS);
}

/**
 * `signal` to the groups, and to every process of theirs or below them; each is noted, by its pid and its start
 * time, with its session. A tool leads a session as well as a group (detached: setsid). A command may move a child
 * to a group of its own (`timeout 60 make &`, `set -m`) without leaving the session; and bubblewrap's sandbox runs in
 * a session of its own below bwrap (`--new-session`), its PID namespace's init ignoring SIGTERM and left to init if
 * bwrap ends first: found by their parents while bwrap still lives, they are signalled themselves and watched by
 * their pid and their session after.
 */
function signalGroups(target: Doomed, signal: NodeJS.Signals): void {
  // the tree first: once the group's leader is signalled, its children may be handed to init before /proc is read
  const tree = processTree(livingProcesses(), (process) => isDoomed(target, process));
  for (const pgid of target.groups) {
    try {
      process.kill(-pgid, signal);
    } catch {
      // ESRCH: gone already; EPERM: the id now belongs to someone else's processes, so ours are gone.
    }
  }
  for (const { pid, session, started } of tree) {
    target.sessions.add(session);
    target.found.set(pid, started);
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

async function waitUntilGone(target: Doomed, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(target)) {
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

function isRunning(target: Doomed): boolean {
  if (process.platform === 'linux') {
    // kill() also finds zombies: processes already dead that wait for their parent to collect them. Orphans are
    // collected by init, which in some containers does so only every few seconds; on Linux, /proc tells them apart.
    return livingProcesses().some((process) => isDoomed(target, process));
  }
  return target.groups.some((pgid) => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  });
}

/** `started`: the start time since boot, in clock ticks; with the pid, it names one process (pids are reused). */
export type ProcessIds = { pid: number; parent: number; group: number; session: number; started: string };

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
    // "pid (comm) state ppid pgrp session ... starttime(22nd) ...": comm may hold spaces and parentheses, so split
    // after the last ")", where the 3rd field starts.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [state, parent, group, session] = fields;
    if (state !== 'Z' && state !== 'X') found.push({ pid: Number(entry), parent: Number(parent), group: Number(group), session: Number(session), started: fields[19]! });
  }
  return found;
}
