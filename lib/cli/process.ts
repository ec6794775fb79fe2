import type { Readable } from 'node:stream';
import { format } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { CancelledError, StdoutError, describeErrno, type CancelSignal, type ZeroError } from '../errors.js';
import { killRunningGroups } from '../tools/process_group.js';
import { redactOutbound } from '../redaction/index.js';
import { visible } from '../output/visible.js';
import { CANCEL_SIGNALS, takeEarlySignals } from './signals.js';
import { EXIT_STDOUT_CLOSED, watchStdout, type CliIO, type StdoutWatch } from './io.js';

/**
 * What libraries print with console.* (an SDK's deprecation notice, say) must
 * not reach stdout, which carries only protocol lines, nor a quiet stderr: it
 * goes to the --debug log, redacted.
 */
export function captureConsole(log: (text: string) => void): void {
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    console[method] = (...args: unknown[]) => log(format(...args));
  }
}

/** With --debug, diagnostics and failures (with their stack) go to stderr, redacted like everything else. */
export function debugReporter(io: CliIO, debug: boolean, secrets: string[]) {
  const log = (text: string) => {
    if (debug) io.stderr.write(`[zero debug] ${visible(redactOutbound(text, { secrets }))}\n`);
  };
  return {
    log,
    failure: (error: unknown) => log(error instanceof Error ? (error.stack ?? error.message) : String(error)),
  };
}

/** The run behind a command's output, when there is one (zero exec): how deliver stops it. */
export type RunControl = {
  /** Ends the run (running tools are killed); its output still ends, with `error` + `run_end`. */
  cancel(reason: CancelSignal | ZeroError): void;
  /** stdout is lost: progress lines on stderr would only add noise to the one message (or the silence) that says so. */
  silence(): void;
};

/** Once stdout is lost, how long the run has to wind down (tools killed, session record finished) before the exit. */
const STOP_WAIT_MS = 5000;
/** How long signal handlers stay, inert, after the output ended: longer than any exit takes. */
const INERT_HANDLERS_MS = 1000;

/**
 * Copies a command's output to stdout and exits with its exit code once every
 * byte is written. SIGHUP / SIGINT / SIGTERM cancel the run (a second one
 * SIGKILLs its tools, and the run still ends with run_end); without a run they
 * exit at once. When stdout cannot be written the run is stopped: quietly with
 * 141 if its reader went away (EPIPE), else with a message and exit 1.
 */
export async function deliver(io: CliIO, output: Readable, exitCode: Promise<number>, run?: RunControl, onReady?: () => void): Promise<void> {
  const stdout = watchStdout(io);
  const signals = handleSignals(io, run);
  onReady?.();
  output.pipe(io.stdout, { end: false });
  const failure = await Promise.race([written(io, output, stdout), stdout.failed]);
  if (failure) return stopAfterLostStdout(io, output, failure, run, signals.first());
  const code = await exitCode;
  signals.remove();
  killRunningGroups();
  io.exit(code);
}

/** Resolves once the output has ended and stdout took every byte: with nothing, or with the write error. */
async function written(io: CliIO, output: Readable, stdout: StdoutWatch): Promise<NodeJS.ErrnoException | undefined> {
  await ended(output);
  const flushError = await new Promise<Error | null | undefined>((resolve) => io.stdout.write('', resolve));
  // A write after the failure reports only "stream destroyed"; the watch holds the error that says why.
  return flushError ? (stdout.failure ?? flushError) : undefined;
}

function ended(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => stream.once('end', resolve).once('close', resolve));
}

/**
 * Stops the run once stdout failed and exits: 141 if its reader went away, 1 for any other write error, or
 * the code of the signal that had already cancelled the run (a closed terminal sends SIGHUP, then fails writes).
 */
async function stopAfterLostStdout(io: CliIO, output: Readable, failure: NodeJS.ErrnoException, run?: RunControl, signal?: CancelSignal): Promise<void> {
  const readerGone = failure.code === 'EPIPE';
  run?.silence();
  if (!readerGone) io.stderr.write(`zero: cannot write to stdout: ${describeErrno(failure)}\n`);
  output.unpipe(io.stdout);
  if (run) {
    run.cancel(readerGone ? 'SIGPIPE' : new StdoutError(failure));
    // What the run still produces goes nowhere, so that it reaches its end: tools killed, session record finished.
    output.resume();
    await Promise.race([ended(output), sleep(STOP_WAIT_MS)]);
  }
  killRunningGroups();
  io.exit(signal ? new CancelledError(signal).exitCode : readerGone ? EXIT_STDOUT_CLOSED : 1);
}

function handleSignals(io: CliIO, run?: RunControl): { first(): CancelSignal | undefined; remove(): void } {
  let first: CancelSignal | undefined;
  let over = false;
  const handle = (signal: CancelSignal) => {
    // The output is complete and the exit under way, with run_end's code: a late signal changes nothing.
    if (over) return;
    if (!run) return io.exit(new CancelledError(signal).exitCode);
    // A second signal hurries the end (no grace for the tools) but never skips it: run_end is still written.
    if (first) return killRunningGroups();
    first = signal;
    run.cancel(signal);
  };
  const removers = CANCEL_SIGNALS.map((signal) => {
    const handler = () => handle(signal);
    process.on(signal, handler);
    return () => void process.off(signal, handler);
  });
  // A signal that came while the program was loading or setting the run up: a run is cancelled before it starts.
  takeEarlySignals().forEach(handle);
  return {
    first: () => first,
    // Handlers removed at once would hand a signal arriving during the exit to its default action (killed by it,
    // whatever run_end said): they stay, inert, and go only later, for a program that embeds deliver and lives on.
    remove() {
      over = true;
      setTimeout(() => removers.forEach((remove) => remove()), INERT_HANDLERS_MS).unref();
    },
  };
}

/** A writer that can be silenced: the run's progress lines on stderr. */
export function silenceable(target: CliIO['stderr']): CliIO['stderr'] & { silence(): void } {
  let silent = false;
  return {
    write: (text) => (silent ? true : target.write(text)),
    isTTY: target.isTTY,
    silence: () => void (silent = true),
  };
}
