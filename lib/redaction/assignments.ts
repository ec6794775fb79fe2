/**
 * `NAME=value`, `NAME: value`, `"name": "value"`, `name := "value"` where NAME
 * is a sensitive key and the value is a secret literal of 8+ characters (not a
 * reference, call, `await …` or keyword). Only the value is replaced: quotes
 * and the rest of the line survive.
 */

import { isSensitiveKey } from './keys.js';
import { isSecretLiteral } from './literals.js';
import { extendRun, scanRule, type TextRule } from './rule.js';

/**
 * An optionally quoted name, then an operator. A name starts at a letter or
 * underscore not glued to a preceding name character (a leading `-`, as in
 * `--password=`, is allowed) and may hold dots and dashes (`db.password`, `x-api-key`).
 */
const NAME_AND_OPERATOR =
  /(?<![A-Za-z0-9_.])(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,127})\1([ \t]{0,4})(:=|=>|:|=)([ \t]{0,4})/g;

/** Values, tried at the position right after the operator (sticky). */
const QUOTED_VALUE: Readonly<Record<string, RegExp>> = {
  '"': /"([^"\r\n]{0,4096})"/y,
  "'": /'([^'\r\n]{0,4096})'/y,
  '`': /`([^`\r\n]{0,4096})`/y,
};
const BARE_VALUE = /[^\s"'`,;&)}\]<>]{1,4096}/y;
const BARE_VALUE_CHAR = /[^\s"'`,;&)}\]<>]/;

/** Keywords for the prefilter: every sensitive key contains one of these. */
const KEYWORDS: readonly string[] = ['pass', 'secret', 'token', 'key', 'credential', 'auth', 'cookie'];

interface Value {
  readonly start: number;
  readonly end: number;
  readonly quoted: boolean;
}

function readValue(text: string, at: number): Value | undefined {
  const quote = QUOTED_VALUE[text.charAt(at)];
  if (quote) {
    quote.lastIndex = at;
    const quoted = quote.exec(text);
    if (quoted) return { start: at + 1, end: at + 1 + quoted[1].length, quoted: true };
  }
  // no quote, or one that is never closed on this line: judge what follows as a bare value
  const opening = quote ? 1 : 0;
  BARE_VALUE.lastIndex = at + opening;
  const bare = BARE_VALUE.exec(text);
  if (!bare) return undefined;
  const start = at + opening;
  return { start, end: extendRun(text, start + bare[0].length, BARE_VALUE_CHAR), quoted: false };
}

export const ASSIGNMENT_RULE: TextRule = scanRule('sensitive-assignment', KEYWORDS, NAME_AND_OPERATOR, (match) => {
  const [whole, , name, before, operator, after] = match;
  if (!isSensitiveKey(name)) return undefined;
  const value = readValue(match.input, match.index + whole.length);
  if (!value) return undefined;
  const envStyle = operator === '=' && before === '' && after === '';
  const literal = match.input.slice(value.start, value.end);
  return isSecretLiteral(literal, { quoted: value.quoted, envStyle }) ? [value.start, value.end] : undefined;
});
