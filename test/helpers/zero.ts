import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath } from './repo.js';

export const ZERO = repoPath('bin/zero');

export type Result = { stdout: string; stderr: string; code: number | null; signal: NodeJS.Signals | null };

/** Sessions of test runs go here, never into the home directory of the machine running the tests. */
export const TEST_ZERO_HOME = join(tmpdir(), `zero-test-home-${process.pid}`);
// removed when the test process ends, however it ends its tests
process.once('exit', () => rmSync(TEST_ZERO_HOME, { recursive: true, force: true }));

/** An environment with no provider settings leaking in from the machine running the tests (variables or a user config file). */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(ZERO_|OPENAI_|ANTHROPIC_)/.test(name)) delete env[name];
  // tap sets FORCE_COLOR=0, which turns colour off even on a terminal: a test that wants colour sets it itself
  delete env.FORCE_COLOR;
  return { ...env, XDG_CONFIG_HOME: '/nonexistent/zero-test-config', ZERO_HOME: TEST_ZERO_HOME, ...extra };
}

export type ZeroOptions = {
  stdin?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  onSpawn?: (child: ChildProcess) => void;
  /** A file descriptor to give the process as its stdout (such as /dev/full opened), instead of a pipe read here. */
  stdout?: number;
};

/** Spawns bin/zero and collects what it printed and how it exited. */
export function zero(args: string[], options: ZeroOptions = {}): Promise<Result> {
  const child = spawn(process.execPath, [ZERO, ...args], { cwd: options.cwd, env: options.env ?? cleanEnv(), stdio: ['pipe', options.stdout ?? 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin!.on('error', () => {});
  // zero exec with no prompt words reads stdin: it ends at once unless the test feeds it (stdin, or onSpawn)
  if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  else if (!options.onSpawn) child.stdin!.end();
  options.onSpawn?.(child);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ stdout, stderr, code, signal })));
}

/** Writes a scripted-provider script (one turn per line) and returns its path. */
export function writeScript(dir: string, turns: unknown[], name = 'script.jsonl'): string {
  const path = join(dir, name);
  writeFileSync(path, turns.map((turn) => JSON.stringify(turn)).join('\n') + '\n');
  return path;
}

export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}


/**
 * The event types in order, consecutive `text` events counted as one: redaction may
 * hold back and re-split deltas, and only their concatenation is promised.
 */
export function eventTypes(events: Record<string, unknown>[]): unknown[] {
  return events.map((event) => event.type).filter((type, index, all) => !(type === 'text' && all[index - 1] === 'text'));
}

/** The concatenated text of the `text` events. */
export function streamedText(events: Record<string, unknown>[]): string {
  return events.filter((event) => event.type === 'text').map((event) => event.delta).join('');
}

/** The n-th event of a type. */
export function nth(events: Record<string, unknown>[], type: string, n = 0): Record<string, unknown> | undefined {
  return events.filter((event) => event.type === type)[n];
}

/** A fresh directory of its own, removed at the end of the test (t.testdir gives one directory per test). */
export function tempDir(t: { teardown(fn: () => void): void }, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'zero-test-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
