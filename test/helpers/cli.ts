import { PassThrough, Readable } from 'node:stream';
import type { CliIO } from '../../lib/cli/io.js';
import { main } from '../../lib/cli/main.js';
import { cleanEnv, type Result } from './zero.js';

// each run keeps its signal handlers a second after it ends (lib/cli/process.ts): many runs in a row are not a leak
process.setMaxListeners(100);

/** A zero running in this process: its stdout as it is written, its stderr so far, its exit code once it ends. */
export type Running = { stdout: Readable; stderr(): string; exited: Promise<number> };

/**
 * `zero ARGS` started in this process, through main as bin/zero runs it, reading `stdin` (a pipe, as a client's is)
 * and writing stdout and stderr to memory, the exit code caught: for what the CLI does, without the cost of a
 * process. (Signals, a real pipe's end and a process's memory are bin/zero's to test: test/helpers/zero.ts.)
 * The process's cwd is zero's working directory, as for bin/zero: give `cwd` only to calls awaited one at a time.
 */
export function startHere(args: string[], options: { stdin: Readable; env?: NodeJS.ProcessEnv; cwd?: string }): Running {
  const home = process.cwd();
  // zero exec sends console.* to its --debug log (captureConsole), for the rest of a process that then exits
  const consoleMethods = { ...console };
  if (options.cwd !== undefined) process.chdir(options.cwd);
  const stdout = new PassThrough();
  let err = '';
  const exited = new Promise<number>((exit) => {
    const io: CliIO = {
      stdin: Object.assign(options.stdin, { isTTY: false }),
      stdout,
      stderr: { write: (text: string) => (err += text) },
      env: options.env ?? cleanEnv(),
      exit,
    };
    main(args, io).catch((error: unknown) => {
      err += `main threw: ${String(error)}\n`;
      exit(-1);
    });
  }).finally(() => {
    process.chdir(home);
    Object.assign(console, consoleMethods);
  });
  return { stdout, stderr: () => err, exited };
}

/** `zero ARGS` run in this process to its end (see startHere), with all of `stdin` given at once. */
export async function zeroHere(args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Result> {
  const stdin = Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]);
  const running = startHere(args, { ...options, stdin });
  let out = '';
  running.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await running.exited;
  return { stdout: out, stderr: running.stderr(), code, signal: null };
}
