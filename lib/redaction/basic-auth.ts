/**
 * A user and password stored base64-encoded under `auth`: docker's
 * `~/.docker/config.json` (`"auth": "<base64>"`), `.npmrc`'s `_auth=…`,
 * `.yarnrc`'s. `auth` alone names too many things to be a sensitive key
 * (`auth: true`, `auth: "required"`), so the value goes only when it decodes
 * to `user:password`.
 */

import { scanRule, type TextRule } from './rule.js';

/**
 * Begins where its keyword does (`auth`, any case; a `_` before it is looked behind for), so the rule is tried only
 * at the places the prefilter found `auth`: in most texts that hold code (author, OAuth).
 */
const AUTH_VALUE = /auth(?<=(?:^|[^A-Za-z0-9_])_?auth)["']?[ \t]{0,4}[:=][ \t]{0,4}["']?([A-Za-z0-9+/]{8,4096}={0,2})(?![A-Za-z0-9+/=])/gi;

/** Whether base64 `value` decodes to printable `user:password`. */
export function isEncodedCredential(value: string): boolean {
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]{1,512}:[\x20-\x7e]{1,2048}$/.test(decoded);
}

export const BASIC_AUTH_RULE: TextRule = scanRule(
  'basic-auth-field',
  ['auth'],
  AUTH_VALUE,
  (match) => {
    const value = match[1]!;
    if (!isEncodedCredential(value)) return undefined;
    const end = match.index + match[0].length;
    return [end - value.length, end];
  },
  true,
);
