import { isSensitiveKey } from './keys.js';
import { rulesViews, type RulesView } from './rules-view.js';
import { isNameCode } from './hold-bounds.js';
import { openMatchStart, pemStart, PEM_HEADER_START, SHORT_RUN } from './hold.js';
import { tokenPrefixLength } from './token-prefix.js';

// Where a text's end could still be the beginning of a secret, and so where a stream's held-back tail starts
// (holdFrom): the bounds of each rule's open matches are hold-bounds.ts's.

/** Longest keyword (`authorization`) plus the longest lead (stripe's `sk` before `_live_`): a keyword still arriving. */
const PARTIAL_KEYWORD_HOLD = 16;

const isSpaceCode = (code: number): boolean => code === 32 || (code >= 9 && code <= 13) || code === 160 || code === 0x2028 || code === 0x2029;
const isQuoteOrSpace = (code: number): boolean => isSpaceCode(code) || code === 34 || code === 39 || code === 96;

/**
 * Where the trailing run of non-space characters starts (`floor` when it reaches back that far: only that much is
 * walked); `from`: where the walk starts, when what is after it is known to be in the run.
 */
function trailingRunStart(text: string, floor = 0, from = text.length): number {
  while (from > floor && !isSpaceCode(text.charCodeAt(from - 1))) from--;
  return from;
}

/**
 * The credentials in use, as the hold sees them: the values (a piece of one is redacted wherever it is), every
 * form redacted whole (the values, their base64 and URL-encoded forms), and the length of the longest escaped.
 */
export type HeldCredentials = { readonly secrets: readonly string[]; readonly forms: readonly string[]; readonly longest: number };
const NO_CREDENTIALS: HeldCredentials = { secrets: [], forms: [], longest: 0 };

/** Per ASCII code, whether a beginning of a private-key header (`-----BEG`) ends in it. */
const PEM_BEGINNING_ENDS = new Uint8Array(128);
for (let at = 0; at < PEM_HEADER_START.length - 1; at++) PEM_BEGINNING_ENDS[PEM_HEADER_START.charCodeAt(at)] = 1;

/** How many of the last characters of `text` begin a private-key header (`-----BEG`). */
function pemPrefixLength(text: string): number {
  // most text ends in none of its characters
  if (PEM_BEGINNING_ENDS[text.charCodeAt(text.length - 1)] !== 1) return 0;
  for (let length = Math.min(PEM_HEADER_START.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(PEM_HEADER_START.slice(0, length))) return length;
  }
  return 0;
}

/**
 * How many of the last characters of `text` could begin a credential in use: a piece of its value, or the
 * beginning of a form of it. One character glued to a word is let go (most words end in a character a long key
 * holds; at worst that one character of it shows, and a piece is redacted from 8 characters).
 */
function credentialPieceLength(text: string, { secrets, forms }: HeldCredentials): number {
  if (secrets.length === 0) return 0;
  let piece = 0;
  for (const secret of secrets) piece = Math.max(piece, longestEndIn(text, secret));
  if (piece === 1 && isNameCode(text.charCodeAt(text.length - 2))) piece = 0;
  const { longest, firstCodes, spaced } = formStarts(forms);
  // no form begins before the trailing run, unless one holds a space
  const reach = spaced ? text.length : text.length - trailingRunStart(text, Math.max(0, text.length - longest));
  for (let length = Math.min(reach, longest - 1); length > piece; length--) {
    const start = text.length - length;
    if (firstCodes[text.charCodeAt(start)] === 1 && beginsAForm(text, start, length, forms)) return length;
  }
  return piece;
}

// Both below compare code by code: every quiet delta of a live `zero exec` (which always knows its key) asks,
// and a slice and a search for each length of the text's end cost a third of its stream redactor.

/** The length of the longest end of `text` that `secret` holds somewhere. */
function longestEndIn(text: string, secret: string): number {
  const last = text.length - 1;
  if (last < 0) return 0;
  const final = text.charAt(last);
  let longest = 0;
  // from each place the secret holds the text's last character; one found at `end` is at most end + 1 long
  for (let end = secret.lastIndexOf(final); end >= longest; end = end > 0 ? secret.lastIndexOf(final, end - 1) : -1) {
    let length = 1;
    while (length <= end && length <= last && secret.charCodeAt(end - length) === text.charCodeAt(last - length)) length++;
    longest = Math.max(longest, length);
  }
  return longest;
}

