/**
 * Which rules can match a text, learned cheaply: one pass of an Aho–Corasick
 * automaton of every rule's keywords (keyword-scanner.ts) tells which rules
 * have a keyword in the text, so a text with none goes out as it came, and
 * the others meet only the rules they can wake. One pass for all rules, each
 * character looked at once: a regex per rule, or one regex of all keywords
 * run match by match, cost several times more on code, where `key` and
 * `token` are everywhere.
 */

import { keywordGroups } from './keyword-scanner.js';
import { escapeRegExp, type TextRule } from './rule.js';

export interface Prefilter {
  /** Whether any keyword occurs in `text` (or some rule has no keywords). */
  test(text: string): boolean;
  /** The rules with applyAt, in their order: select tells where their keywords begin. */
  readonly located: readonly TextRule[];
  /** The rules that can match `text`, and where the keywords of the located ones begin. */
  select(text: string): Selection;
}

export interface Selection {
  /** The rules, in their order, whose keywords occur in the text (plus those without keywords). */
  readonly rules: readonly TextRule[];
  /** Per located rule, where its keywords begin in the text, ascending (see TextRule.applyAt). */
  readonly starts: readonly (readonly number[])[];
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
  if (keyed.length === 0) return { located: [], test: () => always.length > 0, select: () => ({ rules: always, starts: [] }) };

  const located = rules.filter((rule) => rule.applyAt !== undefined && rule.keywords.length > 0);
  const groups = keywordGroups(
    rules.map((rule) => rule.keywords),
    located.map((rule) => rules.indexOf(rule)),
  );
  /** What a text without keywords selects (the common case: one answer for them all). */
  const nothing: Selection = { rules: always, starts: located.map(() => []) };
  return {
    located,
    test: (text) => always.length > 0 || groups.some(text),
    select(text) {
      const found = groups.which(text, located.length > 0);
      if (found === undefined) return nothing;
      return { rules: rules.filter((rule, index) => found.groups[index] === 1 || rule.keywords.length === 0), starts: found.starts };
    },
  };
}
