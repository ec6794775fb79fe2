/**
 * Secrets identified by where they sit in HTTP-ish text: passwords in URLs,
 * sensitive query parameters, `Authorization` and API-key headers, and bare
 * `Bearer <token>`. Only the secret is replaced; what surrounds it survives.
 */

import { QUERY_PARAM_KEYWORDS, isSensitiveQueryParam } from './keys.js';
import { isHeaderSecret, isPlaceholder, isRedacted, isReference, looksLikeCode, looksRandom } from './literals.js';
import { extendRun, lineLocalRule, prefixedSecretRule, scanRule, type TextRule } from './rule.js';

/** Characters that continue a header value or a query value past its regex's length bound. */
const HEADER_VALUE_CHAR = /[^\s"'`,;]/;
/** Up to a closing parenthesis too: `[badge](https://h/b.svg?token=<token>)` keeps its `)`. */
const QUERY_VALUE_CHAR = /[^?&#\s"'`<>)]/;

const AUTH_SCHEMES: ReadonlySet<string> = new Set(['bearer', 'basic', 'token', 'digest', 'negotiate', 'apikey']);

/**
 * `scheme://user:PASSWORD@host` (the user part may be empty). Its regex would
 * try every word as a scheme, so it runs only on lines holding a `://`.
 */
export const URL_PASSWORD_SCAN = prefixedSecretRule(
  'url-password',
  ['://'],
  /(\b[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s:/@?#"'`<>]{0,256}:)([^\s:/@?#"'`<>]{1,1024})(?=@)/g,
  (password) => isRedacted(password) || isReference(password) || isPlaceholder(password),
);

/**
 * `https://TOKEN@github.com/o/r.git` (or with `x-oauth-basic` as its password): a user part that is a token (20+
 * characters that look random) is the credential, with or without a password after it (which url-password judges).
 */
const URL_TOKEN_USER_SCAN = prefixedSecretRule(
  'url-token-user',
  ['://'],
  /(\b[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/)([A-Za-z0-9_.~-]{20,256})(?=(?::[^\s:/@?#"'`<>]{0,1024})?@)/g,
  (user) => !looksRandom(user),
);

/** `?token=VALUE&sig=VALUE`: the value of a sensitive parameter, up to the next `&`, `?`, `#` or quote. */
const queryParamScan = scanRule(
  'query-param',
  QUERY_PARAM_KEYWORDS,
  /[?&]([A-Za-z0-9_.-]{1,64})=([^?&#\s"'`<>)]{1,4096})/g,
  (match) => {
    const [whole, name, value] = match;
    if (!isSensitiveQueryParam(name) || !isHeaderSecret(value)) return undefined;
    const end = match.index + whole.length;
    return [end - value.length, extendRun(match.input, end, QUERY_VALUE_CHAR)];
  },
);

/** Its regex looks at every character; most text (prose, code) has no `?` or `&`, which two indexOf tell faster. */
const queryParam: TextRule = { ...queryParamScan, apply: (text) => (text.includes('?') || text.includes('&') ? queryParamScan.apply(text) : text) };

/**
 * In code, a quoted header name before an unquoted value (`{ 'api-key': apiKey }`)
 * makes the value an expression: only a literal-looking one is a secret.
 */
function isHeaderValueSecret(value: string, nameQuote: string, valueQuote: string): boolean {
  if (!isHeaderSecret(value)) return false;
  return nameQuote === '' || valueQuote !== '' || !looksLikeCode(value, false);
}

/** `Authorization: Bearer <token>`, `"authorization": "Basic <base64>"`, `Authorization=<token>`: only the token goes. */
const authorization = scanRule(
  'authorization-header',
  ['authorization'],
  /\bauthorization(["']?)[ \t]{0,4}[:=][ \t]{0,4}(["']?)(?:(bearer|basic|token|digest|negotiate|apikey)[ \t]{1,4})?([^\s"'`,;]{1,4096})/gi,
  (match) => {
    const [whole, nameQuote, valueQuote, scheme, token] = match;
    if (!isHeaderValueSecret(token, nameQuote, valueQuote)) return undefined;
    // without a scheme, a lone word is prose (`Authorization: required`), a random token is a credential
    if (scheme === undefined && (AUTH_SCHEMES.has(token.toLowerCase()) || !looksRandom(token))) return undefined;
    const end = match.index + whole.length;
    return [end - token.length, extendRun(match.input, end, HEADER_VALUE_CHAR)];
  },
  // code names the header often (`r.Header.Get("Authorization")`): the regex is tried only where it is named
  true,
);

/** `x-api-key: VALUE`, `api-key: VALUE`, `x-goog-api-key`, `x-auth-token`. */
const apiKeyHeader = scanRule(
  'api-key-header',
  ['api-key', 'auth-token'],
  /\b(?:x-)?(?:goog-)?(?:api-key|auth-token)(["']?)[ \t]{0,4}[:=][ \t]{0,4}(["']?)([^\s"'`,;]{1,4096})/gi,
  (match) => {
    const [whole, nameQuote, valueQuote, value] = match;
    if (!isHeaderValueSecret(value, nameQuote, valueQuote)) return undefined;
    const end = match.index + whole.length;
    return [end - value.length, extendRun(match.input, end, HEADER_VALUE_CHAR)];
  },
);

/** A bare `Bearer TOKEN` anywhere, when TOKEN looks random (`the bearer of bad news` stays). */
const bearer = prefixedSecretRule(
  'bearer-token',
  ['bearer'],
  /(\bbearer[ \t]{1,4})([A-Za-z0-9._~+/=-]{8,4096})/gi,
  (token) => !looksRandom(token),
  /[A-Za-z0-9._~+/=-]/,
);

/** In the order they run. */
export const HTTP_RULES: readonly TextRule[] = [lineLocalRule(URL_PASSWORD_SCAN), lineLocalRule(URL_TOKEN_USER_SCAN), queryParam, authorization, apiKeyHeader, bearer];
