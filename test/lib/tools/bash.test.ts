import { chmodSync, existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { bash, createBash } from '../../../lib/tools/bash.js';
import { MAX_OUTPUT_BYTES } from '../../../lib/tools/output.js';
import { createToolbox } from '../../../lib/tools/registry.js';
import { limitFrom, timed } from '../../helpers/timing.js';

const context = (cwd: string, signal = new AbortController().signal) => ({ cwd, signal });
const toolbox = createToolbox([bash]);
/** What the command printed, as the model reads it. */
const run = async (...args: Parameters<typeof bash.run>): Promise<string> => (await bash.run(...args)).output;
const call = (args: Record<string, unknown>) => ({ id: 'call_1', name: 'bash', args });

/** Whether `pid` still runs; a zombie (dead, waiting for init to collect it) does not. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    return !/^\d+ \(.*\) [ZX] /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitForFile(path: string): Promise<void> {
  while (!existsSync(path) || readFileSync(path, 'utf8').trim() === '') await sleep(20);
}

t.test('runs the command in the working directory; stdout and stderr interleaved, then the exit code', async (t) => {
  const dir = t.testdir({ 'here.txt': '' });
  t.equal(await run({ command: 'echo one; echo two >&2; echo three' }, context(dir)), 'one\ntwo\nthree\nexit code 0');
  t.equal(await run({ command: 'pwd; ls' }, context(dir)), `${realpathSync(dir)}\nhere.txt\nexit code 0`);
  t.equal(await run({ command: 'printf "no newline"; exit 3' }, context(dir)), 'no newline\nexit code 3');
  t.equal(await run({ command: 'true' }, context(dir)), 'exit code 0');
});

t.test('stdin is closed, so a command reading it does not wait', async (t) => {
  const dir = t.testdir({});
  t.equal(await run({ command: 'cat; echo "read: $(wc -c)"' }, context(dir)), 'read: 0\nexit code 0');
});

t.test('a syntax error and death by a signal are reported like a shell would', async (t) => {
  const dir = t.testdir({});
  t.match(await run({ command: 'echo (' }, context(dir)), /syntax error[^]*\nexit code 2$/);
  t.equal(await run({ command: 'echo before; kill -TERM $$' }, context(dir)), 'before\nexit code 143');
});

t.test('output past 64 KiB is cut and flagged truncated; the exit code survives', async (t) => {
  const dir = t.testdir({});
  const outcome = await toolbox.run(call({ command: 'head -c 200000 /dev/zero | tr "\\0" x; exit 4' }), context(dir));
  t.equal(outcome.status, 'ok');
  t.equal(outcome.truncated, true);
  t.equal(Buffer.byteLength(outcome.output), MAX_OUTPUT_BYTES);
  t.match(outcome.output, /^x{60000,}\n\(Output cut: the command printed 200000 bytes; only the start is shown\.\)\nexit code 4$/);
});

t.test('output far past the cap is read to the end without being kept', async (t) => {
  const dir = t.testdir({});
  const outcome = await toolbox.run(call({ command: 'head -c 30000000 /dev/zero; echo done >&2' }), context(dir));
  t.equal(outcome.truncated, true);
  t.match(outcome.output, /printed 30000005 bytes[^]*\nexit code 0$/);
});

t.test('a command that fits is not flagged', async (t) => {
  const outcome = await toolbox.run(call({ command: 'echo hi' }), context(t.testdir({})));
  t.same(outcome, { status: 'ok', output: 'hi\nexit code 0', truncated: false });
});

/**
 * A timeout the command's first lines are sure to beat, however busy the machine: ten
 * times what starting bash and running them took just now (see limitFrom).
 */
async function timeoutBeyondStart(dir: string): Promise<number> {
  return limitFrom(await timed(() => run({ command: 'echo started; sleep 0 & echo $! > pid' }, context(dir))));
}

t.test('on timeout the whole process group is killed and the tool fails', async (t) => {
  const dir = t.testdir({});
  const timeout = await timeoutBeyondStart(dir);
  const outcome = await toolbox.run(call({ command: 'echo started; sleep 30 & echo $! > pid; wait', timeout_ms: timeout }), context(dir));
  t.equal(outcome.status, 'error');
  t.equal(outcome.output, `The command timed out after ${timeout} ms and was killed, with its whole process group.\nOutput so far:\nstarted\n`);
  const child = Number(readFileSync(join(dir, 'pid'), 'utf8'));
  t.notOk(isRunning(child), 'the background child is gone');
});

t.test('a timed-out command that printed more than fits: its result says the output was cut, and is flagged', async (t) => {
  const dir = t.testdir({});
  const timeout = await timeoutBeyondStart(dir);
  const outcome = await toolbox.run(call({ command: 'head -c 100000 /dev/zero | tr "\\0" x; touch printed; sleep 30', timeout_ms: timeout }), context(dir));
  t.equal(outcome.status, 'error');
  t.equal(outcome.truncated, true);
  t.ok(Buffer.byteLength(outcome.output) <= MAX_OUTPUT_BYTES);
  t.match(outcome.output, new RegExp(`^The command timed out after ${timeout} ms and was killed, with its whole process group\\.\\nOutput so far:\\nx{60000,}\\n\\(Output cut: the command printed 100000 bytes; only the start is shown\\.\\)$`));
  const small = await toolbox.run(call({ command: 'echo started; sleep 30', timeout_ms: timeout }), context(dir));
  t.match(small, { status: 'error', truncated: false, output: /Output so far:\nstarted\n$/ }, 'what fits is not flagged');
});

t.test('a child that ignores SIGTERM is killed with SIGKILL', async (t) => {
  const dir = t.testdir({});
  const timeout = await timeoutBeyondStart(dir);
  const outcome = await toolbox.run(call({ command: 'trap "" TERM; sleep 30 & echo $! > pid; wait', timeout_ms: timeout }), context(dir));
  t.match(outcome, { status: 'error', output: new RegExp(`^The command timed out after ${timeout} ms`) });
  t.notOk(isRunning(Number(readFileSync(join(dir, 'pid'), 'utf8'))));
});

t.test('cancelling through the signal kills the whole process group and the tool fails', async (t) => {
  const dir = t.testdir({});
  const controller = new AbortController();
  const running = toolbox.run(call({ command: 'sleep 30 & echo $! > pid; wait' }), context(dir, controller.signal));
  await waitForFile(join(dir, 'pid'));
  controller.abort();
  t.same(await running, { status: 'error', output: 'The command was cancelled and was killed, with its whole process group.', truncated: false });
  t.notOk(isRunning(Number(readFileSync(join(dir, 'pid'), 'utf8'))));
});

t.test('a signal aborted before the start runs nothing', async (t) => {
  const dir = t.testdir({});
  const controller = new AbortController();
  controller.abort();
  await t.rejects(run({ command: 'touch ran' }, context(dir, controller.signal)), { message: 'The command was cancelled before it started.' });
  t.notOk(existsSync(join(dir, 'ran')));
});

t.test('a background process left running does not hold the result back, and is killed once the command returns', async (t) => {
  const dir = t.testdir({});
  t.equal(await run({ command: 'sleep 30 & echo $! > pid; echo done' }, context(dir)), 'done\nexit code 0');
  t.notOk(isRunning(Number(readFileSync(join(dir, 'pid'), 'utf8'))));
});

t.test('a background process that ignores SIGTERM is killed with SIGKILL once the command returns', async (t) => {
  const dir = t.testdir({});
  t.equal(await run({ command: "(trap '' TERM; exec sleep 30) & echo $! > pid; echo done" }, context(dir)), 'done\nexit code 0');
  t.notOk(isRunning(Number(readFileSync(join(dir, 'pid'), 'utf8'))));
});

t.test('timeout_ms is checked: a positive integer, at most ten minutes', async (t) => {
  const dir = t.testdir({});
  t.match(await toolbox.run(call({ command: 'true', timeout_ms: 0 }), context(dir)), { status: 'error', output: /timeout_ms: Must be at least 1/ });
  t.match(await toolbox.run(call({ command: 'true', timeout_ms: 600_001 }), context(dir)), { status: 'error', output: /timeout_ms/ });
  t.equal(bash.sideEffect, 'shell');
  t.equal(bash.permission, 'prompt');
});

t.test('bwrap failing to copy the mount tree (a mount came or went meanwhile): the command runs once more, and once only', async (t) => {
  const dir = t.testdir({});
  const fake = join(dir, 'bwrap');
  // fails as bwrap does the first time; then runs what follows `--`, as bwrap would in its sandbox
  writeFileSync(fake, [
    '#!/bin/sh',
    'if [ ! -e "$MARK" ]; then touch "$MARK"; echo "bwrap: Can\'t bind mount /oldroot/ on /newroot/: Unable to apply mount flags: remount \\"/newroot/tmp/x\\": Invalid argument" >&2; exit 1; fi',
    'while [ "$1" != "--" ]; do shift; done; shift; exec "$@"',
  ].join('\n'));
  chmodSync(fake, 0o755);
  const policy = { sandbox: 'workspace-write' as const, network: false, roots: [dir], env: { PATH: process.env.PATH ?? '', MARK: join(dir, 'failed-once') }, bwrap: fake };
  const result = await createBash(policy).run({ command: 'echo ran >> runs.txt; echo hi' }, context(dir));
  t.equal(result.output, 'hi\nexit code 0');
  t.equal(readFileSync(join(dir, 'runs.txt'), 'utf8'), 'ran\n', 'the command ran once');
  const other = await createBash(policy).run({ command: 'echo "bwrap: Can\'t bind mount x: Invalid argument"; echo more; exit 1' }, context(dir));
  t.equal(other.output, "bwrap: Can't bind mount x: Invalid argument\nmore\nexit code 1", 'a command\'s own output is never taken for it');
});
