import { once } from 'node:events';
import t, { type Test } from 'tap';
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { survivors, waitForFifoRead, waitForFile, waitForPid } from '../../helpers/processes.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { cleanEnv, eventTypes, jsonLines, nth, writeScript, zero } from '../../helpers/zero.js';

// zero exec under signals and a vanished reader: run_end is still written (or, stdout gone, the session still
// records it), and no process a bash tool started outlives the run.

type Run = { dir: string; script: string; env: NodeJS.ProcessEnv };

/** A run whose model asks for one bash command, then says "done"; its sessions go to a home of its own. */
function bashRun(t: Test, command: string, before: Record<string, unknown> = {}): Run {
  const dir = t.testdir({});
  const script = writeScript(dir, [{ ...before, toolCalls: [{ id: 'b1', name: 'bash', args: { command } }] }, { text: 'done' }], '.script.jsonl');
  return { dir, script, env: cleanEnv({ ZERO_HOME: join(dir, '.home') }) };
}

/** Unconfined (--sandbox off): the pids the command records are the host's; the sandboxed case is in exec.sandbox.test.ts. */
function exec(run: Run, onSpawn: (child: ChildProcess) => void) {
  return zero(['exec', '-o', 'stream-json', '--auto', 'high', '--sandbox', 'off', '--provider', 'scripted', '--script', run.script, '-C', run.dir, 'go'], { env: run.env, onSpawn });
}

/** The events the run's session holds, read back with zero sessions show. */
async function storedEvents(t: Test, run: Run) {
  const list = jsonLines((await zero(['sessions', 'list', '-o', 'json'], { env: run.env })).stdout);
  t.equal(list.length, 1, 'one session');
  const shown = await zero(['sessions', 'show', String(list[0]?.id), '-o', 'stream-json'], { env: run.env });
  return jsonLines(shown.stdout);
}

// The command records its process group (bash's own pid: tools run in a group of their own) and a background child.
const RECORD_PIDS = 'echo $$ > group.pid; sleep 30 & echo $! > child.pid';

for (const [signal, code] of [['SIGHUP', 129], ['SIGINT', 130], ['SIGTERM', 143]] as const) {
  t.test(`${signal} while bash runs: cancelled, run_end ${code}, exit ${code}, no process left`, async (t) => {
    const run = bashRun(t, `${RECORD_PIDS}; wait`);
    const result = await exec(run, (child) => void waitForPid(join(run.dir, 'child.pid')).then(() => child.kill(signal)));
    t.equal(result.code, code);
    const events = jsonLines(result.stdout);
    t.same(eventTypes(events), ['run_start', 'warning', 'tool_call', 'tool_result', 'error', 'run_end']);
    t.match(events.slice(-2), [
      { type: 'error', code: 'cancelled', recoverable: true, message: `Cancelled by ${signal}.` },
      { type: 'run_end', status: 'error', exitCode: code },
    ]);
    const group = await waitForPid(join(run.dir, 'group.pid'));
    t.same(await survivors([await waitForPid(join(run.dir, 'child.pid'))], [group]), [], 'no process of the group survives');
  });
}

t.test('a second SIGINT hurries the end but never skips it, even when the command ignores SIGTERM', async (t) => {
  // bash traps TERM (it notes it got one); its child ignores TERM altogether: only SIGKILL ends it.
  const run = bashRun(t, `trap 'echo > term.seen' TERM; echo $$ > group.pid; (trap '' TERM; exec sleep 30) & echo $! > child.pid; wait; wait`);
  const result = await exec(run, (child) => {
    void (async () => {
      await waitForPid(join(run.dir, 'child.pid'));
      child.kill('SIGINT');
      // zero got the first SIGINT and sent SIGTERM to the group: now the second one.
      await waitForFile(join(run.dir, 'term.seen'));
      child.kill('SIGINT');
    })();
  });
  t.equal(result.code, 130);
  const events = jsonLines(result.stdout);
  t.same(eventTypes(events), ['run_start', 'warning', 'tool_call', 'tool_result', 'error', 'run_end']);
  t.match(nth(events, 'tool_result'), { status: 'error', output: /cancelled/ });
  t.match(events.slice(-2), [{ type: 'error', code: 'cancelled', message: 'Cancelled by SIGINT.' }, { type: 'run_end', exitCode: 130 }]);
  t.equal(events.filter((event) => event.type === 'run_end').length, 1, 'exactly one run_end');
  const group = await waitForPid(join(run.dir, 'group.pid'));
  t.same(await survivors([await waitForPid(join(run.dir, 'child.pid'))], [group]), [], 'the TERM-proof child is dead too');
});

