import { createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { FRAMINGS, type Framing } from '../logs/framing.js';
import { choice } from './options.js';

/** FILE, or stdin for `-` or no FILE. A file that cannot be read is a usage error. */
export function openLog(file: string | undefined, stdin: Readable): Readable {
  if (file === undefined || file === '-') return stdin;
  try {
    if (!statSync(file).isFile()) throw Object.assign(new Error('not a file'), { code: 'not a file' });
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return createReadStream(file);
}

export const checkFraming = (value: string): Framing => choice('--framing', value, FRAMINGS);
