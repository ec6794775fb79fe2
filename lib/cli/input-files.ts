import type { Readable } from 'node:stream';
import { describeErrno, UsageError, ZeroError } from '../errors.js';
import { readBounded } from '../files/bounded.js';
import { openStream } from '../files/open.js';
import { STDIN } from './options.js';

/** How an input is read while the run is set up: at most `maxBytes` (--max-line-bytes) of prompt, stopped by `signal`. */
export type InputReading = { maxBytes: number; signal?: AbortSignal };

/** `-f /dev/stdin` is `-f -`: the process's stdin, which cannot be opened again when it is a socket (a parent's pipe in Node). */
export function inputFile(file: string | undefined): string | undefined {
  return file === '/dev/stdin' ? STDIN : file;
}

function unreadable(path: string, error: unknown): ZeroError {
  return error instanceof ZeroError ? error : new UsageError(`Cannot read --file ${path}: ${describeErrno(error as NodeJS.ErrnoException)}`);
}

/**
 * The text prompt of --file (`-`: stdin), whatever the file is: a regular file, a FIFO, `<(cmd)`, a device. It is
 * one prompt, as one stream-json line would carry it, so it is bounded like one: more than `maxBytes` is a usage
 * error, found before more is read (`-f /dev/zero` fails at the limit instead of filling memory).
 */
export async function readPromptFile(file: string, stdin: Readable, { maxBytes, signal }: InputReading): Promise<string> {
  const name = file === STDIN ? 'stdin' : `--file ${file}`;
  const tooLong = () => new UsageError(`The prompt from ${name} is longer than ${maxBytes} bytes (--max-line-bytes); pass a shorter one, or raise --max-line-bytes.`);
  try {
    const source = file === STDIN ? stdin : await openStream(file);
    return (await readBounded(source, { maxBytes, tooLong, signal })).toString('utf8');
  } catch (error) {
    throw unreadable(file, error);
  }
}

/** --file as the stream-json input, streamed (its lines are bounded by the line framer): a FIFO and `<(cmd)` included. */
export async function openInputFile(file: string): Promise<Readable> {
  try {
    return await openStream(file);
  } catch (error) {
    throw unreadable(file, error);
  }
}
