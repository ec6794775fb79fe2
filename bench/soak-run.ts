/** One soak run: bin/zero with a scripted bash tool call, ended the way its plan says; what it printed and how it exited. */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ZERO = fileURLToPath(new URL('../../bin/zero', import.meta.url));

export const ENDINGS = ['complete', 'SIGINT', 'SIGTERM', 'SIGHUP', 'double', 'EPIPE', 'SIGKILL'] as const;
export type Ending = (typeof ENDINGS)[number];

export type Plan = {
  index: number;
  ending: Ending;
  /** After the first stdout line (run_start: zero's signal handlers are in place), how long to wait before the signal. */
  delayMs: number;
  /** EPIPE: how many lines to read before closing stdout (all of them come before the tool's result). */
  linesBeforeClose: number;
  /** The second signal of a double signal. */
  second: NodeJS.Signals;
};

export type Line = { text: string; at: number };

export type Observation = {
  plan: Plan;
  cwd: string;
  home: string;
  tag: string;
  lines: Line[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** When the (first) signal was sent, or undefined if the run ended first. */
  signalledAt?: number;
  /** Whether run_end had been read when the signal was sent. */
  runEndBeforeSignal: boolean;
  hung: boolean;
};

/** The bash command: writes its own pid and its background child's, then takes 3 s. */
const COMMAND = 'echo $$ > leader.pid; sleep 120 & echo $! > child.pid; sleep 3; echo done';
const RUN_LIMIT_MS = 60_000;

export function zeroEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(ZERO_|OPENAI_|ANTHROPIC_)/.test(name)) delete env[name];
  return { ...env, XDG_CONFIG_HOME: '/nonexistent/zero-soak-config', ZERO_HOME: home, ...extra };
}

/** Splits stdout into complete lines, each with the time it was read. */
function lineReader(lines: Line[], onLine: (count: number) => void): (chunk: string) => void {
  let partial = '';
  return (chunk) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    for (const text of parts) {
      lines.push({ text, at: performance.now() });
      onLine(lines.length);
    }
  };
}

export function startRun(plan: Plan, root: string): Promise<Observation> {
  const cwd = join(root, `run-${plan.index}`);
  mkdirSync(cwd);
  const script = join(cwd, '.script.jsonl');
  writeFileSync(script, `${JSON.stringify({ toolCalls: [{ id: 'b1', name: 'bash', args: { command: COMMAND } }] })}\n${JSON.stringify({ text: 'The command finished.' })}\n`);
  const tag = `ZERO_SOAK_RUN=${process.pid}-${plan.index}`;
  const [name, value] = tag.split('=') as [string, string];
  const home = join(root, 'home');
  const child = spawn(process.execPath, [ZERO, 'exec', '--provider', 'scripted', '--script', script, '--auto', 'high', '-o', 'stream-json', '-C', cwd, 'Run the slow command.'], {
    env: zeroEnv(home, { [name]: value }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const observation: Observation = { plan, cwd, home, tag, lines: [], code: null, signal: null, stderr: '', runEndBeforeSignal: false, hung: false };
  const running = () => child.exitCode === null && child.signalCode === null;
  const send = (signal: NodeJS.Signals) => {
    if (!running()) return;
    // Late or not is decided by the first signal: a double signal's second one comes after the run_end the first caused.
    if (observation.signalledAt === undefined) {
      observation.signalledAt = performance.now();
      observation.runEndBeforeSignal = observation.lines.some((line) => line.text.includes('"type":"run_end"'));
    }
    child.kill(signal);
  };
  const actions: Record<Ending, () => void> = {
    complete: () => {},
    EPIPE: () => {},
    SIGINT: () => send('SIGINT'),
    SIGTERM: () => send('SIGTERM'),
    SIGHUP: () => send('SIGHUP'),
    SIGKILL: () => send('SIGKILL'),
    double: () => {
      send('SIGINT');
      setTimeout(() => send(plan.second), 10);
    },
  };
  child.stdout.setEncoding('utf8').on(
    'data',
    lineReader(observation.lines, (count) => {
      if (count === 1) setTimeout(actions[plan.ending], plan.delayMs);
      if (plan.ending === 'EPIPE' && count === plan.linesBeforeClose) child.stdout.destroy();
    }),
  );
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (observation.stderr += chunk));
  const limit = setTimeout(() => {
    observation.hung = true;
    child.kill('SIGKILL');
  }, RUN_LIMIT_MS);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      resolve({ ...observation, code, signal });
    }),
  );
}
