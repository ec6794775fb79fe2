/**
 * Secrets passed to a command as its arguments, as a model writes shell
 * commands: a sensitive flag and its value as the next argument
 * (`--password X`, `--api-key "X"`), and the short options that take a
 * password (`mysql -pX`, `sshpass -p X`, `redis-cli -a X`, `docker login -p X`,
 * `curl -u user:X`). A value is judged as a bare value after `NAME=` is: a
 * literal of 8+ characters, not `$PASSWORD`, a placeholder or a flag.
 */

import { SENSITIVE_KEY_KEYWORDS, isSensitiveKey } from './keys.js';
import { isSecretLiteral } from './literals.js';
import { extendRun, scanRule, type SecretRange, type TextRule } from './rule.js';

/** An argument: double- or single-quoted on one line, or bare up to what ends a word or a command. */
const VALUE = `(?:"([^"\\r\\n]{1,4096})"|'([^'\\r\\n]{1,4096})'|([^\\s"'\`;|&<>()]{1,4096}))`;
const BARE_CHAR = /[^\s"'`;|&<>()]/;

/** The secret in a match whose last part is VALUE (its three groups from `first` on). */
function valueRange(match: RegExpExecArray, first: number): SecretRange | undefined {
  const [doubled, single, bare] = [match[first], match[first + 1], match[first + 2]];
  const value = doubled ?? single ?? bare!;
  if (value.startsWith('-')) return undefined;
  if (!isSecretLiteral(value, { quoted: bare === undefined, envStyle: true })) return undefined;
  const end = match.index + match[0].length - (bare === undefined ? 1 : 0);
  return [end - value.length, bare === undefined ? end : extendRun(match.input, end, BARE_CHAR)];
}

/**
 * `--name value`: a flag whose name is sensitive, then a space, then its value. Each pattern begins with its literal
 * (`--`, `-p`): the regex engine skips to it, and checks what is behind only there (a lookbehind first ran at every
 * position of every text, a third of `zero redact`'s time).
 */
const FLAG_THEN_VALUE = new RegExp(`--(?<=(?:^|[^\\w-])--)([A-Za-z][A-Za-z0-9-]{0,63})[ \\t]{1,4}${VALUE}`, 'g');

export const COMMAND_FLAG_RULE: TextRule = scanRule('command-flag', SENSITIVE_KEY_KEYWORDS, FLAG_THEN_VALUE, (match) =>
  isSensitiveKey(match[1]!) ? valueRange(match, 2) : undefined,
);

/**
 * `option` (without its dash) at an argument's start, on a command line of `command`: behind it the command word and
 * up to 128 characters without `;|&` or a line break (within what the stream redactor keeps in view before a held
 * option: stream-context.ts).
 */
const optionOf = (option: string, command?: string) =>
  `(?:${option})(?<=(?:^|[^\\w-])-(?:${option}))${command ? `(?<=\\b(?:${command})\\b[^\\r\\n;|&]{0,128}-(?:${option}))` : ''}`;

const SHORT_OPTION_PASSWORD = new RegExp(
  `-(?:${[
    optionOf('p', 'mysql|mysqldump|mysqladmin|mariadb|mariadb-dump'),
    `${optionOf('p', 'sshpass')}[ \\t]{0,4}`,
    `${optionOf('a', 'redis-cli')}[ \\t]{1,4}`,
    `${optionOf('p', 'docker[ \\t]{1,4}login')}[ \\t]{1,4}`,
    // curl's, wget's and others' user:password
    `${optionOf('-user|u')}(?:[ \\t]{1,4}|=)?["']?[^\\s:"'@/]{1,256}:`,
  ].join('|')})${VALUE}`,
  'g',
);

export const COMMAND_PASSWORD_RULE: TextRule = scanRule('command-password', ['-p', '-a', '-u'], SHORT_OPTION_PASSWORD, (match) =>
  valueRange(match, 1),
);