/** Whether `text` from `start` begins with the first `length` characters of a form (with all of a shorter one). */
function beginsAForm(text: string, start: number, length: number, forms: readonly string[]): boolean {
  for (const form of forms) {
    const compared = Math.min(length, form.length);
    let at = 0;
    while (at < compared && text.charCodeAt(start + at) === form.charCodeAt(at)) at++;
    if (at === compared) return true;
  }
  return false;
}

/**
 * The longest form's length; per UTF-16 code, whether a form begins with it; whether a form holds a space (any of
 * `\s`, isSpaceCode's and more: a value is one of its forms, so only when a value does).
 */
type FormStarts = { longest: number; firstCodes: Uint8Array; spaced: boolean };
const formStartsOf = new WeakMap<readonly string[], FormStarts>();
/** What the forms begin with, and how long they are: most positions of a text's end begin none. */
function formStarts(forms: readonly string[]): FormStarts {
  let starts = formStartsOf.get(forms);
  if (!starts) {
    const firstCodes = new Uint8Array(0x10000);
    for (const form of forms) firstCodes[form.charCodeAt(0)] = 1;
    const spaced = forms.some((form) => /\s/.test(form));
    formStartsOf.set(forms, (starts = { longest: Math.max(0, ...forms.map((form) => form.length)), firstCodes, spaced }));
  }
  return starts;
}

/**
 * Where the end of `text` could still be the beginning of a secret: the beginning of a token's prefix at a
 * token start, of a private-key header, or a piece of a credential in use. A word that is none of these goes
 * out whole, at once: a rule whose keyword comes later (`pass` in `my_password=`) redacts only what follows
 * that keyword. A trailing run with an escape in it (`\u0073k-…`, `&#115;`) is held as before: an escaped
 * secret is found only once decoded (its run if short, else its last characters).
 */
export function tailStart(text: string, credentials: HeldCredentials = NO_CREDENTIALS): number {
  return tailFrom(text, credentials);
}

/** Characters before a token's prefix that say whether it is at a token start (`\u003c`). */
const TOKEN_START_BEHIND = 6;

/**
 * How many of the last characters of `text` tailStart holds back. `before` gives the characters before it, which
 * tell whether its first ones are at a token start or in a run with an escape (none: its start is a token start).
 * They are read only when its trailing run reaches its start, as no token, escape or private-key header holds a
 * space (a credential in use that holds one may: then they always are).
 */
export function heldTailLength(text: string, credentials: HeldCredentials = NO_CREDENTIALS, before?: (count: number) => string): number {
  // no credential in use holds a space (nearly always): then none of them, as no token, escape or header, reaches past one
  const spaceless = credentials.secrets.length === 0 || !formStarts(credentials.forms).spaced;
  // a text that ends in a space holds nothing back
  if (spaceless && isSpaceCode(text.charCodeAt(text.length - 1))) return 0;
  if (!before || (spaceless && trailingRunStart(text) > 0)) return Math.min(text.length, text.length - tailFrom(text, credentials));
  const seen = before(TOKEN_START_BEHIND) + text;
  return Math.min(text.length, seen.length - tailStart(seen, credentials));
}

/** tailStart. */
function tailFrom(text: string, credentials: HeldCredentials): number {
  const escaped = escapedRunStart(text);
  if (escaped >= 0) {
    return text.length - escaped <= SHORT_RUN ? escaped : text.length - Math.max(PARTIAL_KEYWORD_HOLD, credentials.longest - 1);
  }
  return text.length - Math.max(tokenPrefixLength(text), pemPrefixLength(text), credentialPieceLength(text, credentials));
}

/** A trailing run up to this long is walked to its start; a longer one only when an escape is in it. */
const WALKED_RUN = 64;

/**
 * Where the trailing run starts when an escape (`\`, `&`) is in it, else -1; a run longer than SHORT_RUN may be given
 * as starting anywhere SHORT_RUN + 1 or more characters before the end (tailFrom holds the same then). A long run (a
 * base64 blob, a delta with no space) is searched natively, not walked: a walk a character at a time costs as much
 * as the keyword scan.
 */
