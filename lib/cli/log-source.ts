import { accessSync, constants, createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { UsageError, describeErrno } from '../errors.js';
import { FRAMINGS, type Framing } from '../logs/framing.js';
import type { LogFileStart } from '../logs/places.js';
import { EVENTS_FILE } from '../sessions/paths.js';
import { choice, positiveInteger } from './option-values.js';

/**
 * A file is read in pieces of this size, not the default 64 KiB: each piece goes through the whole log chain
 * at once, and what that holds is what makes V8 grow its heap. Measured on a 100 MB log: zero redact peaks
 * ~7 MB lower, the others the same, none slower.
 */
export const READ_CHUNK_BYTES = 32 * 1024;

const STDIN = '-';

/** A log to read: stdin, or a file (a session folder given for its events.jsonl), checked readable. */
type Input = { stdin: true; name: string } | { stdin: false; name: string; path: string };

/** A FILE argument as the file to read: a session folder is read as its events.jsonl. Unreadable: a usage error. */
function checkedInput(file: string): Input {
  if (file === STDIN) return { stdin: true, name: 'stdin' };
  let path = file;
  try {
    if (statSync(file).isDirectory()) path = join(file, EVENTS_FILE);
    if (!statSync(path).isFile()) throw Object.assign(new Error('not a file'), { code: 'not a file' });
    accessSync(path, constants.R_OK);
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    throw new UsageError(`Cannot read ${file}: ${path !== file && failure.code === 'ENOENT' ? `a folder without ${EVENTS_FILE}` : describeErrno(failure)}`);
  }
  return { stdin: false, name: path, path };
}

const readFile = (path: string) => createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });

/** The inputs in order: each one's LogFileStart, then its bytes. */
async function* joined(inputs: Input[], stdin: Readable): AsyncGenerator<Buffer | string | LogFileStart> {
  for (const input of inputs) {
    yield { logFile: input.name };
    yield* input.stdin ? stdin : readFile(input.path);
  }
}

/**
 * The FILEs of a log command as one log: stdin for none or `-`; one file as it is; several read in order, each
 * file's bytes after a LogFileStart naming it (lib/logs/places.ts). A session folder is read as its events.jsonl.
 * Every file is checked before anything is read, so that a missing one fails the command before it writes
 * anything: a usage error naming the file.
 */
export function openLogs(files: readonly string[], stdin: Readable): Readable {
  if (files.filter((file) => file === STDIN).length > 1) throw new UsageError('Stdin (-) can be read only once.');
  const inputs = files.map(checkedInput);
  if (inputs.length === 0) return stdin;
  if (inputs.length === 1) return inputs[0]!.stdin ? stdin : readFile((inputs[0] as { path: string }).path);
  return Readable.from(joined(inputs, stdin), { objectMode: true, highWaterMark: 1 });
}

/** Whether the log is read from stdin (no FILE, or `-` among them). */
export const readsStdin = (files: readonly string[]) => files.length === 0 || files.includes(STDIN);

export const checkFraming = (value: string): Framing => choice('--framing', value, FRAMINGS);

/** How a log command frames its input: `--framing` and `--max-line-bytes` (undefined: the framing's default, 16 MiB). */
export type RawLogFraming = { framing?: string; maxLineBytes?: string };
export const logFraming = (raw: RawLogFraming): { framing: Framing; maxLineBytes?: number } => ({
  framing: checkFraming(raw.framing ?? 'auto'),
  maxLineBytes: positiveInteger('--max-line-bytes', raw.maxLineBytes),
});
