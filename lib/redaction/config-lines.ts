/**
 * Secrets that config files give in shapes other than `NAME = value`: PHP's
 * `define('DB_PASSWORD', '…')` (WordPress's wp-config.php, and the PHP apps
 * built like it) and a `.netrc` entry's `password` (`machine host login user
 * password …`, on one line or several). A value is judged as the assignment
 * rule judges one: a literal of 8+ characters, not a placeholder or a reference.
 */

import { isSensitiveKey } from './keys.js';
import { isSecretLiteral } from './literals.js';
import { extendRun, scanRule, type TextRule } from './rule.js';

/** `define(`, a quoted constant name, a comma, the quoted value (wp-config.php aligns the values: up to 32 blanks before). */
const DEFINE =
  /define\((?<=(?:^|[^\w$])define\()[ \t]{0,4}(["'])([A-Za-z_][A-Za-z0-9_]{0,127})\1[ \t]{0,4},[ \t]{0,32}(?:'([^'\r\n]{1,4096})'|"((?:[^"\\\r\n]|\\[^\r\n]){1,4096})")/gi;

export const PHP_DEFINE_RULE: TextRule = scanRule(
  'php-define',
  ['define('],
  DEFINE,
  (match) => {
    const value = match[3] ?? match[4]!;
    if (!isSensitiveKey(match[2]!) || !isSecretLiteral(value, { quoted: true, envStyle: false })) return undefined;
    const end = match.index + match[0].length - 1;
    return [end - value.length, end];
  },
  true,
);

/**
 * What comes before a .netrc `password`: `machine`, `login` or `account` and its word, then blanks or line breaks.
 * At most 96 characters, within what the stream redactor keeps in view before a held keyword (stream-context.ts).
 */
const NETRC_BEFORE = '(?:^|\\s)(?:machine|login|account)[ \\t]{1,4}\\S{1,64}\\s{1,16}';
const NETRC = new RegExp(`password(?<=${NETRC_BEFORE}password)[ \\t]{1,4}(\\S{1,1024})`, 'gi');
const ENDS_NETRC_WORD = new RegExp(`${NETRC_BEFORE}$`, 'i');
/** How far back from `password` NETRC_BEFORE can reach. */
export const NETRC_REACH = 96;

const GLUED = /[,;&)}\]<>"'`].*$/s;

/** Whether the text before a `password` (its last NETRC_REACH characters or fewer) ends as a .netrc word does. */
export const endsNetrcWord = (before: string): boolean => ENDS_NETRC_WORD.test(before);

export const NETRC_RULE: TextRule = scanRule(
  'netrc-password',
  ['pass'],
  NETRC,
  (match) => {
    const value = match[1]!;
    // a value glued to what follows (`pw,next`) is judged up to where a bare value would end, and goes whole
    if (!isSecretLiteral(value.replace(GLUED, ''), { quoted: false, envStyle: false })) return undefined;
    const end = match.index + match[0].length;
    return [end - value.length, extendRun(match.input, end, /\S/)];
  },
  true,
);
