/**
 * A scanRule that tries its regex only around keyword occurrences: in the run
 * of name characters holding a keyword (and one character before it, for an
 * opening quote, or two for `\"`). For rules that can only ever accept a match starting there
 * (a sensitive name always holds a keyword), the output is the same as
 * scanRule's; but ordinary code, where nearly every word could start a name,
 * is crossed by one cheap keyword search instead of by the rule's regex.
 *
 * `namePasses`, for a pattern whose match names the run from one of its starts (the run's start, or after a
 * character `startsAfter` accepts) to its end, and a `locate` that declines a match whose name fails it: a run
 * where no such name passes is skipped without trying the pattern (`key=None`, `{"key": key}` in code).
 */

import { keywordSource } from './prefilter.js';
import { REDACTED, type SecretRange, type TextRule } from './rule.js';

/** Character classes as char-code tests (cheaper than a regex per character). */
export interface Anchor {
  /** The characters of the run around a keyword (a name). */
  inRun(code: number): boolean;
  /** Whether a match can start at these one or two characters just before the run (an opening quote, `\"`). */
  startsBefore(before: string): boolean;
  /** Whether a match can start right after this run character (the regex's lookbehind has the last word). */
  startsAfter(code: number): boolean;
  /** The longest name: one runs to its run's end, so only the run's last this many characters can begin one. */
  readonly longestName: number;
  /**
   * A regex source for what must follow a keyword for a match to be possible:
   * the rest of its run and what comes after (a necessary condition, checked
   * by the keyword search itself, so runs that fail it cost no JavaScript).
   */
  readonly follows: string;
}

const isWordCode = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

/**
 * Names of `[A-Za-z0-9_.-]`, at most 128 characters; a new name can start
 * after a `-` (`--password`, `x-api-key` → `api-key`); a name is followed by
 * an optional closing quote, up to 32 spaces or tabs (aligned columns), and an operator starting
 * with `:` or `=` (or, after a closing quote, a comma: a call's first argument; a default's `||` or `??`; an XML
 * element's `>`; a blank and a single quote, SQL's `PASSWORD '…'`; prose's `is`). (The lookahead-and-backreference takes the rest of the run
 * atomically: no backtracking into it.)
 */
export const NAME_ANCHOR: Anchor = {
  inRun: (code) => isWordCode(code) || code === 46 || code === 45,
  startsBefore: (before) => before === '"' || before === "'" || before === '\\"',
  startsAfter: (code) => code === 45,
  longestName: 128,
  follows: `(?=([A-Za-z0-9_.-]{0,127}))\\1(?:\\\\?["']?\\]?[ \\t]{0,32}[:=]|["'][ \\t]{0,32},|["']?[ \\t]{0,32}\\r?\\n[ \\t]{0,32}value:|["'][ \\t]{1,32}value=|[ \\t]{0,32}(?:\\|\\||\\?\\?)|>|[ \\t]{1,32}'|[ \\t]{1,32}is[ \\t])`,
};

export function anchoredScanRule(
  name: string,
  keywords: readonly string[],
  pattern: RegExp,
  locate: (match: RegExpExecArray) => SecretRange | undefined,
  anchor: Anchor,
  namePasses?: (name: string) => boolean,
): TextRule {
  if (keywords.length === 0) throw new Error(`anchored rule ${name} needs keywords`);
  const sticky = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}y`);
  // as a trie (`p(?:ass|wd)`): the same matches as a flat alternation, found with fewer comparisons
  const keywordSearch = `(?:${keywordSource(keywords)})${anchor.follows}`;
  const keyword = new RegExp(keywordSearch, 'gi');
  const keywordHere = new RegExp(keywordSearch, 'iy');

  /** Whether a name that can begin in the run [start, end) and run to its end passes (a run where none does is skipped). */
  // from every start in a run of thousands of `-` (`a-a-…-tokenx=1`) the rest of the run was a name to judge: quadratic
  const somePasses = (text: string, start: number, end: number): boolean => {
    if (namePasses === undefined) return true;
    for (let at = Math.max(start, end - anchor.longestName); at < end; at++) {
      if ((at === start || anchor.startsAfter(text.charCodeAt(at - 1))) && namePasses(text.slice(at, end))) return true;
    }
    return false;
  };

  /** The text redacted, given where the next keyword that `follows` holds for is at or after an index (-1: none). */
  const redact = (text: string, nextHit: (from: number) => number): string => {
    let out = '';
    let copied = 0;
    for (let hit = nextHit(0); hit >= 0; ) {
      let start = hit;
      while (start > 0 && anchor.inRun(text.charCodeAt(start - 1))) start--;
      let end = hit + 1;
      while (end < text.length && anchor.inRun(text.charCodeAt(end))) end++;
      if (!somePasses(text, start, end)) {
        hit = nextHit(end);
        continue;
      }
      // every start in the run, left to right, as scanRule would meet them; the first accepted wins
      for (let at = Math.max(start - 2, copied, end - anchor.longestName - 2); at < end; at++) {
        if (at < start ? !anchor.startsBefore(text.slice(at, start)) : at > start && !anchor.startsAfter(text.charCodeAt(at - 1))) continue;
        sticky.lastIndex = at;
        const match = sticky.exec(text);
        if (match === null) continue;
        const range = locate(match);
        if (range === undefined || range[0] < copied) continue;
        out += text.slice(copied, range[0]) + REDACTED;
        copied = range[1];
        break;
      }
      hit = nextHit(end);
    }
    return out === '' ? text : out + text.slice(copied);
  };

  return {
    name,
    keywords,
    apply: (text) =>
      redact(text, (from) => {
        keyword.lastIndex = from;
        const hit = keyword.exec(text);
        return hit === null ? -1 : hit.index;
      }),
    // the keyword search done: only where a keyword begins is `follows` tried
    applyAt(text, starts) {
      let next = 0;
      return redact(text, (from) => {
        for (; next < starts.length; next++) {
          const start = starts[next]!;
          if (start < from) continue;
          keywordHere.lastIndex = start;
          if (keywordHere.test(text)) return start;
        }
        return -1;
      });
    },
  };
}
