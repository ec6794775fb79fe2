/**
 * The soak's FIFO scenarios: named pipes nobody writes to, where zero reads. Each runs bin/zero and gives a failure
 * message, or nothing:
 *
 *   tools      grep (the FIFO named, a walk over it), glob, read_file, list_directory, edit_file and apply_patch on a
 *              FIFO and a symlink to one: every call answered, the run ends with run_end, exit 0
 *   -f         a FIFO as the text prompt, then SIGTERM twice: zero exits 143 within 3 s
 *   --script   a FIFO as the script, then SIGTERM twice: the same
 *   input      a FIFO as the stream-json input, the run started, then SIGTERM: error + run_end, exit 143
 *
 * Linux only (/proc, mkfifo).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fifoReading } from './proc.js';
import { ZERO, zeroEnv } from './soak-run.js';

type Event = Record<string, unknown>;
type Outcome = { code: number | null; signal: NodeJS.Signals | null; events: Event[]; hung: boolean; endedAfterSignalMs?: number };

/** Every signal path must end zero this soon after its first signal (the documented 3 s, with room for a busy machine). */
const SIGNAL_EXIT_MS = 4000;
const RUN_LIMIT_MS = 60_000;

function parse(stdout: string): Event[] {
  return stdout.split('\n').filter(Boolean).map((line) => {
    try {
      return JSON.parse(line) as Event;
    } catch {
      return { type: 'not JSON', line };
    }
  });
}

/** Runs zero; with `fifo` and `signals`, sends those (10 ms apart) once zero reads the FIFO (or after 20 s). */
function runZero(args: string[], home: string, fifo?: string, signals: NodeJS.Signals[] = []): Promise<Outcome> {
  const child = spawn(process.execPath, [ZERO, ...args], { env: zeroEnv(home), stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  let signalledAt: number | undefined;
  let hung = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  if (fifo) {
    void (async () => {
      const deadline = Date.now() + 20_000;
      while (!fifoReading(child.pid!, fifo) && Date.now() < deadline && child.exitCode === null) await sleep(20);
      signalledAt = performance.now();
      for (const signal of signals) {
        child.kill(signal);
        await sleep(10);
      }
    })();
  }
  const limit = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, RUN_LIMIT_MS);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      const endedAfterSignalMs = signalledAt === undefined ? undefined : performance.now() - signalledAt;
      resolve({ code, signal, events: parse(stdout), hung, endedAfterSignalMs });
    }),
  );
}

function endsWithRunEnd(events: Event[]): string | undefined {
  const ends = events.filter((event) => event.type === 'run_end').length;
  if (events.some((event) => event.type === 'not JSON')) return 'a stdout line is not JSON';
  return ends === 1 && events.at(-1)?.type === 'run_end' ? undefined : `${ends} run_end, stdout ends with ${String(events.at(-1)?.type ?? 'nothing')}`;
}

async function toolsOnFifos(dir: string, home: string): Promise<string | undefined> {
  writeFileSync(join(dir, 'notes.txt'), 'needle\n');
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  symlinkSync('pipe', join(dir, 'pipe-link'));
  const calls = [
    { name: 'grep', args: { pattern: 'needle', path: 'pipe' } },
    { name: 'grep', args: { pattern: 'needle', path: 'pipe-link' } },
    { name: 'grep', args: { pattern: 'needle' } },
    { name: 'glob', args: { pattern: '**/*' } },
    { name: 'read_file', args: { path: 'pipe' } },
    { name: 'read_file', args: { path: 'pipe-link' } },
    { name: 'list_directory', args: {} },
    { name: 'edit_file', args: { path: 'pipe', old_string: 'a', new_string: 'b' } },
    { name: 'apply_patch', args: { patch: '--- a/pipe\n+++ b/pipe\n@@ -1 +1 @@\n-a\n+b\n' } },
    { name: 'write_file', args: { path: 'pipe-link', content: 'x' } },
  ].map((call, index) => ({ id: `t${index + 1}`, ...call }));
  const script = join(dir, '.script.jsonl');
  writeFileSync(script, `${JSON.stringify({ toolCalls: calls })}\n${JSON.stringify({ text: 'Done.' })}\n`);
  const run = await runZero(['exec', '--provider', 'scripted', '--script', script, '--auto', 'high', '-o', 'stream-json', '-C', dir, 'Look at the pipe.'], home);
  if (run.hung) return `still running after ${RUN_LIMIT_MS / 1000} s`;
  const results = run.events.filter((event) => event.type === 'tool_result');
  if (results.length !== calls.length) return `${results.length} tool results for ${calls.length} calls`;
  // glob (t4) lists regular files only and has nothing to say; every other call names the FIFO it refused or skipped.
  const silent = results.filter((result) => result.id !== 't4' && !/FIFO/.test(String(result.output)));
  if (silent.length) return `a call on the FIFO did not say what it is: ${String(silent[0]?.id)}: ${String(silent[0]?.output).slice(0, 200)}`;
  return endsWithRunEnd(run.events) ?? (run.code === 0 ? undefined : `exit ${run.code}`);
}

