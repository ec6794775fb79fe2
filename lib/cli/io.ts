import type { Readable } from 'node:stream';

// The process's streams as commands see them: light, so that `zero --version` loads nothing else.

export type CliIO = {
  stdin: Readable & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown };
  /** isTTY: stderr is a terminal (the text format then shows the model's reasoning there); color: escape codes wanted; columns: its width. */
  stderr: { write(text: string): unknown; isTTY?: boolean; color?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  exit(code: number): void;
};

export function processIO(): CliIO {
  // stderr is best effort: a reader of stderr that went away must not stop the run or change stdout.
  process.stderr.on('error', () => {});
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: {
      write: (text) => bestEffort(() => process.stderr.write(text)),
      isTTY: process.stderr.isTTY === true,
      color: wantsColor(process.stderr, process.env),
      get columns() {
        return process.stderr.isTTY ? process.stderr.columns : undefined;
      },
    },
    env: process.env,
    exit: (code) => process.exit(code),
  };
}

/** A stream gets escape codes when FORCE_COLOR asks (any value but 0/false), else when it is a terminal and NO_COLOR is unset or empty. */
export function wantsColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return !/^(0|false)$/i.test(force.trim());
  if (env.NO_COLOR) return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

function bestEffort(write: () => boolean): boolean {
  try {
    return write();
  } catch {
    return false;
  }
}

/** The exit status when the reader of stdout has gone away (as if killed by SIGPIPE). */
export const EXIT_STDOUT_CLOSED = 141;

export type StdoutWatch = { failure?: NodeJS.ErrnoException; failed: Promise<NodeJS.ErrnoException> };
const stdoutWatches = new WeakMap<object, StdoutWatch>();

/**
 * The first write error on stdout. Called when the process starts, so that an
 * error from an early write (sessions list writes before deliver) is never unhandled.
 */
export function watchStdout(io: CliIO): StdoutWatch {
  const known = stdoutWatches.get(io.stdout);
  if (known) return known;
  let seen: (error: NodeJS.ErrnoException) => void = () => {};
  const watch: StdoutWatch = { failed: new Promise((resolve) => (seen = resolve)) };
  io.stdout.on('error', (error) => {
    watch.failure ??= error;
    seen(error);
  });
  stdoutWatches.set(io.stdout, watch);
  return watch;
}
