import type { Readable } from 'node:stream';
import { format } from 'node:util';
import type { CancelSignal } from '../errors.js';
import { redactOutbound } from '../redaction/index.js';

export type CliIO = {
  stdin: Readable & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  exit(code: number): void;
};

export const processIO = (): CliIO => ({
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  exit: (code) => process.exit(code),
});

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

/** The exit status when the reader of stdout has gone away (as if killed by SIGPIPE). */
export const EXIT_STDOUT_CLOSED = 141;

/** With --debug, diagnostics and failures (with their stack) go to stderr, redacted like everything else. */
export function debugReporter(io: CliIO, debug: boolean, secrets: string[]) {
  const log = (text: string) => {
    if (debug) io.stderr.write(`[zero debug] ${redactOutbound(text, { secrets })}\n`);
  };
  return {
    log,
    failure: (error: unknown) => log(error instanceof Error ? (error.stack ?? error.message) : String(error)),
  };
}

/**
 * Copies a command's output to stdout and exits with its exit code once every
 * byte is written. A reader that closes early (`| head`) ends the process
 * quietly; SIGINT / SIGTERM go to `onSignal` (a second one exits at once).
 */
export async function deliver(io: CliIO, output: Readable, exitCode: Promise<number>, onSignal?: (signal: CancelSignal) => void, onReady?: () => void): Promise<void> {
  io.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') io.exit(EXIT_STDOUT_CLOSED);
  });
  const signals: CancelSignal[] = ['SIGINT', 'SIGTERM'];
  const handlers = signals.map((signal) => {
    let received = false;
    const handler = () => {
      if (received || !onSignal) io.exit(signal === 'SIGINT' ? 130 : 143);
      received = true;
      onSignal?.(signal);
    };
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  onReady?.();
  const ended = new Promise<void>((resolve) => output.on('end', resolve));
  output.pipe(io.stdout, { end: false });
  await ended;
  await new Promise<void>((resolve) => io.stdout.write('', () => resolve()));
  const code = await exitCode;
  handlers.forEach((remove) => remove());
  io.exit(code);
}
