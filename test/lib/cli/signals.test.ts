import t from 'tap';
import { spawn } from 'node:child_process';
import { CANCEL_SIGNALS, catchEarlySignals, setupSignal, takeEarlySignals } from '../../../lib/cli/signals.js';
import { CancelledError } from '../../../lib/errors.js';
import { ownModule, TS_LOADER } from '../../helpers/repo.js';

const counts = () => CANCEL_SIGNALS.map((signal) => process.listenerCount(signal));

t.test('CANCEL_SIGNALS', async (t) => {
  t.same(CANCEL_SIGNALS, ['SIGHUP', 'SIGINT', 'SIGTERM']);
});

t.test('takeEarlySignals with nothing caught: an empty list, no listeners left', async (t) => {
  const before = counts();
  catchEarlySignals();
  t.same(counts(), before.map((n) => n + 1), 'one listener per cancel signal');
  t.same(takeEarlySignals(), []);
  t.same(counts(), before, 'listeners removed');
});

t.test('an early SIGINT is recorded, then taken (listeners and timer gone)', async (t) => {
  const before = counts();
  catchEarlySignals();
  t.teardown(() => { takeEarlySignals(); });
  // With our listener in place, the signal is not fatal: emit runs it and returns.
  t.equal(process.emit('SIGINT', 'SIGINT'), true, 'a listener handled it');
  t.same(takeEarlySignals(), ['SIGINT'], 'the caught signal, in order');
  t.same(counts(), before, 'listeners back to what they were');
  t.same(takeEarlySignals(), [], 'the list was cleared');
  // Once taken, catching again starts from an empty list.
  catchEarlySignals();
  t.same(takeEarlySignals(), []);
  t.same(counts(), before);
});

t.test('setupSignal: aborted by the first early signal, with its CancelledError; a fresh one once the signals are taken', async (t) => {
  catchEarlySignals();
  t.teardown(() => { takeEarlySignals(); });
  const setup = setupSignal();
  t.equal(setup.aborted, false);
  process.emit('SIGTERM', 'SIGTERM');
  t.equal(setup.aborted, true, 'a read waiting on it stops');
  t.type(setup.reason, CancelledError);
  t.match(setup.reason, { code: 'cancelled', message: 'Cancelled by SIGTERM.' });
  takeEarlySignals();
  t.equal(setupSignal().aborted, false, 'a later setup starts unaborted');
});

t.test('a signal after takeEarlySignals is not recorded by the module', async (t) => {
  catchEarlySignals();
  takeEarlySignals();
  // Nothing of ours listens now; install a no-op so the emit is harmless.
  const noop = () => {};
  process.on('SIGTERM', noop);
  t.teardown(() => { process.off('SIGTERM', noop); });
  process.emit('SIGTERM', 'SIGTERM');
  t.same(takeEarlySignals(), []);
});

// The exit paths call process.exit, so they are tested in a child process.
const moduleUrl = ownModule('lib/cli/signals');

function runChild(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TS_LOADER, '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk; });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

t.test('a second early signal hurries the end: the run has half a second to take them, then the first one\'s code', async (t) => {
  const result = await runChild(`
    const { catchEarlySignals } = await import(${JSON.stringify(moduleUrl)});
    catchEarlySignals();
    process.emit('SIGINT', 'SIGINT');
    console.log('first kept');
    process.emit('SIGTERM', 'SIGTERM');
    console.log('second kept');
    process.emit('SIGTERM', 'SIGTERM');
    setTimeout(() => { console.log('not reached'); process.exitCode = 7; }, 2500);
  `);
  t.equal(result.code, 130, 'exit code of the first signal (SIGINT)');
  // 'not reached' would show after 2.5 s of the child's own time, before the 3 s of a single signal: the child's
  // clock, not this one's, which counts its start-up too (seconds on a busy machine)
  t.equal(result.stdout, 'first kept\nsecond kept\n', 'ended before the 3 s of a single signal');
});

t.test('two early signals, taken in time: both handed over, no exit', async (t) => {
  const result = await runChild(`
    const { catchEarlySignals, takeEarlySignals } = await import(${JSON.stringify(moduleUrl)});
    catchEarlySignals();
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');
    setTimeout(() => { console.log(JSON.stringify(takeEarlySignals())); setTimeout(() => { process.exitCode = 7; }, 800); }, 100);
  `);
  t.equal(result.stdout, '["SIGINT","SIGINT"]\n');
  t.equal(result.code, 7, 'the hurried timer was cleared when they were taken');
});

t.test('a signal left untaken ends the process after 3 s with its code', async (t) => {
  const started = Date.now();
  const result = await runChild(`
    const { catchEarlySignals } = await import(${JSON.stringify(moduleUrl)});
    catchEarlySignals();
    process.emit('SIGTERM', 'SIGTERM');
    console.log('kept');
    setTimeout(() => { console.log('not reached'); process.exitCode = 7; }, 6000);
  `);
  t.equal(result.code, 143, 'exit code of SIGTERM');
  t.equal(result.stdout, 'kept\n');
  t.ok(Date.now() - started >= 2900, 'not before the 3 s are up');
});

t.test('a taken signal does not end the child (the untaken timer is cleared)', async (t) => {
  const result = await runChild(`
    const { catchEarlySignals, takeEarlySignals } = await import(${JSON.stringify(moduleUrl)});
    catchEarlySignals();
    process.emit('SIGHUP', 'SIGHUP');
    console.log(JSON.stringify(takeEarlySignals()));
    // Outlive the 3 s untaken timer: had it not been cleared, the exit would be 129.
    setTimeout(() => { process.exitCode = 7; }, 3500);
  `);
  t.equal(result.code, 7, 'the child ends on its own terms');
  t.equal(result.stdout, '["SIGHUP"]\n');
});
