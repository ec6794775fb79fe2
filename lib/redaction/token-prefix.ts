/**
 * Whether a text's end could be the beginning of a token's prefix at a token start (`… s`, `… gh`, `… github_pa`):
 * the stream redactor holds such an end back (tail.ts), as the next piece may complete the token.
 */

import { DEFAULT_BOUND, HOLD_BOUNDS } from './hold-bounds.js';
import { TOKEN_START } from './patterns.js';
import { TEXT_RULES } from './text.js';

/**
 * The beginnings of tokens' prefixes (`s`, `sk`, `gh`, … `github_pa`, lowercase) as a trie of their characters
 * read backwards: a text's end is walked back one character at a time and left as soon as no beginning can end
 * it (usually after one or two).
 */
type TokenBeginnings = { next: (TokenBeginnings | undefined)[]; beginning: boolean };

function tokenBeginnings(prefixes: readonly string[]): TokenBeginnings {
  const root: TokenBeginnings = { next: [], beginning: false };
  for (const prefix of prefixes) {
    for (let length = 1; length < prefix.length; length++) {
      let node = root;
      for (let at = length - 1; at >= 0; at--) {
        const code = prefix.toLowerCase().charCodeAt(at);
        let next = node.next[code];
        if (!next) node.next[code] = next = { next: [], beginning: false };
        node = next;
      }
      node.beginning = true;
    }
  }
  return root;
}

const BACKSLASH = 92;
const PERCENT = 37;
/** A token start at `lastIndex` (lookbehinds only). */
const AT_TOKEN_START = new RegExp(TOKEN_START, 'y');
export const isAlphanumericCode = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** TOKEN_START at `at`: after no letter or digit, at once; after one, only an escape can end there (`\n`, `\u003c`, `\x22`, `%0A`). */
function atTokenStart(text: string, at: number): boolean {
  if (at === 0 || !isAlphanumericCode(text.charCodeAt(at - 1))) return true;
  if (text.charCodeAt(at - 2) !== BACKSLASH && text.charCodeAt(at - 4) !== BACKSLASH && text.charCodeAt(at - 6) !== BACKSLASH && text.charCodeAt(at - 3) !== PERCENT) return false;
  AT_TOKEN_START.lastIndex = at;
  return AT_TOKEN_START.test(text);
}

/** Every self-identifying token's prefixes (HoldBound.prefixes), read backwards. */
const TOKEN_BEGINNINGS = tokenBeginnings(
  TEXT_RULES.flatMap((rule) => {
    const { prefixes } = HOLD_BOUNDS[rule.name] ?? DEFAULT_BOUND;
    return prefixes === 'keywords' ? rule.keywords : (prefixes ?? []);
  }),
);

/** How many of the last characters of `text` are the beginning of a token at a token start (`… s`, `… gh`). */
export function tokenPrefixLength(text: string): number {
  let node: TokenBeginnings | undefined = TOKEN_BEGINNINGS;
  let longest = 0;
  for (let start = text.length - 1; start >= 0; start--) {
    // ASCII letters fold, as a regex's `i` flag folds them (no other character equals an ASCII one)
    const code = text.charCodeAt(start);
    // an array per node, indexed by code: a Map's lookup cost most of a quiet delta's look at its end
    node = code < 128 ? node.next[code >= 65 && code <= 90 ? code + 32 : code] : undefined;
    if (node === undefined) break;
    if (node.beginning && atTokenStart(text, start)) longest = text.length - start;
  }
  return longest;
}
