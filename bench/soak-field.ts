/**
 * The soak's field scenarios (issue 25), each giving failure messages, or none:
 *
 *   full disk  a ZERO_HOME on a 64 KiB tmpfs (root only; skipped otherwise, saying so): a run that fills it
 *              mid-answer, then two more on the full disk: every one streams its whole answer, one warning,
 *              run_end success, exit 0; no session folder left empty
 *   flood      --multi-turn --permission-prompt stdio: while a permission_request waits, 100,000 messages of
 *              10 KB, then the answer: the answer lands and the peak RSS stays under 300 MB
 *
 * Linux only (/proc).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ZERO, zeroEnv } from './soak-run.js';

type Event = Record<string, unknown>;
export type FieldReport = { runs: number; failures: string[]; skipped: string[] };

const FLOOD_MESSAGES = Number(process.env.ZERO_SOAK_FLOOD ?? 100_000);
/** The flood's goal: the peak RSS (kB) of a run that receives FLOOD_MESSAGES while a permission_request waits. */
export const FLOOD_PEAK_KB = 300 * 1024;

function scriptFile(dir: string, turns: unknown[]): string {
  const file = join(dir, 'script.jsonl');
  writeFileSync(file, turns.map((turn) => JSON.stringify(turn)).join('\n') + '\n');
  return file;
}

/** Runs `zero exec` with stdin fed by `drive` (closed at once without one) (given each event as it is read); the events, the exit code and the peak RSS (kB). */
function converse(args: string[], home: string, drive?: (event: Event, send: (lines: Iterable<string>) => Promise<void>, end: () => void, pid: number) => void, opening = '') {
  const child = spawn(process.execPath, [ZERO, 'exec', ...args], { env: zeroEnv(home), stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.on('error', () => {});
  // without a client, the prompt is all the input
  if (!drive) child.stdin.end();
  else child.stdin.write(opening);
  const events: Event[] = [];
  const send = async (lines: Iterable<string>) => {
    for (const line of lines) if (!child.stdin.write(line)) await new Promise((resolve) => child.stdin.once('drain', resolve));
  };
  createInterface({ input: child.stdout }).on('line', (line) => {
    const event = JSON.parse(line) as Event;
    events.push(event);
    drive?.(event, send, () => child.stdin.end(), child.pid!);
  });
  return new Promise<{ events: Event[]; code: number | null }>((resolve) => child.on('close', (code) => resolve({ events, code })));
}

async function fullDisk(root: string, failures: string[], skipped: string[]): Promise<number> {
  if (process.getuid?.() !== 0) {
    skipped.push('full disk: mounting a tmpfs needs root');
    return 0;
  }
  const home = mkdtempSync(join(root, 'full-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', home]);
  const chunk = 'lorem ipsum dolor '.repeat(500);
  const big = scriptFile(root, [{ chunks: Array.from({ length: 20 }, () => chunk) }]);
  try {
    for (let run = 0; run < 3; run++) {
      const { events, code } = await converse(['-o', 'stream-json', '--provider', 'scripted', '--script', big, 'Write a lot.'], home, undefined);
      const text = events.filter((event) => event.type === 'text').map((event) => event.delta).join('');
      const warnings = events.filter((event) => event.type === 'warning').length;
      const end = events.at(-1);
      if (code !== 0 || text !== chunk.repeat(20) || warnings !== 1 || end?.type !== 'run_end' || end.status !== 'success') {
        failures.push(`full disk, run ${run + 1}: exit ${code}, ${text.length} characters of answer, ${warnings} warnings, last ${JSON.stringify(end)?.slice(0, 120)}`);
      }
    }
    const sessions = join(home, 'sessions');
    for (const id of readdirSync(sessions)) if (readdirSync(join(sessions, id)).length === 0) failures.push(`full disk: ${id} left empty`);
  } finally {
    execFileSync('umount', [home]);
    rmdirSync(home);
  }
  return 3;
}

/**
 * `messages` messages of 10 KB sent while a permission_request waits, then its answer: the decision made, the exit
 * code, and the peak RSS (kB) once the tool has run (bench/memory.ts prints it; the soak checks it).
 */
export async function floodDuringWait(root: string, messages = FLOOD_MESSAGES): Promise<{ decision?: Event; code: number | null; peakKb: number }> {
  const dir = mkdtempSync(join(root, 'flood-'));
  const script = scriptFile(dir, [{ toolCalls: [{ id: 'w1', name: 'write_file', args: { path: 'NOTES.md', content: 'w1\n' } }] }, ...Array.from({ length: 1000 }, () => ({ text: 'ok' }))]);
  const message = 'x'.repeat(10_000);
  let peakKb = 0;
  const say = (content: string) => `${JSON.stringify({ schemaVersion: 1, type: 'message', role: 'user', content })}\n`;
  const args = ['-i', 'stream-json', '--multi-turn', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, '--no-session', '--sandbox', 'read-only', '--disabled-tools', 'bash', '--permission-prompt', 'stdio'];
  const { events, code } = await converse(args, join(dir, '.home'), (event, send, end, pid) => {
    if (event.type === 'permission_request') {
      const flood = (function* () {
        for (let at = 0; at < messages; at++) yield say(`${at} ${message}`);
        yield `${JSON.stringify({ schemaVersion: 1, type: 'permission_response', id: event.id, decision: 'allow' })}\n`;
      })();
      void send(flood);
    }
    if (event.type === 'tool_result') {
      peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      end();
    }
  }, say('Write notes.'));
  return { decision: events.find((event) => event.type === 'permission_decision'), code, peakKb };
}

async function flood(root: string, failures: string[]): Promise<number> {
  const { decision, code, peakKb } = await floodDuringWait(root);
  if (decision?.action !== 'allow') failures.push(`flood: the answer did not land (${JSON.stringify(decision)})`);
  if (!(peakKb > 0 && peakKb < FLOOD_PEAK_KB)) failures.push(`flood: peak RSS ${Math.round(peakKb / 1024)} MB (goal: under ${FLOOD_PEAK_KB / 1024} MB)`);
  if (code !== 0) failures.push(`flood: exit ${code}`);
  return 1;
}

export async function soakField(root: string): Promise<FieldReport> {
  const failures: string[] = [];
  const skipped: string[] = [];
  const runs = (await fullDisk(root, failures, skipped)) + (await flood(root, failures));
  return { runs, failures, skipped };
}
