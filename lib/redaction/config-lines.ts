/**
 * A `.netrc` entry's `password` (`machine host login user password …`, on one
 * line or several): a secret config files give in a shape other than
 * `NAME = value`. The value is judged as code's would be: a literal of 8+
 * characters that is not a bare word, a placeholder or a reference.
 */

import { isSecretLiteral } from './literals.js';
import { extendRun, scanRule, type TextRule } from './rule.js';

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
