/** redactText: every text rule, plus the exact credentials the process loaded, over one string. */

import { ASSIGNMENT_RULE } from './assignments.js';
import { HTTP_RULES } from './http.js';
import { PATTERN_RULES } from './patterns.js';
import { REDACTED, mayMatch, type TextRule } from './rule.js';

export interface RedactOptions {
  /** Exact credential values the process loaded (API keys, tokens); values under 8 characters are ignored. */
  readonly secrets?: readonly string[];
}

/** Shorter known values are too likely to occur by chance in ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/**
 * Every rule in the order it runs: self-identifying keys first (the PEM block
 * before anything that could chop it), then HTTP context, then assignments,
 * which skip values an earlier rule already redacted.
 */
export const TEXT_RULES: readonly TextRule[] = [...PATTERN_RULES, ...HTTP_RULES, ASSIGNMENT_RULE];

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

/** Replaces every secret-looking substring of `text` with `[REDACTED]`, keeping what surrounds it. */
export function redactText(text: string, options?: RedactOptions): string {
  if (text.length === 0) return text;
  let out = redactKnownSecrets(text, prepareSecrets(options?.secrets));
  // New keyword occurrences cannot appear by replacing text with the marker,
  // so the original text's lowercase form serves every rule's prefilter.
  const lower = text.toLowerCase();
  for (const rule of TEXT_RULES) {
    if (mayMatch(rule, lower)) out = rule.apply(out);
  }
  return out;
}
