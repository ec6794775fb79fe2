/** What the soak test checks after each run; each check gives a failure message, or nothing. */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { survivors } from './proc.js';
import { ZERO, zeroEnv, type Observation, type Plan } from './soak-run.js';

export const CHECKS = ['run_end', 'exit', 'orphans', 'session', 'resume'] as const;
export type Check = (typeof CHECKS)[number];

export type Verdicts = {
  plan: Plan;
  /** A signal ending whose run had ended, or written run_end, before the signal: it is checked as a completed run. */
  late: boolean;
  failures: Partial<Record<Check, string>>;
  skipped: Check[];
};

type Event = Record<string, unknown>;
type Parsed = { events: Event[]; damaged: number[] };

/** A run ended by SIGKILL leaves what it left: no run_end, and children nobody could end. */
const ORPHAN_GRACE_MS = 3000;
/** The durability promise: an event streamed this long before a SIGKILL is in the session. */
const DURABLE_AFTER_MS = 100;
const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129, double: 130 };

function parseLines(texts: string[]): Parsed {
  const parsed: Parsed = { events: [], damaged: [] };
  texts.forEach((text, index) => {
    try {
      parsed.events.push(JSON.parse(text) as Event);
    } catch {
      parsed.damaged.push(index + 1);
    }
  });
  return parsed;
}

const describe = (event: Event | undefined) => (event === undefined ? 'nothing' : String(event.type));

function isLate(run: Observation): boolean {
  if (run.plan.ending === 'complete' || run.plan.ending === 'EPIPE') return false;
  return run.signalledAt === undefined || run.runEndBeforeSignal;
}

function checkRunEnd(run: Observation, stream: Parsed): string | undefined {
  if (run.hung) return 'still running after 60 s (then SIGKILLed)';
  if (stream.damaged.length > 0) return `stdout line ${stream.damaged[0]} is not JSON`;
  const ends = stream.events.filter((event) => event.type === 'run_end').length;
  if (ends !== 1) return `${ends} run_end events (stdout ends with ${describe(stream.events.at(-1))})`;
  if (stream.events.at(-1)?.type !== 'run_end') return `run_end is not the last line (then ${describe(stream.events.at(-1))})`;
  return undefined;
}

function exitLabel(run: Observation): string {
  return run.code === null ? `killed by ${run.signal}` : `exit ${run.code}`;
}

function checkExit(run: Observation, stream: Parsed, late: boolean): string | undefined {
  if (run.hung) return 'never exited';
  if (run.plan.ending === 'EPIPE') return run.code === 141 ? undefined : `${exitLabel(run)}, expected 141 after EPIPE`;
  const end = stream.events.filter((event) => event.type === 'run_end').at(-1);
  if (end !== undefined && end.exitCode !== run.code) return `${exitLabel(run)} but run_end says ${String(end.exitCode)}`;
  const expected = late || run.plan.ending === 'complete' || end?.status === 'success' ? 0 : SIGNAL_EXIT_CODES[run.plan.ending];
  return run.code === expected ? undefined : `${exitLabel(run)}, expected ${expected}`;
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '?';
  }
}

async function checkOrphans(run: Observation): Promise<string | undefined> {
  const left = await survivors(run.tag, ORPHAN_GRACE_MS);
  if (left.length === 0) return undefined;
  return `still running ${ORPHAN_GRACE_MS / 1000} s after zero exited: ${left.map((pid) => `${pid} (${commandLine(pid)})`).join(', ')}`;
}

function readSession(run: Observation, sessionId: string): Parsed | string {
  try {
    const text = readFileSync(join(run.home, 'sessions', sessionId, 'events.jsonl'), 'utf8');
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return parseLines(lines);
  } catch (error) {
    return `events.jsonl unreadable: ${(error as Error).message}`;
  }
}

/** Index of the first event where the two lists disagree (or where the shorter one ends). */
function firstDifference(a: Event[], b: Event[]): number {
  let index = 0;
  while (index < a.length && index < b.length && isDeepStrictEqual(a[index], b[index])) index++;
  return index;
}

