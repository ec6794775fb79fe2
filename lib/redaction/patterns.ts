/**
 * Self-identifying secrets: provider API keys, JWTs and PEM private-key blocks.
 * Each is recognisable on its own, wherever it appears, and is replaced whole.
 *
 * Every quantifier is bounded and none is nested, so each regex runs in linear
 * time. Token bodies are consumed to the end of the run of token characters,
 * however long (see wholeMatchRule's tail), so no tail is left for a second
 * pass to match differently.
 */

import { prefixedSecretRule, wholeMatchRule, type TextRule } from './rule.js';

/**
 * Not preceded by a letter or digit: `task-list` and `risk-level` never start a
 * key. Unless that letter or digit ends an escape — `\n`, `\t`, `\u003c`, `\x22`,
 * `%0A`, `%22` — as in JSON text (`"a\nsk-…"`) or a URL-encoded value: the key
 * starts right after it.
 */
const AFTER_ESCAPE = '(?<=\\\\[nrtbfv])|(?<=\\\\u[0-9A-Fa-f]{4})|(?<=\\\\x[0-9A-Fa-f]{2})|(?<=%[0-9A-Fa-f]{2})';
export const TOKEN_START = `(?:(?<![A-Za-z0-9])|${AFTER_ESCAPE})`;
const START = TOKEN_START;

/**
 * `prefix` at a token start. The start condition is checked behind the prefix,
 * once it matched: checked first, its escape alternatives ran at every position
 * of every text, which made redaction half again as slow.
 */
function atTokenStart(prefix: string, start = START): string {
  return `(?:${prefix})(?<=${start}(?:${prefix}))`;
}

const PEM_HEADER = '-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY[ A-Z]{0,10}-----';
const PEM_FOOTER = '-----END[ A-Z0-9]{0,40}PRIVATE KEY[ A-Z]{0,10}-----';
/** Body of a block whose footer never arrives (truncated output): base64, headers, escaped newlines. */
const PEM_TRUNCATED_BODY = '[A-Za-z0-9+/=\\s:,.\\\\-]{0,65536}';

/**
 * GitLab token prefixes after `gl`: personal, pipeline trigger, deploy, runner,
 * CI job, SCIM, feature-flag client, OAuth app secret, incoming mail, agent,
 * workspace and feed tokens.
 */
const GITLAB_PREFIXES = ['pat', 'ptt', 'dt', 'rt', 'cbt', 'soat', 'ffct', 'oas', 'imt', 'agent', 'wt', 'ft'];

function rule(name: string, keywords: readonly string[], source: string): TextRule {
  return wholeMatchRule(name, keywords, new RegExp(source, 'g'));
}

/**
 * `prefix` then `min`+ characters of `body` (a character class), the whole run of `tail` characters redacted
 * however long (`body` by default).
 */
function tokenRule(name: string, keywords: readonly string[], prefix: string, body: string, min: number, max = 1024, tail = body): TextRule {
  const pattern = new RegExp(`${atTokenStart(prefix)}${body}{${min},${max}}`, 'g');
  return wholeMatchRule(name, keywords, pattern, new RegExp(tail));
}

/**
 * The tail of the services' tokens added late, whose bodies are narrower (hex, capitals): the rest of a run of
 * token characters glued to one goes with it, or a token prefix in that rest (`…W111doo_v1_…`) would start a
 * second token once the first is a marker, in the whole text but not in a stream that released the first.
 */
const GLUED = '[A-Za-z0-9_-]';

