/**
 * The credentials the process loaded (API keys from the environment and the
 * config files) are known exactly, so they are found however they are printed:
 * whole, base64-encoded, and in pieces. (Escaped forms — `\u0073k-…`, `%2D`,
 * `&#115;` — are decoded before matching: see escapes.ts.)
 */

import { looksRandom } from './literals.js';
import { REDACTED, type SecretRange } from './rule.js';

/** Shorter known values are too likely to occur by chance in ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/**
 * A piece of a known credential this long or longer is redacted wherever it
 * appears, when it looks random (a digit, or mixed case over 16+ characters):
 * each half of `cut -c1-12` / `cut -c13-` output goes, a bare `sk-proj-` does not.
 */
export const MIN_FRAGMENT_LENGTH = 8;

/** Every way `secret`'s bytes appear inside a base64 (or base64url) text, whatever its offset there, padding left out. */
export function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (let skip = 0; skip < 3; skip++) {
    const aligned = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
    const encoded = aligned.toString('base64');
    if (encoded.length >= MIN_SECRET_LENGTH) forms.push(encoded, aligned.toString('base64url'));
  }
  return forms;
}

/**
 * The credentials and their encoded forms (base64, URL-encoded) to replace
 * whole, deduplicated, longest first (so a value holding another goes whole).
 */
export function knownForms(secrets: readonly string[]): string[] {
  const usable = secrets.filter((secret) => typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH);
  const forms = usable.flatMap((secret) => [secret, encodeURIComponent(secret), ...base64Forms(secret)]);
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/** Whole occurrences of the known forms become the marker. */
export function redactKnownForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) {
    if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  return out;
}

const ANCHOR = 4;

/**
 * Where pieces of `secret` of MIN_FRAGMENT_LENGTH+ characters lie in `text`.
 * Every such piece holds one of the secret's 4-character blocks at a multiple
 * of 4: each block is searched (indexOf), and a hit grown both ways while text
 * and secret agree.
 */
export function fragmentRanges(text: string, secret: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (let block = 0; block + ANCHOR <= secret.length; block += ANCHOR) {
    const anchor = secret.slice(block, block + ANCHOR);
    for (let at = text.indexOf(anchor); at >= 0; at = text.indexOf(anchor, at + 1)) {
      let start = at;
      let from = block;
      while (from > 0 && start > 0 && text.charCodeAt(start - 1) === secret.charCodeAt(from - 1)) (start--, from--);
      let end = at + ANCHOR;
      let to = block + ANCHOR;
      while (to < secret.length && end < text.length && text.charCodeAt(end) === secret.charCodeAt(to)) (end++, to++);
      if (end - start >= MIN_FRAGMENT_LENGTH && looksRandom(text.slice(start, end))) ranges.push([start, end]);
    }
  }
  return ranges;
}

/** `ranges` in order, overlapping ones merged (ranges that only touch stay apart: each is a marker of its own). */
export function mergedRanges(ranges: readonly SecretRange[]): [start: number, end: number][] {
  const merged: [number, number][] = [];
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0] || b[1] - a[1])) {
    const last = merged.at(-1);
    if (last && start < last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Pieces of the known credentials (see MIN_FRAGMENT_LENGTH) become the marker; overlapping pieces merge. */
export function redactFragments(text: string, secrets: readonly string[]): string {
  const ranges = mergedRanges(secrets.flatMap((secret) => fragmentRanges(text, secret)));
  if (ranges.length === 0) return text;
  let out = '';
  let copied = 0;
  for (const [start, end] of ranges) {
    out += text.slice(copied, start) + REDACTED;
    copied = end;
  }
  return out + text.slice(copied);
}
