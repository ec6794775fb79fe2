/**
 * `Cookie:` and `Set-Cookie:` headers (and curl's `--cookie`): each cookie
 * value of 8+ characters is replaced (`sid=<value>` → `sid=[REDACTED]`);
 * cookie names, short values (`theme=dark`) and the Set-Cookie attributes
 * (`Path=/`, `HttpOnly`, `Max-Age=3600`, …) stay, so the line still reads as
 * what it was. A value with no name (`Cookie: <value>`) goes when it looks
 * like a literal rather than a word.
 */

import { isHeaderSecret, isSecretLiteral, looksRandom } from './literals.js';
import { REDACTED, extendRun, runReader, type TextRule } from './rule.js';

/**
 * The header name, its separator and an opening quote; also curl's `--cookie
 * name=value`. Wherever the assignment rule reads a `cookie:` name, this
 * matches too (the same lookbehind), so the assignment rule can leave cookie
 * lists to this one.
 */
const HEADER = /(?:(?<![A-Za-z0-9_.])(?:set[-_.]?)?cookie["']?[ \t]{0,4}:|--cookie[ \t=])[ \t]{0,4}["'`]?/gi;

/** Shorter cookie values (`lang=en`, `theme=dark`) are preferences, not credentials. */
const MIN_VALUE_LENGTH = 8;

/** RFC 6265 cookie-name (token) and cookie-value characters, less quotes. */
const NAME_CHAR = /[!#$%&*+.^_|~0-9A-Za-z-]/;
const VALUE_CHAR = /[^\s;"'`,\\]/;
const SPACE = /[ \t]/;

/** Set-Cookie attributes: their values are not secrets. */
const ATTRIBUTES: ReadonlySet<string> = new Set([
  'path', 'domain', 'expires', 'max-age', 'samesite', 'secure', 'httponly', 'partitioned', 'priority', 'version', 'comment',
]);

type Range = readonly [start: number, end: number];

interface CookieList {
  /** Where the values to replace lie. */
  readonly values: Range[];
  /** Where the list stops: the first character that is not part of it. */
  readonly end: number;
}

/** A browser keeps no cookie longer than this: a longer value is no reference or placeholder, and is not read to judge it. */
const LONGEST_COOKIE = 4096;

/** A value of 8+ characters that is not a plain word (`and=attributes` in docs), an attribute's, a reference or a placeholder. */
function isSecretValue(name: string, value: string): boolean {
  if (ATTRIBUTES.has(name.toLowerCase()) || value.length < MIN_VALUE_LENGTH) return false;
  if (value.length > LONGEST_COOKIE) return true;
  if (!isHeaderSecret(value)) return false;
  return !/^[A-Za-z]{1,4096}$/.test(value) || looksRandom(value);
}

/**
 * What the headers of one text have read (COOKIE_RULE.apply): a header inside another's list reads the rest of it
 * again, which was quadratic (`cookie:a=` repeated: 1.4 s for 24 KB). `pairs`: where a pair was read, so a list
 * that comes to one stops (what follows was read already, to the same verdicts); `valueEnd`: a value's end, the
 * last value's run remembered; `judgedFrom`: values that start before it are not judged (already covered by a
 * marker, they are skipped).
 */
type Reading = { pairs: Set<number>; valueEnd: (text: string, start: number) => number; judgedFrom: number };

/**
 * The cookie list that starts at `at`: `name=value` pairs and bare flags or
 * values separated by `;`, read until anything else. Linear scans only.
 */
function readCookieList(text: string, at: number, reading?: Reading): CookieList {
  const values: Range[] = [];
  const judged = (start: number) => !reading || start >= reading.judgedFrom;
  let end = at;
  for (let pos = at; ; ) {
    if (reading?.pairs.has(pos)) break;
    reading?.pairs.add(pos);
    const nameEnd = extendRun(text, pos, NAME_CHAR);
    if (nameEnd === pos) break;
    const name = text.slice(pos, nameEnd);
    end = nameEnd;
    if (text.charAt(nameEnd) === '=') {
      end = reading ? reading.valueEnd(text, nameEnd + 1) : extendRun(text, nameEnd + 1, VALUE_CHAR);
      if (judged(nameEnd + 1) && isSecretValue(name, text.slice(nameEnd + 1, end))) values.push([nameEnd + 1, end]);
    } else if (judged(pos) && !ATTRIBUTES.has(name.toLowerCase()) && isSecretLiteral(name, { quoted: false, envStyle: false })) {
      values.push([pos, nameEnd]);
    }
    const next = extendRun(text, end, SPACE);
    if (text.charAt(next) !== ';') break;
    end = next + 1;
    pos = extendRun(text, end, SPACE);
  }
  return { values, end };
}

/** Whether all of `value` is one cookie list (the assignment rule leaves such values under a cookie header to this rule). */
export function isCookieList(value: string): boolean {
  return value.length > 0 && readCookieList(value, 0).end === value.length;
}

export const COOKIE_RULE: TextRule = {
  name: 'cookie-header',
  keywords: ['cookie'],
  apply(text) {
    let out = '';
    let copied = 0;
    const reading: Reading = { pairs: new Set(), valueEnd: runReader(VALUE_CHAR), judgedFrom: 0 };
    HEADER.lastIndex = 0;
    for (let match = HEADER.exec(text); match !== null; match = HEADER.exec(text)) {
      reading.judgedFrom = copied;
      const list = readCookieList(text, match.index + match[0].length, reading);
      for (const [start, end] of list.values) {
        if (start < copied) continue;
        out += text.slice(copied, start) + REDACTED;
        copied = end;
      }
      // every header is read, even one inside the list of another (a header name twice in a
      // row), so a second pass reads the same headers whatever a later rule redacts; the
      // `Cookie:` inside `Set-Cookie:` reads the same list again, and its values are skipped above
      HEADER.lastIndex = match.index + 1;
    }
    return copied === 0 ? text : out + text.slice(copied);
  },
};
