import t from 'tap';
import type { ChildProcess } from 'node:child_process';
import { jsonLines, writeScript, zero } from '../../helpers/zero.js';
import { debugReporter } from '../../../lib/cli/process.js';
import type { CliIO } from '../../../lib/cli/io.js';

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

t.test('a signal that arrives while zero exits after run_end: handled (so not fatal) and ignored', async (t) => {
  const { deliver } = await import('../../../lib/cli/process.js');
  const { PassThrough, Readable } = await import('node:stream');
  const exits: number[] = [];
  const cancels: unknown[] = [];
  const stdout = new PassThrough();
  stdout.resume();
  const io = { stdin: Readable.from([]), stdout, stderr: { write: () => true }, env: {}, exit: (code: number) => void exits.push(code) };
  const before = process.listenerCount('SIGTERM');
  await deliver(io, Readable.from(['{"type":"run_end"}\n']), Promise.resolve(0), { cancel: (reason) => void cancels.push(reason), silence: () => {} });
  t.same(exits, [0], 'exits with run_end\'s code');
  // Were the handlers gone already, the kernel's default action would kill the process with this signal instead.
  t.ok(process.listenerCount('SIGTERM') > before, 'SIGTERM is still handled while the process exits');
  process.emit('SIGTERM', 'SIGTERM');
  t.same(exits, [0], 'the late signal does not change the exit');
  t.same(cancels, [], 'nor cancel anything');
});

t.test('the --debug log shows control characters escaped (a server body or SDK message may hold them)', async (t) => {
  const lines: string[] = [];
  const io = { stderr: { write: (text: string) => lines.push(text) } } as unknown as CliIO;
  debugReporter(io, true, []).log('server said \x1b]52;c;aGk=\x07\nnext line');
  t.same(lines, ['[zero debug] server said \\e]52;c;aGk=\\x07\nnext line\n']);
});
