/**
 * Which rules can match a text, learned cheaply. One precompiled
 * case-insensitive regex of every rule's keywords answers "can anything
 * match?" in a single pass: when it finds nothing (the common case for short
 * text deltas), the text goes out as it came.
 *
 * When something can match, the rules are chosen in two tiers: rules keyed by
 * distinctive keywords (`sk-`, `ghp_`, `eyj`, …) in one more pass of one regex
 * of all their keywords; rules keyed by words frequent in ordinary code
 * (`key`, `token`, `auth`, …) each by their own test, which stops at the first
 * occurrence — so a text full of `key`s costs no more than one full pass.
 * A rule with its own keyword test (hasKeyword) is also tested on its own,
 * by that test.
 */

import { keywordScanners, NO_KEYWORD, type KeywordScanner } from './keyword-scanner.js';
import { escapeRegExp, type TextRule } from './rule.js';

export interface Prefilter {
  /** Whether any keyword occurs in `text` (or some rule has no keywords). */
  test(text: string): boolean;
  /** The rules, in their order, whose keywords occur in `text` (plus those without keywords). */
  select(text: string): readonly TextRule[];
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

/**
 * `frequent`: keywords common in ordinary code and prose; a rule with one of
 * them is tested on its own.
 */
export function buildPrefilter(rules: readonly TextRule[], frequent: readonly string[] = []): Prefilter {
  const always = rules.filter((rule) => rule.keywords.length === 0);
  const keyed = rules.filter((rule) => rule.keywords.length > 0);
  const everywhere: KeywordScanner = { scan: () => 0, reset() {} };
  const nowhere: KeywordScanner = { scan: () => NO_KEYWORD, reset() {} };
  if (keyed.length === 0) return { test: () => always.length > 0, select: () => always, scanner: () => (always.length > 0 ? everywhere : nowhere) };

  const isTested = (rule: TextRule): boolean =>
    rule.hasKeyword !== undefined || rule.keywords.some((keyword) => frequent.includes(keyword));
  const keywords = keyed.flatMap((rule) => rule.keywords);
  const any = new RegExp(keywordSource(keywords), 'i');
  const scanners = keywordScanners(keywords);
  const testOf = (rule: TextRule): ((text: string) => boolean) => {
    const regex = new RegExp(keywordSource(rule.keywords), 'i');
    return rule.hasKeyword ?? ((text) => regex.test(text));
  };
  const tested = new Map(keyed.filter(isTested).map((rule) => [rule, testOf(rule)]));
  const scanned = keyed.filter((rule) => !isTested(rule));
  const scan = new RegExp(keywordSource(scanned.flatMap((rule) => rule.keywords)) || '(?!)', 'gi');
  // a keyword found credits every scanned rule with a keyword inside it (`sk-ant-` also means `sk-`)
  const creditedBy = new Map<string, readonly TextRule[]>();
  for (const keyword of new Set(scanned.flatMap((rule) => rule.keywords))) {
    creditedBy.set(keyword, scanned.filter((rule) => rule.keywords.some((other) => keyword.includes(other))));
  }

  return {
    test: (text) => always.length > 0 || any.test(text),
    scanner: () => (always.length > 0 ? everywhere : scanners()),
    select(text) {
      if (!any.test(text)) return always;
      const selected = new Set<TextRule>(always);
      scan.lastIndex = 0;
      for (let match = scan.exec(text); match !== null && selected.size < rules.length; match = scan.exec(text)) {
        for (const rule of creditedBy.get(match[0].toLowerCase()) ?? []) selected.add(rule);
        // one step on, not past the match: a keyword overlapping this one is still seen
        scan.lastIndex = match.index + 1;
      }
      for (const [rule, hasKeyword] of tested) {
        if (hasKeyword(text)) selected.add(rule);
      }
      return rules.filter((rule) => selected.has(rule));
    },
  };
}
