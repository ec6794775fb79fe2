/**
 * A held text as redactText's rules read it (text.ts): its escapes of secret characters decoded (`\u0073k-…` is
 * a token, `s_\u0070ass` a name), and credentials in use replaced by the marker (the rules' second pass, text.ts
 * redactPlain: a token glued to one starts after it, at the marker's `]`). The stream's hold (tail.ts holdFrom) looks for open matches in these
 * views too, and maps where one starts back to the text.
 */

import { secretEscapeRanges } from './escapes.js';
import { fragmentRanges, mergedRanges } from './known.js';
import { REDACTED, type SecretRange } from './rule.js';
import { isAlphanumericCode } from './token-prefix.js';

/** A view of a text, and the position in the text each of its positions comes from (inside a replacement: its start). */
export type RulesView = { readonly text: string; rawAt(position: number): number };

type Replacement = readonly [start: number, end: number, by: string];

/** `text` with `replacements` (sorted, not overlapping) made. */
function replaced(text: string, replacements: readonly Replacement[]): RulesView {
  let out = '';
  let copied = 0;
  /** Where each replacement starts in the view. */
  const starts: number[] = [];
  for (const [start, end, by] of replacements) {
    out += text.slice(copied, start);
    starts.push(out.length);
    out += by;
    copied = end;
  }
  out += text.slice(copied);
  return {
    text: out,
    rawAt(position) {
      let low = 0;
      let high = starts.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (starts[middle]! <= position) low = middle + 1;
        else high = middle;
      }
      if (low === 0) return position;
      const [start, end, by] = replacements[low - 1]!;
      const after = position - starts[low - 1]! - by.length;
      return after < 0 ? start : end + after;
    },
  };
}

/** Where the credentials' forms (whole) and pieces lie in `text`, as redactText replaces them: overlapping ones merged. */
function credentialRanges(text: string, secrets: readonly string[], forms: readonly string[]): Replacement[] {
  const ranges: SecretRange[] = secrets.flatMap((secret) => fragmentRanges(text, secret));
  for (const form of forms) for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + form.length)) ranges.push([at, at + form.length]);
  return mergedRanges(ranges).map(([start, end]) => [start, end, REDACTED]);
}

/** The beginning of an escape (escapes.ts) at the end of a text. */
const PARTIAL_ESCAPE_LENGTH = 8;
const PARTIAL_ESCAPE = /(?:\\(?:u[0-9A-Fa-f]{0,3}|x[0-9A-Fa-f]?)?|&(?:#(?:[xX][0-9A-Fa-f]{0,5}|[0-9]{0,6})?)?)$/;

const composed = (outer: RulesView, inner: RulesView): RulesView => ({ text: inner.text, rawAt: (position) => outer.rawAt(inner.rawAt(position)) });

/**
 * The views of `text` other than itself that redactText's rules may read: decoded (when it has an escape of a
 * secret character), each with the credentials replaced (when `credentials` may be in it).
 */
export function rulesViews(text: string, credentials?: { readonly secrets: readonly string[]; readonly forms: readonly string[] }): RulesView[] {
  const views: RulesView[] = [];
  const escapes = text.includes('\\') || text.includes('&') ? secretEscapeRanges(text) : [];
  const decoded = escapes.length > 0 ? replaced(text, escapes) : undefined;
  if (decoded) views.push(decoded);
  // an escape still arriving may be a token's or a name's next character: `SG.M8oUstVdF\u006` is an open token
  const partial = PARTIAL_ESCAPE.exec(text.slice(-PARTIAL_ESCAPE_LENGTH));
  if (partial) views.push(replaced(text, [...escapes, [text.length - partial[0].length, text.length, 'A']]));
  if (!credentials || credentials.secrets.length === 0) return views;
  for (const view of decoded ? [undefined, decoded] : [undefined]) {
    const seen = view?.text ?? text;
    const ranges = credentialRanges(seen, credentials.secrets, credentials.forms);
    // the marker changes what follows it only for a token glued to it (or one still to come)
    if (!ranges.some(([, end]) => end === seen.length || isAlphanumericCode(seen.charCodeAt(end)))) continue;
    views.push(view ? composed(view, replaced(seen, ranges)) : replaced(seen, ranges));
  }
  return views;
}
