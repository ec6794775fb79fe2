/**
 * A user and password stored base64-encoded under `auth`: docker's
 * `~/.docker/config.json` (`"auth": "<base64>"`), `.npmrc`'s `_auth=…`,
 * `.yarnrc`'s. `auth` alone names too many things to be a sensitive key
 * (`auth: true`, `auth: "required"`), so the value goes only when it decodes
 * to `user:password`.
 */

import { prefixedSecretRule, type TextRule } from './rule.js';

/** Begins with its literal, and looks behind only there: `auth` is in most texts that hold code (author, OAuth). */
const AUTH_VALUE = /(_?auth(?<=(?:^|[^A-Za-z0-9_])_?auth)["']?[ \t]{0,4}[:=][ \t]{0,4}["']?)([A-Za-z0-9+/]{8,4096}={0,2})(?![A-Za-z0-9+/=])/gi;

/** Whether base64 `value` decodes to printable `user:password`. */
export function isEncodedCredential(value: string): boolean {
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]{1,512}:[\x20-\x7e]{1,2048}$/.test(decoded);
}

export const BASIC_AUTH_RULE: TextRule = prefixedSecretRule('basic-auth-field', ['auth'], AUTH_VALUE, (secret) => !isEncodedCredential(secret));
