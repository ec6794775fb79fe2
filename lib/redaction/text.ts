/** redactText: every text rule, plus the exact credentials the process loaded, over one string (and over its escaped secret characters decoded). */

import { ASSIGNMENT_RULE } from './assignments.js';
import { AWS_SECRET_RULE } from './aws.js';
import { COMMAND_FLAG_RULE, COMMAND_PASSWORD_RULE } from './command-line.js';
import { BASIC_AUTH_RULE } from './basic-auth.js';
import { NETRC_RULE } from './config-lines.js';
import { COOKIE_RULE } from './cookies.js';
import { HTTP_RULES } from './http.js';
import { PATTERN_RULES } from './patterns.js';
import { SQL_IDENTIFIED_RULE } from './sql.js';
import { buildPrefilter } from './prefilter.js';
import { escapeRegExp, REDACTED, type TextRule } from './rule.js';
import { ESCAPE_KEYWORDS, decodeSecretEscapes, widenMarkersOverEscapes } from './escapes.js';
import { MIN_SECRET_LENGTH, knownForms, redactFragments, redactKnownForms } from './known.js';
import { checkValue, strings } from '../options.js';

export { MIN_SECRET_LENGTH };

export interface RedactOptions {
  /** Exact credential values the process loaded (API keys, tokens); values under 8 characters are ignored. */
  readonly secrets?: readonly string[];
}

/**
 * Every rule in the order it runs: self-identifying keys first (the PEM block
 * before anything that could chop it), then keys known by a name before them
 * (AWS secrets, cookies), then HTTP context, then assignments, which skip
 * values an earlier rule already redacted.
 */
export const TEXT_RULES: readonly TextRule[] = [...PATTERN_RULES, AWS_SECRET_RULE, COOKIE_RULE, ...HTTP_RULES, ASSIGNMENT_RULE, BASIC_AUTH_RULE, NETRC_RULE, SQL_IDENTIFIED_RULE, COMMAND_FLAG_RULE, COMMAND_PASSWORD_RULE];

/** Not a rule: its keywords let the prefilter's one pass spot escapes too (see escapes.ts). */
const ESCAPES: TextRule = { name: 'escapes', keywords: ESCAPE_KEYWORDS, apply: (text) => text };

/**
 * The one prefilter: its automaton's scans are closures made once, which V8 compiles with the automaton's tables as
 * constants (a second prefilter's would share their code, without them: a third slower a character).
 */
const prefilter = buildPrefilter([...TEXT_RULES, ESCAPES]);

/**
 * JSON's escaped slash (`\/`, which JSON.stringify never writes) hides `://` (`https:\/\/user:pw@…`) and a credential's
 * base64 from a search of JSON as written: it counts as a keyword there.
 */
const ESCAPED_SLASH = '\\/';

export interface Known {
  /** The credentials, MIN_SECRET_LENGTH+ characters, deduplicated. */
  readonly secrets: readonly string[];
  /** They and their base64 forms, longest first. */
  readonly forms: readonly string[];
}

const NONE: Known = { secrets: [], forms: [] };
/** Per secrets array, what it held when it was prepared: an array a caller adds to later (a run's MCP servers' headers) is prepared again. */
const prepared = new WeakMap<readonly string[], { held: readonly string[]; known: Known }>();

const sameItems = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((item, index) => item === b[index]);

/** The usable secrets and their forms, computed once per secrets array (again when it changed). */
export function prepareKnown(secrets: readonly string[] | undefined): Known {
  if (!secrets || secrets.length === 0) return NONE;
  const cached = prepared.get(secrets);
  if (cached && sameItems(cached.held, secrets)) return cached.known;
  // a credential given as a Buffer, or one string for the array, would quietly redact nothing
  checkValue('redaction', 'options.secrets', secrets, strings);
  const usable = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  const known = { secrets: usable.sort((a, b) => b.length - a.length), forms: knownForms(usable) };
  prepared.set(secrets, { held: [...secrets], known });
  return known;
}

/** The usable secrets, deduplicated and longest first (so a secret containing another goes whole). */
export function prepareSecrets(secrets: readonly string[] | undefined): readonly string[] {
  return prepareKnown(secrets).secrets;
}

const containsAny = (text: string, forms: readonly string[]): boolean => forms.some((form) => text.includes(form));

/**
 * Whether redactText could change `text`: some rule's keyword occurs in it
 * (one pass of the prefilter's automaton), or a loaded credential does (whole, in
 * base64, escaped or in pieces). When false, redactText returns the text unchanged.
 */
export function mayContainSecret(text: string, options?: RedactOptions): boolean {
  return prefilter.test(text) || mayContainKnownSecret(text, options);
}

/**
 * mayContainSecret of JSON as written (a log's line), for what redacting its strings once decoded could change:
 * its escapes can hide a keyword, so `\u` and `\/` count as keywords (`\/` searched natively only when no keyword is).
 */
export function mayContainSecretInJson(json: string, options?: RedactOptions): boolean {
  return prefilter.test(json) || json.includes(ESCAPED_SLASH) || mayContainKnownSecret(json, options);
}

/** The longest keyword: an occurrence that ends or starts in a stretch of a text is within this much of it. */
const KEYWORD_REACH = Math.max(ESCAPED_SLASH.length, ...[...TEXT_RULES, ESCAPES].flatMap((rule) => rule.keywords).map((keyword) => keyword.length));

/**
 * mayContainSecretInJson of `json`, which differs only in [from, to) from a text it said no to: what the change
 * reaches is looked at (a keyword in it, or across its edges). With a credential in use, all of it (a credential
 * is longer than any keyword).
 */