function escapedRunStart(text: string): number {
  const floor = Math.max(0, text.length - WALKED_RUN);
  const run = trailingRunStart(text, floor);
  if (run > floor || floor === 0) return text.indexOf('\\', run) >= 0 || text.indexOf('&', run) >= 0 ? run : -1;
  // most long runs hold no escape at all: two native searches say so (lastIndexOf is a call into the runtime)
  if (text.indexOf('\\') < 0 && text.indexOf('&') < 0) return -1;
  const escape = Math.max(text.lastIndexOf('\\'), text.lastIndexOf('&'));
  // in the run when no space comes after it; then only whether the run is longer than SHORT_RUN matters
  SPACE_AFTER.lastIndex = escape;
  if (SPACE_AFTER.test(text)) return -1;
  return trailingRunStart(text, Math.max(0, text.length - SHORT_RUN - 1), Math.min(escape, floor));
}

/** isSpaceCode's characters, searched natively. */
const SPACE_AFTER = /[\t-\r \u00a0\u2028\u2029]/g;

/** Words after which a credential may follow a space: `Authorization: Bearer <token>`. */
const SCHEME_WORDS = /^(?:bearer|basic|digest)$/i;

/** Where `<quotes/spaces>[operator]<quotes/spaces>` ending at `end` starts, and whether it holds an operator. */
function separatorBefore(text: string, end: number): { start: number; assigns: boolean } {
  const floor = Math.max(0, end - 256);
  let at = end;
  while (at > floor && isQuoteOrSpace(text.charCodeAt(at - 1))) at--;
  const before = text.slice(Math.max(floor, at - 2), at);
  const operator = before.endsWith(':=') || before.endsWith('=>') ? 2 : before.endsWith(':') || before.endsWith('=') ? 1 : 0;
  if (operator === 0) return { start: at, assigns: false };
  at -= operator;
  while (at > floor && isQuoteOrSpace(text.charCodeAt(at - 1))) at--;
  return { start: at, assigns: true };
}

/**
 * Pulls `from` back over `key<separator>` pairs (`password = `, `"apiKey": "`,
 * `Authorization: Bearer `): scheme words chain to the header name before them.
 */
function walkBackOverKeys(text: string, from: number): number {
  for (let steps = 0; steps < 4; steps++) {
    const separator = separatorBefore(text, from);
    let keyStart = separator.start;
    while (keyStart > 0 && separator.start - keyStart < 256 && isNameCode(text.charCodeAt(keyStart - 1))) keyStart--;
    const key = text.slice(keyStart, separator.start);
    if (!/[A-Za-z0-9_]$/.test(key)) break;
    if (!(SCHEME_WORDS.test(key) || (separator.assigns && isSensitiveKey(key)))) break;
    from = separator.start - key.length;
  }
  return from;
}

/**
 * Where a held-back tail of `text` starts: what could still begin a secret at
 * its end (tailStart), an unterminated PEM block, a sensitive key waiting for its value, and the
 * start of every match still open at the end. `mayHoldSecret` false (no
 * keyword, no credential in view) skips what only a keyword can open. The same
 * in each of `views` (rules-view.ts: the text as the rules read it), mapped back.
 */
export function holdFrom(
  text: string,
  mayHoldSecret = true,
  credentials: HeldCredentials = NO_CREDENTIALS,
  views: readonly RulesView[] = rulesViews(text, credentials),
): number {
  let from = holdIn(text, mayHoldSecret, credentials);
  // what the rules read (`\u0073k-`, a token glued to a credential): a match open there starts where it maps back to
  for (const view of views) from = Math.min(from, view.rawAt(holdIn(view.text, mayHoldSecret, NO_CREDENTIALS, true)));
  return Math.max(0, from);
}

function holdIn(text: string, mayHoldSecret: boolean, credentials: HeldCredentials, withinCaps = false): number {
  const word = tailStart(text, credentials);
  return Math.min(mayHoldSecret ? walkBackOverKeys(text, word) : word, openStart(text, mayHoldSecret, withinCaps));
}

/**
 * The earliest open match. An open match may become `[REDACTED]` in the
 * whole text, and rules run one after another: a later rule's match that
 * runs up to it may then read differently (a query value glued to a PEM header,
 * a value glued to a token), so a match reaching its start is open too.
 */
function openStart(text: string, mayHoldSecret: boolean, withinCaps = false): number {
  let open = pemStart(text);
  if (!mayHoldSecret) return open;
  open = Math.min(open, openMatchStart(text, withinCaps));
  for (let steps = 0; open > 0 && open < text.length && steps < 8; steps++) {
    const before = openMatchStart(text, withinCaps, open);
    if (before >= open) break;
    open = before;
  }
  return open;
}
