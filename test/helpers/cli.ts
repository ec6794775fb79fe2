import { PassThrough, Readable } from 'node:stream';
import type { CliIO } from '../../lib/cli/io.js';
import { main } from '../../lib/cli/main.js';
import { cleanEnv, type Result } from './zero.js';

/**
 * `zero ARGS` run in this process, through main as bin/zero runs it, with stdin, stdout and stderr in memory and
 * the exit code caught: for what the CLI prints, without the cost of a process. (Exit codes a process shows, signals
 * and pipes are bin/zero's to test: test/helpers/zero.ts.)
 */
export async function zeroHere(args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Result> {
  const home = process.cwd();
  // zero exec sends console.* to its --debug log (captureConsole), for the rest of a process that then exits
  const consoleMethods = { ...console };
  // the process's cwd is zero's working directory, as for bin/zero; tap runs a file's tests one at a time
  if (options.cwd !== undefined) process.chdir(options.cwd);
  try {
    return await run(args, options);
  } finally {
    process.chdir(home);
    Object.assign(console, consoleMethods);
  }
}

async function run(args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv }): Promise<Result> {
  const stdout = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number>((exited) => {
    const io: CliIO = {
      // a pipe, as bin/zero's stdin is when a client writes to it
      stdin: Object.assign(Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]), { isTTY: false }),
      stdout,
      stderr: { write: (text: string) => (err += text) },
      env: options.env ?? cleanEnv(),
      exit: (value) => exited(value),
    };
    main(args, io).catch((error: unknown) => {
      err += `main threw: ${String(error)}\n`;
      exited(-1);
    });
  });
  return { stdout: out, stderr: err, code, signal: null };
}
