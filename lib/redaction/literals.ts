/**
 * Judging a candidate value found next to a sensitive name: is it a secret
 * literal, or code/config that merely refers to one (`$TOKEN`, `process.env.X`,
 * `await load()`), or something already redacted?
 */

import { isSensitiveKey } from './keys.js';
import { REDACTED } from './rule.js';

/** Words that, standing alone as a value, are code or empty values, never secrets. */
const NON_SECRET_WORDS: ReadonlySet<string> = new Set([
  'await', 'async', 'new', 'typeof', 'function', 'yield', 'require', 'import', 'return',
  'null', 'undefined', 'nil', 'none', 'true', 'false', 'nan', 'string', 'number',
  'boolean', 'object', 'redacted',
  // TypeScript types in `password: Uint8Array` (digits, so not caught as a bare word)
  'int8array', 'uint8array', 'uint8clampedarray', 'int16array', 'uint16array', 'int32array', 'uint32array',
  'float32array', 'float64array', 'bigint64array', 'biguint64array',
  // standard option values: fetch's `credentials: 'same-origin'`
  'same-origin',
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

/**
 * Documentation stand-ins, never real values: `VALUE`, `YOUR_API_KEY`, `xxxx`,
 * `****`, `...`, `password`, `your-token`, `ghp_exampletoken`. A value that
 * says `example` or `changeme` but also looks random (`myexamplepass99`,
 * `changeme2024`) is a real password someone chose, and is not one.
 */
export function isPlaceholder(value: string): boolean {
  if (/^[A-Z][A-Z_]{1,63}$/.test(value)) return true;
  if (/^(?:x{3,64}|X{3,64}|\*{3,64}|\.{3}|…)$/.test(value)) return true;
  if (PLACEHOLDER_WORDS.has(value.toLowerCase())) return true;
  return /example|placeholder|changeme|^your[_-]/i.test(value) && !looksRandom(value);
}

const PLACEHOLDER_WORDS: ReadonlySet<string> = new Set(['password', 'passwd', 'pass', 'pwd', 'secret', 'token', 'value', 'key', 'apikey']);

/** Whether a header/authorization value should be replaced: anything but a reference, a placeholder or a marker. */
export function isHeaderSecret(value: string): boolean {
  return value.length > 0 && !isReference(value) && !isRedacted(value) && !isPlaceholder(value);
}

export interface LiteralContext {
  /** The value was written between quotes. */
  readonly quoted: boolean;
  /** `NAME=value` with nothing around the `=`: shell, .env and CLI style, where bare words are values. */
  readonly envStyle: boolean;
}

/** Whether a value assigned to a sensitive name is a secret literal of 8+ characters. */
export function isSecretLiteral(value: string, context: LiteralContext): boolean {
  // cheapest and most frequent verdicts first (code is common, secrets are rare)
  if (value.length < 8) return false;
  if (!context.quoted && looksLikeCode(value, context.envStyle)) return false;
  if (isRedacted(value) || isReference(value) || isPlaceholder(value)) return false;
  // a URL (whose credentials the URL rules judge), or the name of a field: `'refresh_token'`, `"x-api-key"`
  if (/^[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\//.test(value) || isFieldName(value)) return false;
  return !NON_SECRET_WORDS.has(value.toLowerCase());
}

function isFieldName(value: string): boolean {
  return /^[A-Za-z][A-Za-z_.-]{0,127}$/.test(value) && isSensitiveKey(value);
}

/** Whether a bare value is an expression in code rather than a literal: a call, a keyword, `config.apiKey`, `opts?.token`. */
export function looksLikeCode(value: string, envStyle: boolean): boolean {
  if (NON_SECRET_WORDS.has(value.toLowerCase())) return true;
  // comparisons (`token == x`), calls (`prompt(`), indexing (`os.environ[`), regex literals (`/^Unexpected token/`)
  if (value.startsWith('=') || value.startsWith('/^') || value.includes('(') || value.includes('[')) return true;
  // member access, maybe negated: process.env.TOKEN, config.apiKey, !req.headers.authorization
  if (MEMBER_ACCESS.test(value)) return true;
  // a bare identifier without digits (`userPassword`) is a variable in code,
  // but a value in `NAME=value` shell and .env lines
  return !envStyle && /^[A-Za-z_$]{1,4096}$/.test(value);
}

/**
 * `process.env.TOKEN`, `this.password`, `opts?.workSecret`, `config.apiKey!`,
 * `!req.headers.authorization`: identifiers joined by `.` or `?.`, each part
 * starting with a letter, `_` or `$` (so `abc.d3f` with a digit-led part is not).
 * Every repetition starts with a `.`, so the regex runs in linear time.
 */
const MEMBER_ACCESS = /^!?[A-Za-z_$][\w$]{0,127}!?(?:\??\.[A-Za-z_$][\w$]{0,127}!?){1,64}$/;

/**
 * Whether a free-standing token (after a bare `Bearer `) looks random rather
 * than like a word: it has a digit, or mixes cases over 16+ characters.
 */
export function looksRandom(value: string): boolean {
  if (value.length < 8) return false;
  if (/[0-9]/.test(value)) return true;
  return value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value);
}
