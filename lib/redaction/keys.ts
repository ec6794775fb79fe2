/** Which object keys, header names and variable names hold secrets. */

import { cachedByName } from './names.js';

/** Normalised names that are sensitive on their own or as the last part of a longer name. */
export const SENSITIVE_SUFFIXES: readonly string[] = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'secret_key',
  'token',
  'api_key',
  'apikey',
  'access_key',
  'private_key',
  'client_secret',
  'credential',
  'credentials',
  'authorization',
  'cookie',
  'set_cookie',
  'session_token',
  'signing_key',
  'encryption_key',
  'master_key',
  'ssh_key',
  'session_key',
  // keys named for what they unlock: Azure's AccountKey, Laravel's APP_KEY, Rails' secret_key_base, WireGuard's PresharedKey
  'account_key',
  'storage_key',
  'license_key',
  'hmac_key',
  'app_key',
  'auth_key',
  'authkey',
  'admin_key',
  'subscription_key',
  'preshared_key',
  'secret_key_base',
  'api_keys',
  // written as one word: SECRETKEY, PRIVATEKEY
  'secretkey',
  'privatekey',
  'masterkey',
  'accesskey',
];

/**
 * Environment-style endings that are sensitive only after a separator
 * (`DB_PASS`, `MYSQL_PWD`, `BASIC_AUTH`): bare, or glued into a word
 * (`bypass`, `oauth`), they are ordinary.
 */
export const SENSITIVE_ENV_SUFFIXES: readonly string[] = ['pass', 'pwd', 'auth'];

/** Lowercase keywords for rule prefilters: every sensitive key name contains one (a test checks). */
export const SENSITIVE_KEY_KEYWORDS: readonly string[] = ['pass', 'pwd', 'secret', 'token', 'key', 'credential', 'auth', 'cookie'];

/** The same for query parameter names (`sig`, `signature`, `pwd` besides the sensitive keys). */
export const QUERY_PARAM_KEYWORDS: readonly string[] = [...SENSITIVE_KEY_KEYWORDS, 'sig'];

/** Query-string parameters whose value is a secret even though the name alone is too generic for a key. */
export const SENSITIVE_QUERY_PARAMS: ReadonlySet<string> = new Set([
  'key',
  'sig',
  'signature',
  'auth',
  'pwd',
  'x_amz_signature',
  'x_amz_credential',
  'x_amz_security_token',
]);

/**
 * `apiKey`, `api-key`, `API_KEY`, `APIKey`, `x.api key` → `api_key` style:
 * camelCase humps and runs of separators become one underscore, all lowercase.
 */
export function normaliseKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/**
 * What may follow a sensitive name and leave it one (`DB_PASSWORD_PROD`, `API_KEY_V2`, `ADMIN_PASSWORD_1`): a
 * number, a version, an environment, which of several; at most two of them.
 */
const QUALIFIER = /_(?:\d{1,4}|v\d{1,3}|prod|production|dev|development|staging|stage|test|testing|qa|uat|local|live|sandbox|old|new|current|previous|primary|secondary|backup)$/;

const endsSensitive = (name: string): boolean =>
  SENSITIVE_SUFFIXES.some((suffix) => name.endsWith(suffix)) || SENSITIVE_ENV_SUFFIXES.some((suffix) => name.endsWith(`_${suffix}`));

/** Whether a value stored under this key is a secret (compared after normaliseKey). */
export const isSensitiveKey: (key: string) => boolean = cachedByName((key) => {
  let normalised = normaliseKey(key);
  for (let qualifiers = 0; normalised.length > 0; qualifiers++) {
    if (endsSensitive(normalised)) return true;
    const qualified = qualifiers < 2 ? normalised.replace(QUALIFIER, '') : normalised;
    if (qualified === normalised) return false;
    normalised = qualified;
  }
  return false;
});

/** Whether a URL query parameter of this name carries a secret (`?token=`, `&sig=`, …). */
export const isSensitiveQueryParam: (name: string) => boolean = cachedByName(
  (name) => isSensitiveKey(name) || SENSITIVE_QUERY_PARAMS.has(normaliseKey(name)),
);
