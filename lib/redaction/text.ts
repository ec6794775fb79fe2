/** redactText: every text rule, plus the exact credentials the process loaded, over one string. */

import { ASSIGNMENT_RULE } from './assignments.js';
import { AWS_SECRET_RULE } from './aws.js';
import { COOKIE_RULE } from './cookies.js';
import { HTTP_RULES } from './http.js';
import { PATTERN_RULES } from './patterns.js';
import { buildPrefilter } from './prefilter.js';
import { REDACTED, type TextRule } from './rule.js';

export interface RedactOptions {
  /** Exact credential values the process loaded (API keys, tokens); values under 8 characters are ignored. */
  readonly secrets?: readonly string[];
}

/** Shorter known values are too likely to occur by chance in ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/**
 * Every rule in the order it runs: self-identifying keys first (the PEM block
 * before anything that could chop it), then keys known by a name before them
 * (AWS secrets, cookies), then HTTP context, then assignments, which skip
 * values an earlier rule already redacted.
 */
export const TEXT_RULES: readonly TextRule[] = [...PATTERN_RULES, AWS_SECRET_RULE, COOKIE_RULE, ...HTTP_RULES, ASSIGNMENT_RULE];

/**
 * Keywords frequent in ordinary code (`apiKey`, `tokens`, `https://`): rules
 * with one of them are each tested on their own (see prefilter.ts).
 */
const FREQUENT_KEYWORDS: readonly string[] = ['pass', 'secret', 'token', 'key', 'auth', 'credential', '://'];

const prefilter = buildPrefilter(TEXT_RULES, FREQUENT_KEYWORDS);

const preparedSecrets = new WeakMap<readonly string[], readonly string[]>();

/** The usable secrets, deduplicated and longest first (so a secret containing another goes whole). */
export function prepareSecrets(secrets: readonly string[] | undefined): readonly string[] {
  if (!secrets || secrets.length === 0) return [];
  const cached = preparedSecrets.get(secrets);
  if (cached) return cached;
  const usable = [...new Set(secrets)]
    .filter((secret) => typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  preparedSecrets.set(secrets, usable);
  return usable;
}

function redactKnownSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

const containsAny = (text: string, secrets: readonly string[]): boolean => secrets.some((secret) => text.includes(secret));

/**
 * Whether redactText could change `text`: some rule's keyword occurs in it
 * (one case-insensitive regex pass), or a loaded credential does. When false,
 * redactText returns the text unchanged.
 */
export function mayContainSecret(text: string, options?: RedactOptions): boolean {
  return prefilter.test(text) || containsAny(text, prepareSecrets(options?.secrets));
}

/** Replaces every secret-looking substring of `text` with `[REDACTED]`, keeping what surrounds it. */
export function redactText(text: string, options?: RedactOptions): string {
  if (text.length === 0) return text;
  const secrets = prepareSecrets(options?.secrets);
  // Chosen on the original text: replacing a secret with the marker cannot
  // create a keyword (no keyword overlaps the marker; a test checks).
  const rules = prefilter.select(text);
  if (rules.length === 0 && (secrets.length === 0 || !containsAny(text, secrets))) return text;
  let out = redactKnownSecrets(text, secrets);
  for (const rule of rules) out = rule.apply(out);
  return out;
}
