/**
 * Which rules can match a text, learned cheaply: one pass of an Aho–Corasick
 * automaton of every rule's keywords (keyword-scanner.ts) tells which rules
 * have a keyword in the text, so a text with none goes out as it came, and
 * the others meet only the rules they can wake. One pass for all rules, each
 * character looked at once: a regex per rule, or one regex of all keywords
 * run match by match, cost several times more on code, where `key` and
 * `token` are everywhere.
 */

import { keywordGroups, keywordScanners, NO_KEYWORD, type KeywordScanner } from './keyword-scanner.js';
import { escapeRegExp, type TextRule } from './rule.js';

export interface Prefilter {
  /** Whether any keyword occurs in `text` (or some rule has no keywords). */
  test(text: string): boolean;
  /** The rules with applyAt, in their order: select tells where their keywords begin. */
  readonly located: readonly TextRule[];
  /**
   * The rules, in their order, whose keywords occur in `text` (plus those without keywords). With `starts` (an
   * array per located rule), where the keywords of each located rule begin in `text` is pushed onto its array (see
   * TextRule.applyAt).
   */
  select(text: string, starts?: number[][]): readonly TextRule[];
  /** A scanner of text that arrives in pieces, for where its last keyword starts (always the piece's start when some rule has no keywords). */
  scanner(): KeywordScanner;
}

type Trie = Map<string, Trie | null>;

/**
 * One regex source matching any of the keywords, as a trie (`s(?:k-(?:ant-)?|g\.)`):
 * the regex engine then checks each position against a few first characters
 * instead of every keyword in turn. At each position it reports the longest
 * keyword starting there (the optional tails are greedy).
 */
export function keywordSource(keywords: Iterable<string>): string {
  const root: Trie = new Map();
  for (const keyword of keywords) {
    let node = root;
    for (const char of keyword) {
      let next = node.get(char);
      if (!next) node.set(char, (next = new Map()));
      node = next;
    }
    node.set('', null);
  }
  const emit = (node: Trie): string => {
    const branches = [...node.keys()].filter((char) => char !== '').map((char) => escapeRegExp(char) + emit(node.get(char) as Trie));
    if (branches.length === 0) return '';
    const body = branches.length === 1 ? branches[0] : `(?:${branches.join('|')})`;
    return node.has('') ? `(?:${body})?` : body;
  };
  return emit(root);
}

export function buildPrefilter(rules: readonly TextRule[]): Prefilter {
  const always = rules.filter((rule) => rule.keywords.length === 0);
  const keyed = rules.filter((rule) => rule.keywords.length > 0);
  const everywhere: KeywordScanner = { scan: () => 0, reset() {} };
  const nowhere: KeywordScanner = { scan: () => NO_KEYWORD, reset() {} };
  if (keyed.length === 0) return { located: [], test: () => always.length > 0, select: () => always, scanner: () => (always.length > 0 ? everywhere : nowhere) };

  const located = rules.filter((rule) => rule.applyAt !== undefined && rule.keywords.length > 0);
  const groups = keywordGroups(
    rules.map((rule) => rule.keywords),
    located.map((rule) => rules.indexOf(rule)),
  );
  const scanners = keywordScanners(keyed.flatMap((rule) => rule.keywords));
  return {
    located,
    test: (text) => always.length > 0 || groups.some(text),
    scanner: () => (always.length > 0 ? everywhere : scanners()),
    select(text, starts) {
      const found = groups.which(text, located.length === 0 ? undefined : starts);
      return found === undefined ? always : rules.filter((rule, index) => found[index] === 1 || rule.keywords.length === 0);
    },
  };
}