/** In the order they run: the PEM block first, so no other rule chops its body. */
export const PATTERN_RULES: readonly TextRule[] = [
  rule(
    'pem-private-key',
    ['private key'],
    `${PEM_HEADER}(?:[\\s\\S]{0,65536}?${PEM_FOOTER}|${PEM_TRUNCATED_BODY})`,
  ),
  tokenRule('anthropic-key', ['sk-ant-'], 'sk-ant-', '[A-Za-z0-9_-]', 20),
  // covers sk-, sk-proj-, sk-svcacct-, sk-admin- (their prefixes are token characters too)
  tokenRule('openai-key', ['sk-'], 'sk-', '[A-Za-z0-9_-]', 20),
  tokenRule('github-token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], 'gh[pousr]_', '[A-Za-z0-9]', 20),
  tokenRule('github-pat', ['github_pat_'], 'github_pat_', '[A-Za-z0-9_]', 20),
  tokenRule('gitlab-token', GITLAB_PREFIXES.map((p) => `gl${p}-`), `gl(?:${GITLAB_PREFIXES.join('|')})-`, '[A-Za-z0-9_-]', 20),
  tokenRule('slack-token', ['xox'], 'xox[bapres]-', '[A-Za-z0-9-]', 10),
  tokenRule('slack-app-token', ['xapp-'], 'xapp-', '[A-Za-z0-9-]', 10),
  // the secret key right after its access key id (the console's credentials CSV, `aws configure list` pasted): before
  // the id's own rule, which takes away what tells the secret apart
  prefixedSecretRule(
    'aws-secret-after-id',
    ['akia', 'asia'],
    new RegExp(`(${atTokenStart('AKIA|ASIA')}[A-Z0-9]{16}[ \\t]{0,4}[,;|\\t ][ \\t]{0,4})([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`, 'g'),
    () => false,
  ),
  rule(
    'aws-access-key-id',
    ['akia', 'asia', 'abia', 'acca'],
    `${atTokenStart('AKIA|ASIA|ABIA|ACCA')}[A-Z0-9]{16}(?![A-Za-z0-9])`,
  ),
  tokenRule('google-api-key', ['aiza'], 'AIza', '[A-Za-z0-9_-]', 35),
  tokenRule('stripe-key', ['_live_', '_test_'], '(?:sk|rk)_(?:live|test)_', '[A-Za-z0-9]', 16),
  tokenRule('npm-token', ['npm_'], 'npm_', '[A-Za-z0-9]', 30),
  tokenRule('huggingface-token', ['hf_'], 'hf_', '[A-Za-z0-9]', 30),
  tokenRule('groq-key', ['gsk_'], 'gsk_', '[A-Za-z0-9]', 20),
  // tokens of services a repository's config or a CI log often holds, each known by its prefix
  tokenRule('pypi-token', ['pypi-age'], 'pypi-AgE', '[A-Za-z0-9_-]', 50, 8192, GLUED),
  tokenRule('stripe-webhook-secret', ['whsec_'], 'whsec_', '[A-Za-z0-9]', 24, 1024, GLUED),
  tokenRule('google-oauth-secret', ['gocspx-'], 'GOCSPX-', '[A-Za-z0-9_-]', 24, 1024, GLUED),
  tokenRule('google-oauth-token', ['ya29.'], 'ya29\\.', '[A-Za-z0-9_.-]', 20, 4096),
  tokenRule('shopify-token', ['shpat_', 'shpss_', 'shpca_', 'shppa_'], 'shp(?:at|ss|ca|pa)_', '[A-Fa-f0-9]', 32, 1024, GLUED),
  tokenRule('digitalocean-token', ['dop_v1_', 'doo_v1_', 'dor_v1_'], 'do[opr]_v1_', '[a-f0-9]', 64, 1024, GLUED),
  tokenRule('vault-token', ['hvs.', 'hvb.'], 'hv[sb]\\.', '[A-Za-z0-9_-]', 24, 1024, GLUED),
  tokenRule('databricks-token', ['dapi'], 'dapi', '[a-f0-9]', 32, 1024, GLUED),
  tokenRule('atlassian-token', ['atatt3'], 'ATATT3', '[A-Za-z0-9_-]', 50, 1024, GLUED),
  tokenRule('xai-key', ['xai-'], 'xai-', '[A-Za-z0-9]', 40, 1024, GLUED),
  tokenRule('replicate-token', ['r8_'], 'r8_', '[A-Za-z0-9]', 30, 1024, GLUED),
  tokenRule('perplexity-key', ['pplx-'], 'pplx-', '[A-Za-z0-9]', 40, 1024, GLUED),
  tokenRule('tailscale-key', ['tskey-'], 'tskey-', '[A-Za-z0-9-]', 20, 1024, GLUED),
  tokenRule('square-token', ['sq0atp-', 'sq0csp-'], 'sq0(?:atp|csp)-', '[A-Za-z0-9_-]', 22, 1024, GLUED),
  tokenRule('linear-key', ['lin_api_'], 'lin_api_', '[A-Za-z0-9]', 30, 1024, GLUED),
  tokenRule('postman-key', ['pmak-'], 'PMAK-', '[A-Za-z0-9-]', 50, 1024, GLUED),
  tokenRule('age-secret-key', ['age-secret-key-1'], 'AGE-SECRET-KEY-1', '[A-Z0-9]', 50, 1024, GLUED),
  tokenRule('doppler-token', ['dp.st.', 'dp.pt.', 'dp.ct.', 'dp.sa.'], 'dp\\.(?:st|pt|ct|sa)\\.', '[A-Za-z0-9_.-]', 30),
  tokenRule('mapbox-secret', ['sk.eyj'], 'sk\\.eyJ', '[A-Za-z0-9_.-]', 40, 4096),
  wholeMatchRule(
    'sendgrid-key',
    ['sg.'],
    new RegExp(`${atTokenStart('SG\\.')}[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{32,64}`, 'g'),
    /[A-Za-z0-9_-]/,
  ),
  wholeMatchRule(
    'jwt',
    ['eyj'],
    new RegExp(`${atTokenStart('eyJ', `(?:(?<![A-Za-z0-9_-])|${AFTER_ESCAPE})`)}[A-Za-z0-9_-]{8,8192}\\.[A-Za-z0-9_-]{4,16384}\\.[A-Za-z0-9_-]{0,8192}`, 'g'),
    /[A-Za-z0-9_-]/,
  ),
  // a Slack incoming webhook: the path after `hooks.slack.com/services/` is the secret
  prefixedSecretRule(
    'slack-webhook',
    ['hooks.slack.com/'],
    /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)([A-Za-z0-9_-]{1,64}(?:\/[A-Za-z0-9_-]{1,128}){0,4})/g,
    (secret) => secret.length < 8,
    /[A-Za-z0-9_\/-]/,
  ),
  // a Discord webhook: its token after `discord.com/api/webhooks/<id>/`
  prefixedSecretRule(
    'discord-webhook',
    ['/api/webhooks/'],
    /(discord(?:app)?\.com\/api\/webhooks\/[0-9]{1,24}\/)([A-Za-z0-9_-]{1,256})/g,
    (secret) => secret.length < 8,
    /[A-Za-z0-9_-]/,
  ),
  // a Sentry DSN's public key (and legacy `:secret`) before `@…sentry.io`: `https://<key>@o123.ingest.sentry.io/456`
  prefixedSecretRule(
    'sentry-dsn',
    ['sentry'],
    /(:\/\/)([A-Za-z0-9]{16,64}(?::[A-Za-z0-9]{16,64})?)(?=@[A-Za-z0-9.-]{0,253}sentry)/g,
    () => false,
  ),
];
