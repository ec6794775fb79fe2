/** Which object keys, header names and variable names hold secrets. */

/** Normalised names that are sensitive on their own or as the last part of a longer name. */
const SENSITIVE_SUFFIXES: readonly string[] = [
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
];

/** Query-string parameters whose value is a secret even though the name alone is too generic for a key. */
const SENSITIVE_QUERY_PARAMS: ReadonlySet<string> = new Set([
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

/** Whether a value stored under this key is a secret (compared after normaliseKey). */
export function isSensitiveKey(key: string): boolean {
  if (key.length === 0) return false;
  const normalised = normaliseKey(key);
  for (const suffix of SENSITIVE_SUFFIXES) {
    if (normalised.endsWith(suffix)) return true;
  }
  return false;
}

/** Whether a URL query parameter of this name carries a secret (`?token=`, `&sig=`, …). */
export function isSensitiveQueryParam(name: string): boolean {
  if (isSensitiveKey(name)) return true;
  return SENSITIVE_QUERY_PARAMS.has(normaliseKey(name));
}