function compareEvents(run: Observation, stream: Parsed, kept: Event[], late: boolean): string | undefined {
  const streamed = stream.events;
  const agreeUpTo = firstDifference(kept, streamed);
  const mismatch = `session and stream differ at event ${agreeUpTo + 1} (session: ${describe(kept[agreeUpTo])}, stream: ${describe(streamed[agreeUpTo])})`;
  if (run.plan.ending === 'SIGKILL' && !late) {
    const durable = run.lines.filter((line) => line.at <= run.signalledAt! - DURABLE_AFTER_MS).length;
    if (agreeUpTo < Math.min(kept.length, streamed.length)) return mismatch;
    return kept.length >= durable ? undefined : `${kept.length} events kept, but ${durable} were streamed more than ${DURABLE_AFTER_MS} ms before SIGKILL`;
  }
  if (run.plan.ending === 'EPIPE') {
    if (agreeUpTo < streamed.length) return mismatch;
    return kept.at(-1)?.type === 'run_end' ? undefined : `the session ends with ${describe(kept.at(-1))}, not run_end`;
  }
  return agreeUpTo === kept.length && agreeUpTo === streamed.length ? undefined : `${kept.length} events kept, ${streamed.length} streamed; ${mismatch}`;
}

function checkSession(run: Observation, stream: Parsed, late: boolean): string | undefined {
  const start = stream.events[0];
  if (start?.type !== 'run_start') return 'no run_start on stdout';
  const session = readSession(run, String(start.sessionId));
  if (typeof session === 'string') return session;
  const tornTail = run.plan.ending === 'SIGKILL' && session.damaged.length === 1 && session.damaged[0] === session.events.length + 1;
  if (session.damaged.length > 0 && !tornTail) return `events.jsonl: damaged line(s) ${session.damaged.join(', ')}`;
  return compareEvents(run, stream, session.events.filter((event) => event.runId === start.runId), late);
}

function runZero(args: string[], home: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ZERO, ...args], { env: zeroEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const limit = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr });
    });
  });
}

async function checkResume(run: Observation, stream: Parsed): Promise<string | undefined> {
  const sessionId = stream.events[0]?.sessionId;
  if (typeof sessionId !== 'string') return 'no session id to resume';
  const script = join(run.cwd, '.resume.jsonl');
  writeFileSync(script, `${JSON.stringify({ text: 'Still here.' })}\n`);
  const resumed = await runZero(['exec', '--resume', sessionId, '--provider', 'scripted', '--script', script, '-o', 'stream-json', '-C', run.cwd, 'Are you there?'], run.home);
  const events = parseLines(resumed.stdout.split('\n').filter(Boolean)).events;
  if (resumed.code === 0 && events[0]?.sessionId === sessionId && events.at(-1)?.type === 'run_end') return undefined;
  const why = events.find((event) => event.type === 'error')?.message ?? resumed.stderr.split('\n')[0];
  return `--resume ${sessionId}: exit ${resumed.code}: ${String(why)}`;
}

/** Every check that applies to this run's ending. */
export async function checkRun(run: Observation): Promise<Verdicts> {
  const late = isLate(run);
  const killed = run.plan.ending === 'SIGKILL' && !late;
  const stream = parseLines(run.lines.map((line) => line.text));
  const checks: [Check, boolean, () => string | undefined | Promise<string | undefined>][] = [
    ['run_end', !killed && run.plan.ending !== 'EPIPE', () => checkRunEnd(run, stream)],
    ['exit', !killed, () => checkExit(run, stream, late)],
    ['orphans', !killed, () => checkOrphans(run)],
    ['session', true, () => checkSession(run, stream, late)],
    ['resume', true, () => checkResume(run, stream)],
  ];
  const skipped: Check[] = [];
  const failures: Partial<Record<Check, string>> = {};
  for (const [check, applies, outcome] of checks) {
    if (!applies) {
      skipped.push(check);
      continue;
    }
    const failure = await outcome();
    if (failure !== undefined) failures[check] = failure;
  }
  return { plan: run.plan, late, failures, skipped };
}
