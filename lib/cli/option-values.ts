import type { Command } from 'commander';
import { UsageError } from '../errors.js';

/** A word that is an option, not a value: `--x` or `-x`, as Zero's flagValueLooksLikeOption says; `-` (stdin) and numbers are values. */
const looksLikeOption = (word: string) => word.length > 1 && word.startsWith('-') && !/^-(\d+\.?\d*|\.\d+)$/.test(word);

/**
 * An option that takes a value, followed by a word that is an option (`--model --output-format json`, from an
 * empty `$MODEL`), is a usage error naming both, as in Zero: commander would take `--output-format` as the model.
 * Checked once, over the command line, for every option of the command that runs; the inline form
 * (`--model=-x`) passes a value that starts with `-`.
 */
export function checkOptionValues(command: Command, argv: readonly string[]): void {
  for (let index = 0; index < argv.length - 1; index++) {
    if (argv[index] === '--') return;
    const option = command.options.find((candidate) => candidate.required && (candidate.long === argv[index] || candidate.short === argv[index]));
    if (!option) continue;
    const value = argv[++index]!;
    if (looksLikeOption(value)) {
      const inline = option.long ?? option.short;
      command.error(`Option '${option.flags}' needs a value, but the next word is the option "${value}" (write ${inline}=VALUE for a value that starts with "-")`, { code: 'zero.optionValue', exitCode: 2 });
    }
  }
}

/** A value from a fixed list, case-insensitive; anything else is a usage error naming the flag and the choices. */
export function choice<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  const lower = value.toLowerCase() as T;
  if (allowed.includes(lower)) return lower;
  throw new UsageError(`Invalid value for ${flag}: "${value}". Expected one of: ${allowed.join(', ')}.`);
}

export function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`Invalid value for ${flag}: "${value}". Expected a positive integer.`);
  }
  return Number(value);
}

export function nonNegativeInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`Invalid value for ${flag}: "${value}". Expected a whole number (0 or more).`);
  }
  return Number(value);
}

/** Node's timers hold a signed 32-bit count of milliseconds: a longer delay silently becomes 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** The longest duration in whole seconds that a timer can wait (about 24.8 days). */
export const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/** Seconds as given on the command line, in milliseconds; more than a timer can wait is a usage error. */
export function seconds(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\s*\d*\.?\d+\s*$/.test(value) || !(number > 0) || number > MAX_TIMER_SECONDS) {
    throw new UsageError(`Invalid value for ${flag}: "${value}". Expected a positive number of seconds, at most ${MAX_TIMER_SECONDS}.`);
  }
  // Fractions are honoured to the millisecond; less than half of one would round to 0, which turns a timer off.
  if (Math.round(number * 1000) < 1) throw new UsageError(`Invalid value for ${flag}: "${value}". Expected at least 0.001 seconds (one millisecond).`);
  return Math.round(number * 1000);
}

/** Milliseconds as given on the command line (0 or more); more than a timer can wait is a usage error. */
export function milliseconds(flag: string, value: string | undefined): number | undefined {
  const ms = nonNegativeInteger(flag, value);
  if (ms !== undefined && ms > MAX_TIMER_MS) throw new UsageError(`Invalid value for ${flag}: "${value}". Expected at most ${MAX_TIMER_MS} milliseconds.`);
  return ms;
}