t.test('background children of a finished bash command are killed when it returns, even one ignoring SIGTERM', async (t) => {
  const run = bashRun(t, `sleep 1000 & echo $! > plain.pid; (trap '' TERM; exec sleep 1000) & echo $! > stubborn.pid; echo $$ > group.pid; echo hi`);
  const result = await exec(run, () => {});
  t.equal(result.code, 0);
  const events = jsonLines(result.stdout);
  t.same(eventTypes(events), ['run_start', 'warning', 'tool_call', 'tool_result', 'text', 'final', 'run_end']);
  t.match(nth(events, 'tool_result'), { status: 'ok', output: 'hi\nexit code 0' });
  const pids = await Promise.all(['plain.pid', 'stubborn.pid'].map((name) => waitForPid(join(run.dir, name))));
  t.same(await survivors(pids, [await waitForPid(join(run.dir, 'group.pid'))]), [], 'nothing the command started outlives it');
});

// `timeout` and `set -m` put a child in a process group of its own; it stays in the tool's session (only setsid leaves it).
const OWN_GROUPS = '(set -m; sleep 1000 & echo $! > jobs.pid); timeout 1000 sleep 1000 & echo $! > timeout.pid';

t.test('children moved to groups of their own (timeout, set -m) are killed when the command returns', async (t) => {
  const run = bashRun(t, `${OWN_GROUPS}; echo hi`);
  const result = await exec(run, () => {});
  t.equal(result.code, 0);
  t.match(nth(jsonLines(result.stdout), 'tool_result'), { status: 'ok', output: 'hi\nexit code 0' });
  const pids = await Promise.all(['jobs.pid', 'timeout.pid'].map((name) => waitForPid(join(run.dir, name))));
  t.same(await survivors(pids, pids), [], 'nothing the command started outlives it');
});

t.test('SIGINT while bash waits on children in groups of their own (timeout, set -m): none survives', async (t) => {
  const run = bashRun(t, `${OWN_GROUPS}; wait`);
  const result = await exec(run, (child) => void waitForPid(join(run.dir, 'timeout.pid')).then(() => child.kill('SIGINT')));
  t.equal(result.code, 130);
  const pids = await Promise.all(['jobs.pid', 'timeout.pid'].map((name) => waitForPid(join(run.dir, name))));
  t.same(await survivors(pids, pids), [], 'nothing the command started outlives the run');
});

t.test('the reader of stdout goes away while bash runs: the command is killed, the session ends with run_end, exit 141 quietly', async (t) => {
  // 24 text events of 64 KiB come before the tool call. Nobody reads stdout, so they fill the socket between zero
  // and this test (about 200 KiB) and wait in zero's buffers while the command runs: closing our end of the
  // socket then fails a pending write with EPIPE, as `| head` does to a run that is still printing.
  const chunks = Array.from({ length: 24 }, () => 'x'.repeat(64 * 1024));
  const run = bashRun(t, `${RECORD_PIDS}; wait`, { chunks });
  const result = await exec(run, (child) => {
    child.stdout?.pause();
    void waitForPid(join(run.dir, 'child.pid')).then(() => child.stdout?.destroy());
  });
  t.equal(result.code, 141);
  t.equal(result.stderr, '', 'no message, no stack trace');
  const group = await waitForPid(join(run.dir, 'group.pid'));
  t.same(await survivors([await waitForPid(join(run.dir, 'child.pid'))], [group]), [], 'no process of the group survives');
  const stored = await storedEvents(t, run);
  t.match(stored.slice(-2), [{ type: 'error', code: 'cancelled' }, { type: 'run_end', status: 'error', exitCode: 141 }], 'the session record was finished');
  t.match(nth(stored, 'tool_result'), { status: 'error', output: /cancelled/ });
});

t.test('SIGHUP from a terminal that is gone: exit 129 although stdout fails too, and the session ends with run_end 129', async (t) => {
  // As in the test above, unread text keeps zero's writes pending; bash notes the SIGTERM that zero's SIGHUP handling sends.
  const chunks = Array.from({ length: 24 }, () => 'x'.repeat(64 * 1024));
  const run = bashRun(t, `trap 'echo > term.seen' TERM; ${RECORD_PIDS}; wait; wait`, { chunks });
  const result = await exec(run, (child) => {
    child.stdout?.pause();
    void (async () => {
      await waitForPid(join(run.dir, 'child.pid'));
      child.kill('SIGHUP');
      // zero has cancelled the run; now the terminal's output side fails too.
      await waitForFile(join(run.dir, 'term.seen'));
      child.stdout?.destroy();
    })();
  });
  t.equal(result.code, 129);
  const group = await waitForPid(join(run.dir, 'group.pid'));
  t.same(await survivors([await waitForPid(join(run.dir, 'child.pid'))], [group]), [], 'no process of the group survives');
  t.match((await storedEvents(t, run)).slice(-2), [{ type: 'error', code: 'cancelled', message: 'Cancelled by SIGHUP.' }, { type: 'run_end', exitCode: 129 }]);
});

