/**
 * A password given in SQL after `IDENTIFIED BY`: MySQL's and Oracle's `CREATE USER … IDENTIFIED BY '…'`,
 * `IDENTIFIED WITH plugin BY '…'`, `IDENTIFIED BY PASSWORD '…'` (a hash, as sensitive), and Oracle's, unquoted.
 * (PostgreSQL's `PASSWORD '…'` is the assignment rule's.) The value is judged as a config file's would be, and
 * unquoted only when it looks random (prose says `identified by name`); a bind variable (`:pw`, `@pw`, `?`) is none.
 */

import { isSecretLiteral, looksRandom } from './literals.js';
import { extendRun, scanRule, type TextRule } from './rule.js';

const IDENTIFIED_BY =
  /identified(?<![A-Za-z0-9_]identified)[ \t]{1,4}(?:with[ \t]{1,4}[A-Za-z0-9_]{1,64}[ \t]{1,4})?by[ \t]{1,4}(?:password[ \t]{1,4})?(?:'([^'\r\n]{1,1024})'|"([^"\r\n]{1,1024})"|(?![:@?])([^\s'"`;]{1,1024}))/gi;
const BARE_CHAR = /[^\s'"`;]/;

export const SQL_IDENTIFIED_RULE: TextRule = scanRule(
  'sql-identified-by',
  ['identified'],
  IDENTIFIED_BY,
  (match) => {
    const quoted = match[1] ?? match[2];
    const value = quoted ?? match[3]!;
    if (!isSecretLiteral(value, { quoted: quoted !== undefined, envStyle: true })) return undefined;
    // unquoted, it may be prose (`the method identified by algorithm`): only a random-looking word is a password
    if (quoted === undefined && !looksRandom(value)) return undefined;
    const end = match.index + match[0].length;
    return quoted !== undefined ? [end - 1 - value.length, end - 1] : [end - value.length, extendRun(match.input, end, BARE_CHAR)];
  },
  true,
);
