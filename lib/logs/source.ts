import { createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { Option } from 'commander';
import { UsageError } from '../errors.js';
import { FRAMINGS, type Framing } from './framing.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../../transforms/serialize.js';

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

export const framingOption = () => new Option('--framing <mode>', 'lines (strict JSONL) | values (any JSON values, a top-level array included) | auto').default('auto');

export function checkFraming(value: string): Framing {
  if (!(FRAMINGS as readonly string[]).includes(value)) throw new UsageError(`Invalid value for --framing: "${value}". Expected one of: ${FRAMINGS.join(', ')}.`);
  return value as Framing;
}

export function checkFormat(value: string, allowed: readonly OutputFormat[] = OUTPUT_FORMATS): OutputFormat {
  const format = value.toLowerCase();
  if (!(allowed as readonly string[]).includes(format)) throw new UsageError(`Invalid value for --output-format: "${value}". Expected one of: ${allowed.join(', ')}.`);
  return format as OutputFormat;
}

export function checkCount(name: string, value: string, min = 0): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`Invalid value for ${name}: "${value}". Expected a whole number of at least ${min}.`);
  return n;
}