t.test('a signal while the run is still being set up: error + run_end, not a silent death', async (t) => {
  const dir = t.testdir({});
  const fifo = join(dir, 'prompt.fifo');
  execFileSync('mkfifo', [fifo]);
  const script = writeScript(dir, [{ text: 'never read' }], '.script.jsonl');
  const result = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '--no-session', '-f', fifo], {
    onSpawn: (child) => {
      // Opening the FIFO for writing completes once zero has opened it to read the prompt: it is setting the run up.
      void open(fifo, 'w').then(async (writer) => {
        child.kill('SIGINT');
        // The prompt arrives once zero has answered the signal (its first line, or its exit): the run must not start
        // anyway. (Written at once, the prompt can reach zero before Node hands it the signal, and a scripted run
        // can end before then: a busy machine showed it.) The signal stopped zero's read, so the pipe may be closed.
        await Promise.race([once(child.stdout!, 'data'), once(child, 'exit')]);
        await writer.writeFile('hi').catch(() => {});
        await writer.close();
      });
    },
  });
  t.equal(result.code, 130, result.stderr);
  t.same(eventTypes(jsonLines(result.stdout)), ['error', 'run_end']);
  t.match(nth(jsonLines(result.stdout), 'error'), { code: 'cancelled', message: 'Cancelled by SIGINT.' });
});

/**
 * Spawns `args`, and once zero reads `fifo` (has it open, or is stuck opening it: its setup is done up to there),
 * sends it `signals`, 200 ms apart; SIGKILLed if still there 5 s after the last signal.
 */
async function signalWhileReading(args: string[], fifo: string, signals: NodeJS.Signals[]) {
  let signalledAt = 0;
  let opened = false;
  let killed = false;
  const result = await zero(args, {
    onSpawn: (child) => {
      void (async () => {
        // Generous: only a busy machine makes zero this slow to get there.
        opened = (await waitForFifoRead(child.pid!, fifo, 60_000)) === 'open';
        signalledAt = Date.now();
        for (const signal of signals) {
          child.kill(signal);
          await sleep(200);
        }
        await sleep(5000);
        if (child.exitCode === null && child.signalCode === null) {
          killed = true;
          child.kill('SIGKILL');
        }
      })();
    },
  });
  return { ...result, opened, killed, afterSignalMs: Date.now() - signalledAt, events: jsonLines(result.stdout) };
}

// The FIFO's open() held a libuv pool thread, which process.exit waits for: neither signal ended the process.
t.test('-f a FIFO nobody writes, then SIGTERM twice: zero exits 143 at once', { skip: process.platform !== 'linux', timeout: 120_000 }, async (t) => {
  const dir = t.testdir({});
  const fifo = join(dir, 'prompt.fifo');
  execFileSync('mkfifo', [fifo]);
  const script = writeScript(dir, [{ text: 'never read' }], '.script.jsonl');
  const result = await signalWhileReading(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '--no-session', '-f', fifo], fifo, ['SIGTERM', 'SIGTERM']);
  t.ok(result.opened, 'zero opened the FIFO at once, not stuck in open() waiting for a writer');
  t.equal(result.killed, false, 'exited by itself');
  t.equal(result.code, 143, result.stderr);
  t.ok(result.afterSignalMs < 3000, `ended ${result.afterSignalMs} ms after the first signal`);
  // The second signal means "now": what the first one started (error + run_end) may or may not have been written.
  if (result.events.length) t.match(result.events, [{ type: 'error', code: 'cancelled', message: 'Cancelled by SIGTERM.' }, { type: 'run_end', exitCode: 143 }]);
});

t.test('--script a FIFO nobody writes, then SIGTERM: error + run_end at once, not after the 3 s fallback', { skip: process.platform !== 'linux', timeout: 120_000 }, async (t) => {
  const dir = t.testdir({});
  const fifo = join(dir, 'script.fifo');
  execFileSync('mkfifo', [fifo]);
  const result = await signalWhileReading(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', fifo, '--no-session', 'hi'], fifo, ['SIGTERM']);
  t.ok(result.opened, 'zero opened the FIFO at once, not stuck in open() waiting for a writer');
  t.equal(result.killed, false, 'exited by itself');
  t.equal(result.code, 143, result.stderr);
  t.match(result.events, [{ type: 'error', code: 'cancelled', message: 'Cancelled by SIGTERM.' }, { type: 'run_end', exitCode: 143 }]);
  t.ok(result.afterSignalMs < 3000, `ended ${result.afterSignalMs} ms after the signal`);
});
