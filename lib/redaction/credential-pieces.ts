/**
 * Where a credential in use may show in streamed text, each character looked at once (stream.ts): a piece of one
 * (MIN_FRAGMENT_LENGTH characters or more) holds one of its MIN_FRAGMENT_LENGTH-character pieces, and a whole
 * encoded form (base64, URL-encoded) holds its first ones, so an automaton of those finds, as the pieces of text
 * come, every place redactText could redact one (and some it would not: it ignores case and randomness). Searching
 * each delta and the characters before it for every form and piece cost more than the rest of the stream redactor.
 */

import { keywordHitScanners, type KeywordHitScanner } from './keyword-scanner.js';
import { knownForms, MIN_FRAGMENT_LENGTH } from './known.js';

const factories = new WeakMap<readonly string[], (() => KeywordHitScanner) | undefined>();

/** Scanners for `secrets` (prepared: the same array for the same credentials); undefined when one is not ASCII (the automaton's alphabet). */
export function credentialScanners(secrets: readonly string[]): (() => KeywordHitScanner) | undefined {
  if (factories.has(secrets)) return factories.get(secrets);
  const pieces = secrets.flatMap((secret) => Array.from({ length: secret.length - MIN_FRAGMENT_LENGTH + 1 }, (_, at) => secret.slice(at, at + MIN_FRAGMENT_LENGTH)));
  const heads = knownForms(secrets).map((form) => form.slice(0, MIN_FRAGMENT_LENGTH));
  const grams = [...new Set([...pieces, ...heads])];
  // eslint-disable-next-line no-control-regex
  const factory = grams.every((gram) => /^[\x00-\x7f]*$/.test(gram)) ? keywordHitScanners(grams) : undefined;
  factories.set(secrets, factory);
  return factory;
}