export function mayContainSecretInJsonChanged(json: string, from: number, to: number, options?: RedactOptions): boolean {
  if (prepareKnown(options?.secrets).secrets.length > 0) return mayContainSecretInJson(json, options);
  return mayContainSecretInJson(json.slice(Math.max(0, from - KEYWORD_REACH + 1), to + KEYWORD_REACH - 1), options);
}

/** The other half: a loaded credential occurs in `text`, whole, in base64, escaped or in pieces. */
export function mayContainKnownSecret(text: string, options?: RedactOptions): boolean {
  const known = prepareKnown(options?.secrets);
  return known.secrets.length > 0 && (containsAny(text, known.forms) || redactFragments(text, known.secrets) !== text);
}

/** `starts` (when given): where the keywords of each rule with applyAt begin in `text` (prefilter.select), which it can use while no rule before it changed the text. */
function applyRules(text: string, rules: readonly TextRule[], starts?: readonly (readonly number[])[]): string {
  let out = text;
  for (const rule of rules) {
    const located = starts && rule.applyAt !== undefined && out === text ? prefilter.located.indexOf(rule) : -1;
    out = located >= 0 ? rule.applyAt!(out, starts![located]!) : rule.apply(out);
  }
  return out;
}

/**
 * The rules, then the credentials in use (whole forms, then pieces): a marker put first would hide the rest of a
 * secret that holds a piece of one from its rule. Then the rules again, where a credential went: a token glued
 * to one starts at its marker's `]`.
 */
function redactPlain(text: string, known: Known, rules: readonly TextRule[], starts: readonly (readonly number[])[]): string {
  const out = applyRules(text, rules, starts);
  if (known.secrets.length === 0) return out;
  const rulesFirst = redactCredentials(out, known, rules);
  // A rule's marker may cut a credential in use (`password=ab12&cd34`: a bare value ends at the `&`), and what is
  // left of it is too short to be a piece: the credentials first, then the rules, when that shows less. Only when a
  // rule changed the text and a credential is in it (rare: most texts pay nothing more).
  if (out === text || !containsAny(text, known.forms)) return rulesFirst;
  const credentialsFirst = redactCredentials(applyRules(redactCredentials(text, known, []), rules), known, rules);
  return showsNoMore(credentialsFirst, rulesFirst) && !showsNoMore(rulesFirst, credentialsFirst) ? credentialsFirst : rulesFirst;
}

/** The credentials in use (whole forms, then pieces), then the rules again where one went. */
function redactCredentials(text: string, known: Known, rules: readonly TextRule[]): string {
  const out = redactFragments(redactKnownForms(text, known.forms), known.secrets);
  return out === text ? text : applyRules(out, rules);
}

/**
 * Replaces every secret-looking substring of `text` with `[REDACTED]`, keeping
 * what surrounds it. Escapes of key characters (`\u0073k-…`, `&#x73;k-…`) are
 * then read decoded: the text is redacted as written first, then what is left
 * (a marker holds no escape) is decoded and redacted again; when that finds
 * more, the decoded form comes out (the same JSON string or HTML text), else
 * the text as written. So a secret either reading finds is redacted:
 * `\u0061ghp_…` is a token as written, not once decoded (`aghp_…`).
 */
export function redactText(text: string, options?: RedactOptions): string {
  // a program in plain JavaScript may hand it anything: a number would spin the prefilter's loop forever
  if (typeof text !== 'string') throw new TypeError(`redactText takes a string, not ${text === null ? 'null' : typeof text}`);
  if (text.length === 0) return text;
  const known = prepareKnown(options?.secrets);
  // Chosen on the original text: replacing a secret with the marker cannot
  // create a keyword (no keyword overlaps the marker; a test checks).
  const { rules, starts } = prefilter.select(text);
  if (rules.length === 0 && known.secrets.length === 0) return text;
  const plain = redactPlain(text, known, rules, starts);
  if (!rules.includes(ESCAPES)) return plain;
  const redacted = widenMarkersOverEscapes(plain, REDACTED);
  const decoded = decodeSecretEscapes(redacted);
  const again = decoded === redacted ? decoded : redactDecoded(decoded, known);
  const both = again !== decoded ? again : redacted;
  if (!ESCAPE_BEFORE_MARKER.test(redacted)) return both;
  // A marker right after an escape: what the rules as written found may be the end of a secret the decoded text
  // holds whole (`\u007a` and a credential's other characters): when that reading shows no more, it is the one.
  const decodedFirst = redactDecoded(decodeSecretEscapes(text), known);
  return showsNoMore(decodedFirst, decodeSecretEscapes(both)) ? decodedFirst : both;
}

/** An escape, or its beginning (the rules as written may take its last digits), right before a marker. */
const ESCAPE_BEFORE_MARKER = new RegExp(String.raw`(?:\\u[0-9A-Fa-f]{0,4}|\\x[0-9A-Fa-f]{0,2}|&#(?:[xX][0-9A-Fa-f]*|[0-9]*);?)` + escapeRegExp(REDACTED));

function redactDecoded(decoded: string, known: Known): string {
  const { rules, starts } = prefilter.select(decoded);
  return redactPlain(decoded, known, rules, starts);
}

/** `shown` is `other` with as much redacted or more: what it shows, `other` shows, in the same order. */
export function showsNoMore(shown: string, other: string): boolean {
  const parts = shown.split(REDACTED);
  if (parts.length === 1) return shown === other;
  const [first, last] = [parts[0]!, parts.at(-1)!];
  if (!other.startsWith(first) || !other.endsWith(last)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = other.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return at <= other.length - last.length;
}