/** zero reading `fifo` (nobody writes to it) gets `signals`; it must exit with `code` within SIGNAL_EXIT_MS. */
async function signalledWhileReading(args: string[], home: string, fifo: string, signals: NodeJS.Signals[], code: number, needsRunEnd: boolean): Promise<string | undefined> {
  execFileSync('mkfifo', [fifo]);
  const run = await runZero(args, home, fifo, signals);
  if (run.hung) return `still running after ${RUN_LIMIT_MS / 1000} s, though signalled`;
  if (run.code !== code) return `exit ${run.code ?? `by ${run.signal}`}, expected ${code}`;
  if ((run.endedAfterSignalMs ?? 0) > SIGNAL_EXIT_MS) return `exited ${Math.round(run.endedAfterSignalMs!)} ms after the signal`;
  // After a second signal the exit is immediate: what the first one began may be missing, but what was written is whole.
  if (needsRunEnd || run.events.length > 0) return endsWithRunEnd(run.events);
  return undefined;
}

export const FIFO_SCENARIOS: { name: string; run(dir: string, home: string): Promise<string | undefined> }[] = [
  { name: 'tools on a FIFO', run: toolsOnFifos },
  {
    name: '-f FIFO, SIGTERM twice',
    run: (dir, home) => signalledWhileReading(['exec', '--provider', 'scripted', '--script', '/dev/null', '--no-session', '-o', 'stream-json', '-C', dir, '-f', join(dir, 'prompt.fifo')], home, join(dir, 'prompt.fifo'), ['SIGTERM', 'SIGTERM'], 143, false),
  },
  {
    name: '--script FIFO, SIGTERM twice',
    run: (dir, home) => signalledWhileReading(['exec', '--provider', 'scripted', '--script', join(dir, 'script.fifo'), '--no-session', '-o', 'stream-json', '-C', dir, 'hi'], home, join(dir, 'script.fifo'), ['SIGTERM', 'SIGTERM'], 143, false),
  },
  {
    name: '-i stream-json -f FIFO, SIGTERM',
    run: (dir, home) => {
      const script = join(dir, '.script.jsonl');
      writeFileSync(script, `${JSON.stringify({ text: 'never asked' })}\n`);
      return signalledWhileReading(['exec', '-i', 'stream-json', '--provider', 'scripted', '--script', script, '--no-session', '-o', 'stream-json', '-C', dir, '-f', join(dir, 'events.fifo')], home, join(dir, 'events.fifo'), ['SIGTERM'], 143, true);
    },
  },
];

/** Runs each FIFO scenario `rounds` times in `root`; the failures, as lines for the report. */
export async function soakFifos(root: string, rounds: number): Promise<{ runs: number; failures: string[] }> {
  const failures: string[] = [];
  let runs = 0;
  for (let round = 0; round < rounds; round++) {
    for (const [index, scenario] of FIFO_SCENARIOS.entries()) {
      const dir = join(root, `fifo-${round}-${index}`);
      mkdirSync(dir, { recursive: true });
      runs++;
      const failure = await scenario.run(dir, join(root, 'home'));
      if (failure !== undefined) failures.push(`FIFO: ${scenario.name} (round ${round + 1}): ${failure}`);
    }
  }
  return { runs, failures };
}
