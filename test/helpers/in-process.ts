import { PassThrough, Readable } from 'node:stream';
import { main } from '../../lib/cli/main.js';
import { cleanEnv, type Result } from './zero.js';

/**
 * Runs `zero …` in this process, as bin/zero does (lib/cli/main.ts) but without a process of its own: stdout and
 * stderr are collected, stdin is the given text (a pipe), and the exit code is what the command would exit with.
 * For what only a process shows (signals, pipes, real file descriptors), spawn bin/zero (helpers/zero.ts).
 */
export async function runInProcess(argv: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<Omit<Result, 'signal'>> {
  const stdout = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const stdin = Object.assign(Readable.from(options.stdin === undefined ? [] : [options.stdin]), { isTTY: false });
  const code = await new Promise<number>((exit) => {
    const io = { stdin, stdout, stderr: { write: (text: string) => (err += text) }, env: options.env ?? cleanEnv(), exit };
    main(argv, io).catch((error: unknown) => {
      err += `main threw: ${String(error)}\n`;
      exit(-1);
    });
  });
  return { stdout: out, stderr: err, code };
}
