import { PassThrough, Readable } from 'node:stream';
import type { CliIO } from '../../lib/cli/io.js';
import { main } from '../../lib/cli/main.js';
import { cleanEnv, type Result } from './zero.js';

/**
 * `zero ARGS` run in this process, through main as bin/zero runs it, with stdin, stdout and stderr in memory and
 * the exit code caught: for what the CLI prints, without the cost of a process. (Exit codes a process shows, signals
 * and pipes are bin/zero's to test: test/helpers/zero.ts.)
 */
export async function zeroHere(args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Result> {
  const stdout = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  let exited: (code: number) => void = () => {};
  const code = new Promise<number>((resolve) => (exited = resolve));
  const io: CliIO = {
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    stdout,
    stderr: { write: (text: string) => (err += text) },
    env: options.env ?? cleanEnv(),
    exit: (value) => exited(value),
  };
  await Promise.race([main(args, io), code]);
  const exitCode = await code;
  return { stdout: out, stderr: err, code: exitCode, signal: null };
}
