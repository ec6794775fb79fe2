/**
 * Judging a candidate value found next to a sensitive name: is it a secret
 * literal, or code/config that merely refers to one (`$TOKEN`, `process.env.X`,
 * `await load()`), or something already redacted?
 */

import { REDACTED } from './rule.js';

/** Words that, standing alone as a value, are code or empty values, never secrets. */
const NON_SECRET_WORDS: ReadonlySet<string> = new Set([
  'await', 'async', 'new', 'typeof', 'function', 'yield', 'require', 'import', 'return',
  'null', 'undefined', 'nil', 'none', 'true', 'false', 'nan', 'string', 'number',
  'boolean', 'object', 'redacted',
]);

/** Variable, environment and template references: `$X`, `${X}`, `%X%`, `{{ x }}`, `<your-key>`. */
export function isReference(value: string): boolean {
  const first = value.charAt(0);
  if (first === '$' || first === '<') return true;
  if (first === '%' && /^%[A-Za-z_][A-Za-z0-9_]{0,127}%/.test(value)) return true;
  return value.includes('${') || value.includes('{{');
}

/** Whether the text already carries the redaction marker (keeps redaction idempotent). */
export function isRedacted(value: string): boolean {
  return value.includes(REDACTED);
}

/** Whether a header/authorization value should be replaced: anything but a reference or a marker. */
export function isHeaderSecret(value: string): boolean {
  return value.length > 0 && !isReference(value) && !isRedacted(value);
}

export interface LiteralContext {
  /** The value was written between quotes. */
  readonly quoted: boolean;
  /** `NAME=value` with nothing around the `=`: shell, .env and CLI style, where bare words are values. */
  readonly envStyle: boolean;
}

/** Whether a value assigned to a sensitive name is a secret literal of 8+ characters. */
export function isSecretLiteral(value: string, context: LiteralContext): boolean {
  if (value.length < 8) return false;
  if (isRedacted(value) || isReference(value)) return false;
  if (context.quoted) return true;
  return !looksLikeCode(value, context.envStyle);
}

function looksLikeCode(value: string, envStyle: boolean): boolean {
  if (NON_SECRET_WORDS.has(value.toLowerCase())) return true;
  // comparisons (`token == x`), calls (`prompt(`), indexing (`os.environ[`)
  if (value.startsWith('=') || value.includes('(') || value.includes('[')) return true;
  // member access: process.env.TOKEN, config.apiKey, this.password
  if (isMemberAccess(value)) return true;
  // a bare identifier without digits (`userPassword`) is a variable in code,
  // but a value in `NAME=value` shell and .env lines
  return !envStyle && /^[A-Za-z_$]{1,4096}$/.test(value);
}

function isMemberAccess(value: string): boolean {
  if (!value.includes('.')) return false;
  return value.split('.').every((part) => /^[A-Za-z_$][\w$]{0,127}$/.test(part));
}

/**
 * Whether a free-standing token (after a bare `Bearer `) looks random rather
 * than like a word: it has a digit, or mixes cases over 16+ characters.
 */
export function looksRandom(value: string): boolean {
  if (value.length < 8) return false;
  if (/[0-9]/.test(value)) return true;
  return value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value);
}
