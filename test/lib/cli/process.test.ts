import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { survivors } from '../../helpers/processes.js';
import { cleanEnv, jsonLines, nth, writeScript, zero, ZERO } from '../../helpers/zero.js';

function slowScript(dir: string) {
  return writeScript(dir, [{ chunks: Array.from({ length: 50 }, (_, i) => `part ${i} `), delayMs: 100 }]);
}

/** Sends the signal once the run has visibly started streaming. */
function signalAfterFirstText(signal: NodeJS.Signals) {
  return (child: ChildProcess) => {
    let sent = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (!sent && String(chunk).includes('part 0')) {
        sent = true;
        child.kill(signal);
      }
    });
  };
}

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  t.test(`${signal} during a run: error cancelled, then run_end ${code}, and exit ${code}`, async (t) => {
    const dir = t.testdir({});
    const result = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', slowScript(dir), 'go'], { onSpawn: signalAfterFirstText(signal) });
    t.equal(result.code, code);
    const events = jsonLines(result.stdout);
    t.equal(events[0]?.type, 'run_start');
    t.ok(events.some((event) => event.type === 'text'), 'the text before the signal is kept');
    t.match(events.slice(-2), [
      { type: 'error', code: 'cancelled', recoverable: true, message: `Cancelled by ${signal}.` },
      { type: 'run_end', status: 'error', exitCode: code },
    ]);
    t.ok(events.filter((event) => event.type === 'text').length < 50, 'the run stopped early');
    t.equal(result.stderr, '');
  });
}

t.test('SIGINT in text mode: the message on stderr, exit 130', async (t) => {
  const dir = t.testdir({});
  const result = await zero(['exec', '--provider', 'scripted', '--script', slowScript(dir), 'go'], { onSpawn: signalAfterFirstText('SIGINT') });
  t.equal(result.code, 130);
  t.match(result.stdout, /^part 0 /);
  t.match(result.stdout, /\n$/);
  t.equal(result.stderr, '[zero] Cancelled by SIGINT.\n');
});

t.test('SIGTERM while waiting for stream-json input on stdin', async (t) => {
  const dir = t.testdir({});
  const script = writeScript(dir, [{ text: 'unused' }]);
  // --debug says on stderr when the run has started (signal handlers in place): the moment to send SIGTERM.
  const result = await zero(['exec', '--debug', '-i', 'stream-json', '-o', 'stream-json', '--provider', 'scripted', '--script', script], {
    onSpawn: (child) => {
      child.stdin?.write('{"schemaVersion":1,"type":"prompt","content":"more to come"}\n');
      child.stderr?.on('data', (chunk: Buffer) => {
        if (String(chunk).includes('prompt from stdin')) child.kill('SIGTERM');
      });
    },
  });
  t.equal(result.code, 143);
  t.match(jsonLines(result.stdout), [{ type: 'error', code: 'cancelled' }, { type: 'run_end', exitCode: 143 }]);
});

t.test('a reader that closes stdout early (| head -c 100): a quiet exit', async (t) => {
  const dir = t.testdir({});
  const script = writeScript(dir, [{ chunks: Array.from({ length: 20000 }, (_, i) => `chunk ${i} of a long answer. `) }]);
  const result = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, 'go'], {
    onSpawn: (child) => {
      let seen = 0;
      child.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen >= 100) child.stdout?.destroy();
      });
    },
  });
  t.equal(result.stderr, '', 'no stack trace, no message');
  t.equal(result.code, 141, 'the status of a writer whose reader went away');
});

/** The same file opened for writing, to give a spawned zero as its stdout: every write to /dev/full fails with ENOSPC. */
function devFull(t: Test): number {
  const fd = openSync('/dev/full', 'w');
  t.teardown(() => closeSync(fd));
  return fd;
}

const ENOSPC_MESSAGE = /^zero: cannot write to stdout: ENOSPC \(No space left on device\)\n$/;

/** A home of its own holding one session, and that run's stream-json log. */
async function recordedRun(t: Test) {
  const dir = t.testdir({});
  const env = cleanEnv({ ZERO_HOME: join(dir, 'home') });
  const script = writeScript(dir, [{ text: 'Hello from the log.' }]);
  const log = join(dir, 'run.jsonl');
  const recorded = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, 'go'], { env });
  writeFileSync(log, recorded.stdout);
  return { dir, env, script, log };
}

for (const format of ['text', 'json', 'stream-json']) {
  t.test(`exec -o ${format} with stdout on a full disk: a message on stderr, exit 1`, async (t) => {
    const { env, script } = await recordedRun(t);
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
for (const [name, args] of logCommands) {
  t.test(`${name} with stdout on a full disk: a message on stderr, exit 1`, async (t) => {
    const { env, log } = await recordedRun(t);
    t.equal((await zero(args(log), { env })).code, 0, 'it succeeds where it can write');
    const result = await zero(args(log), { env, stdout: devFull(t) });
    t.equal(result.code, 1);
    t.match(result.stderr, ENOSPC_MESSAGE);
  });
}

t.test('exec with stdout on a full disk while a bash tool runs: the tool is killed, the session ends with the failure', async (t) => {
  const dir = t.testdir({});
  const env = cleanEnv({ ZERO_HOME: join(dir, 'home') });
  const script = writeScript(dir, [{ toolCalls: [{ id: 'b1', name: 'bash', args: { command: 'echo $$ > group.pid; sleep 30 & echo $! > child.pid; wait' } }] }, { text: 'done' }]);
  const result = await zero(['exec', '-o', 'stream-json', '--auto', 'high', '--provider', 'scripted', '--script', script, '-C', dir, 'go'], { env, stdout: devFull(t) });
  t.equal(result.code, 1);
  t.match(result.stderr, ENOSPC_MESSAGE);
  // The first write fails as the tool starts: it is killed, or cancelled before it started.
  const pids = ['group.pid', 'child.pid'].map((name) => join(dir, name)).filter(existsSync).map((path) => Number(readFileSync(path, 'utf8')));
  t.same(await survivors(pids, pids.slice(0, 1)), [], 'nothing the tool started survives');
  const [session] = jsonLines((await zero(['sessions', 'list', '-o', 'json'], { env })).stdout);
  const stored = jsonLines((await zero(['sessions', 'show', String(session?.id), '-o', 'stream-json'], { env })).stdout);
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
