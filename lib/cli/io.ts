import { fstatSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { exitProcess } from './exit.js';

// The process's streams as commands see them: light, so that `zero --version` loads nothing else.

export type CliIO = {
  stdin: Readable & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown };
  /** isTTY: stderr is a terminal (the text format then shows the model's reasoning there); color: escape codes wanted; columns: its width. */
  stderr: { write(text: string): unknown; isTTY?: boolean; color?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  exit(code: number): void;
  /** Where stdout's text is seen, from stderr's side (default: 'shared' when stdout is a terminal, else 'unknown'). */
  stdoutPlace?: StdoutPlace;
};

/**
 * Where stdout's text is seen, for stderr that may move its cursor over it (a spinner): on the same terminal or
 * file as stderr ('shared'), 'elsewhere' (a file, /dev/null, another terminal), or 'unknown' (a pipe or socket:
 * `| tee log` shows it on stderr's screen, `| jq` does not, and there is no telling which).
 */
export type StdoutPlace = 'shared' | 'elsewhere' | 'unknown';

export function stdoutPlace(stdoutFd = 1, stderrFd = 2): StdoutPlace {
  try {
    const [out, err] = [fstatSync(stdoutFd), fstatSync(stderrFd)];
    if (out.isFIFO() || out.isSocket()) return 'unknown';
    if (out.dev === err.dev && out.ino === err.ino) return 'shared';
    if (!out.isCharacterDevice() || !err.isCharacterDevice() || out.rdev !== err.rdev) {
      // /dev/tty is whichever terminal the process has: the same screen as a /dev/pts/N, maybe
      const controlling = statSync('/dev/tty', { throwIfNoEntry: false })?.rdev;
      return controlling !== undefined && (out.rdev === controlling || err.rdev === controlling) ? 'unknown' : 'elsewhere';
    }
    return 'shared';
  } catch {
    return 'unknown';
  }
}

export function processIO(): CliIO {
  // stderr is best effort: a reader of stderr that went away must not stop the run or change stdout.
  process.stderr.on('error', () => {});
  let place: StdoutPlace | undefined;
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
    exit: (code) => exitProcess(code),
    get stdoutPlace() {
      return (place ??= stdoutPlace());
    },
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
