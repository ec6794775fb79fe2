import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { survivors } from '../../helpers/processes.js';
import { zeroHere } from '../../helpers/cli.js';
import { cleanEnv, jsonLines, nth, writeScript, zero, ZERO } from '../../helpers/zero.js';

// deliver (lib/cli/process.ts) when stdout or stderr cannot be written: a full disk is a failure, never a success;
// a lost stderr changes nothing. What is checked runs as bin/zero (a real stdout, a real stderr); what prepares or
// reads back its results runs in this process.

/** The same file opened for writing, to give a spawned zero as its stdout: every write to /dev/full fails with ENOSPC. */
function devFull(t: Test): number {
  const fd = openSync('/dev/full', 'w');
  t.teardown(() => closeSync(fd));
  return fd;
}

const ENOSPC_MESSAGE = /^zero: cannot write to stdout: ENOSPC \(No space left on device\)\n$/;

/** A home of its own, for the sessions these tests record. */
function home(dir: string): NodeJS.ProcessEnv {
  return cleanEnv({ ZERO_HOME: join(dir, 'home') });
}

for (const format of ['text', 'json', 'stream-json']) {
  t.test(`exec -o ${format} with stdout on a full disk: a message on stderr, exit 1`, async (t) => {
    const dir = t.testdir({});
    const env = home(dir);
    const script = writeScript(dir, [{ text: 'Hello.' }]);
    const result = await zero(['exec', '-o', format, '--provider', 'scripted', '--script', script, 'go'], { env, stdout: devFull(t) });
    t.equal(result.code, 1);
    t.match(result.stderr, ENOSPC_MESSAGE);
  });
}

const logCommands: [string, (log: string) => string[]][] = [
  ['redact', (log) => ['redact', log]],
  ['validate', (log) => ['validate', log]],
  ['render', (log) => ['render', log]],
  ['sessions list', () => ['sessions', 'list']],
];
t.test('log commands with stdout on a full disk', async (t) => {
  // One recorded run (its session and its stream-json log) for all of them.
  const dir = t.testdir({});
  const env = home(dir);
  const log = join(dir, 'run.jsonl');
  const script = writeScript(dir, [{ text: 'Hello from the log.' }]);
  writeFileSync(log, (await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, 'go'], { env })).stdout);
  for (const [name, args] of logCommands) await t.test(`${name}: a message on stderr, exit 1`, async (t) => {
    t.equal((await zeroHere(args(log), { env })).code, 0, 'it succeeds where it can write');
    const result = await zero(args(log), { env, stdout: devFull(t) });
    t.equal(result.code, 1);
    t.match(result.stderr, ENOSPC_MESSAGE);
  });
});

t.test('exec with stdout on a full disk while a bash tool runs: the tool is killed, the session ends with the failure', async (t) => {
  const dir = t.testdir({});
  const env = home(dir);
  const script = writeScript(dir, [{ toolCalls: [{ id: 'b1', name: 'bash', args: { command: 'echo $$ > group.pid; sleep 30 & echo $! > child.pid; wait' } }] }, { text: 'done' }]);
  // unconfined: the pids the command records are the host's
  const result = await zero(['exec', '-o', 'stream-json', '--auto', 'high', '--sandbox', 'off', '--provider', 'scripted', '--script', script, '-C', dir, 'go'], { env, stdout: devFull(t) });
  t.equal(result.code, 1);
  t.match(result.stderr, ENOSPC_MESSAGE);
  // The first write fails as the tool starts: it is killed, or cancelled before it started.
  const pids = ['group.pid', 'child.pid'].map((name) => join(dir, name)).filter(existsSync).map((path) => Number(readFileSync(path, 'utf8')));
  t.same(await survivors(pids, pids.slice(0, 1)), [], 'nothing the tool started survives');
  const [session] = jsonLines((await zeroHere(['sessions', 'list', '-o', 'json'], { env })).stdout);
  const stored = jsonLines((await zeroHere(['sessions', 'show', String(session?.id), '-o', 'stream-json'], { env })).stdout);
  t.match(nth(stored, 'tool_result'), { status: 'error', output: /cancelled/ });
  t.match(stored.slice(-2), [
    { type: 'error', code: 'output_error', message: 'Cannot write to stdout: ENOSPC (No space left on device)' },
    { type: 'run_end', status: 'error', exitCode: 1 },
  ]);
});

/** A text-mode run that prints progress lines on stderr (the tool call and its result) around its answer. */
function toolRun(dir: string): string[] {
  const script = writeScript(dir, [{ text: 'let me look', toolCalls: [{ id: 'b1', name: 'bash', args: { command: 'echo hi' } }] }, { text: 'all done' }]);
  return ['exec', '--auto', 'high', '--provider', 'scripted', '--script', script, '-C', dir, 'go'];
}

t.test('stderr whose reader went away: the run goes on, stdout is whole, exit 0', async (t) => {
  const dir = t.testdir({});
  const result = await zero(toolRun(dir), { onSpawn: (child) => child.stderr?.destroy() });
  t.equal(result.code, 0);
  t.equal(result.stdout, 'let me look\nall done\n');
});

t.test('stderr closed (2>&-): the run goes on, stdout is whole, exit 0', async (t) => {
  const dir = t.testdir({});
  const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn('sh', ['-c', 'exec "$@" 2>&-', 'sh', process.execPath, ZERO, ...toolRun(dir)], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('close', (code) => resolve({ code, stdout }));
  });
  t.equal(result.code, 0);
  t.equal(result.stdout, 'let me look\nall done\n');
});

for (const args of [['--help'], ['--version'], ['exec', '--help']]) {
  t.test(`zero ${args.join(' ')} with stdout on a full disk: a message on stderr, exit 1 (as cat does)`, async (t) => {
    const result = await zero(args, { env: home(t.testdir({})), stdout: devFull(t) });
    t.equal(result.code, 1);
    t.match(result.stderr, ENOSPC_MESSAGE);
  });
}
