import { isAbsolute } from 'node:path';

/**
 * The options of the exported factories, checked when a stage is made: an embedding program's mistake (a format
 * of `yaml`, `secrets` as one string, a schema version of 7) is a TypeError at its call that says what was
 * expected, not a stage that writes something else, or fails at its first event with an error from inside.
 * Messages name what a value is, never the value (it may be a secret).
 */

/** What an option must be, said after "must be", and the test of a value given (undefined is never tested). */
export type Check = readonly [expected: string, test: (value: unknown) => boolean];

/** What `value` is, without its content. */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array${value.length ? ` of ${[...new Set(value.map((item) => (item === null ? 'null' : Array.isArray(item) ? 'array' : typeof item)))].join(', ')}` : ''}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export const oneOf = (values: readonly unknown[]): Check => [
  `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`,
  (value) => values.includes(value),
];
export const aString: Check = ['a string', (value) => typeof value === 'string'];
export const aName: Check = ['a non-empty string', (value) => typeof value === 'string' && value.length > 0];
export const strings: Check = ['an array of strings', (value) => Array.isArray(value) && value.every((item) => typeof item === 'string')];
export const anAbsolutePath: Check = ['an absolute path', (value) => typeof value === 'string' && isAbsolute(value)];
export const aBoolean: Check = ['a boolean', (value) => typeof value === 'boolean'];
export const aFunction: Check = ['a function', (value) => typeof value === 'function'];
export const wholeNumber: Check = ['a whole number, 0 or more', (value) => Number.isSafeInteger(value) && (value as number) >= 0];
export const positiveInteger: Check = ['a positive integer', (value) => Number.isSafeInteger(value) && (value as number) > 0];
export const positiveNumber: Check = ['a positive number', (value) => typeof value === 'number' && value > 0 && value < Infinity];
export const nonNegativeNumber: Check = ['a number, 0 or more', (value) => typeof value === 'number' && value >= 0 && value < Infinity];
export const aProvider: Check = [
  'a provider (an object with a name, a model and a turn method)',
  (value) => typeof (value as { turn?: unknown } | null)?.turn === 'function' && typeof (value as { name?: unknown }).name === 'string',
];
export const anAbortSignal: Check = ['an AbortSignal', (value) => value instanceof AbortSignal];
export const aWriter: Check = ['an object with a write method', (value) => typeof (value as { write?: unknown } | null)?.write === 'function'];
/** A schema version, or a function that settles it at the first event. */
export const aVersion: Check = ['1, 2 or a function that returns one', (value) => value === 1 || value === 2 || typeof value === 'function'];
export type Checks = Readonly<Record<string, Check>>;

/** `value`, for what `expected` says, when `factory` is called: a TypeError when it is something else. */
export function checkValue(factory: string, name: string, value: unknown, [expected, test]: Check): void {
  if (test(value)) return;
  const what = typeof value === 'string' && expected.startsWith('one of') ? 'another string' : kindOf(value);
  throw new TypeError(`${factory}: ${name} must be ${expected}, not ${what}.`);
}

/**
 * `given` (undefined: no options), every option in `checks` that is set checked; returns the options, `{}` for
 * none. `path`: how the message names them (`options.redaction` for options inside options).
 */
export function checkOptions<T extends object>(factory: string, given: T | undefined, checks: Checks, path = 'options'): T {
  if (given === undefined) return {} as T;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new TypeError(`${factory}: ${path} must be an object, not ${kindOf(given)}.`);
  for (const name in checks) {
    const value = (given as Record<string, unknown>)[name];
    if (value !== undefined) checkValue(factory, `${path}.${name}`, value, checks[name]!);
  }
  return given;
}

/** `given`'s options named in `names`, which must be set. */
export function checkRequired(factory: string, given: object, names: readonly string[], path = 'options'): void {
  for (const name of names) if ((given as Record<string, unknown>)[name] === undefined) throw new TypeError(`${factory}: ${path}.${name} is required.`);
}

/** Shared by the stages and chains that take them. */
export const REDACTION: Checks = { secrets: strings };
export const LINES: Checks = { maxLineBytes: positiveInteger, label: aString };
export const STAMPING: Checks = { runId: aName, schemaVersion: aVersion, onRunEnd: aFunction, permissionEvents: aBoolean };
