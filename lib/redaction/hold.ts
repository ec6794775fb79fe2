/**
 * Where the held-back tail of streamed text starts: the earliest position
 * where a match of some rule could still begin and be changed by text that
 * has not arrived yet. Everything before it can be redacted and released now.
 *
 * Each rule has a bound (hold-bounds.ts): where, around one of its keywords, its
 * redacted range can start, and whether the text from that keyword to the end
 * can still be the beginning of a match (a token whose run of token characters
 * reaches the end, an assignment whose value is still being written, …). A
 * keyword whose match is closed — ended by a character the match cannot
 * contain — holds nothing, however long the run around it: holding is bounded
 * by the secret, not by the text around it.
 */

import { DEFAULT_BOUND, HOLD_BOUNDS, type HoldBound, type RunCap } from './hold-bounds.js';
import { keywordSource } from './prefilter.js';
import { TEXT_RULES } from './text.js';

/** A trailing run with an escape in it is held whole up to this long (a longer one, its last characters); more held than this is worth a look for a capped match. */
export const SHORT_RUN = 256;
/** A PEM block: header, a body of up to 64 KiB (the rule's bound), footer. */
const MAX_PEM_HOLD = 65536 + 256;

type Keyed = {
  /** Every rule keyword, and per keyword (by index) the bounds of the rules whose keyword it starts with (`sk-ant-` → also `sk-`). */
  keywords: readonly string[];
  bounds: readonly (readonly HoldBound[])[];
  index: ReadonlyMap<string, number>;
  /**
   * The longest keyword at each start, one scan for all (the keyword automaton would be faster, but a second one
   * run through its code slows the stream's own, live-keywords.ts, by a fifth on prose); `at`: at `lastIndex`.
   */
  scan: RegExp;
  at: RegExp;
  maxLead: number;
};

function keyed(): Keyed {
  const rules = TEXT_RULES.map((rule) => ({ keywords: rule.keywords, bound: HOLD_BOUNDS[rule.name] ?? DEFAULT_BOUND }));
  const keywords = [...new Set(rules.flatMap((rule) => rule.keywords))];
  return {
    keywords,
    bounds: keywords.map((keyword) => rules.filter((rule) => rule.keywords.some((own) => keyword.startsWith(own))).map((rule) => rule.bound)),
    // looked up by what the case-insensitive scans found, lowered
    index: new Map(keywords.map((keyword, index) => [keyword.toLowerCase(), index])),
    scan: new RegExp(keywordSource(keywords), 'gi'),
    at: new RegExp(keywordSource(keywords), 'iy'),
    maxLead: Math.max(...rules.map((rule) => rule.bound.lead)),
  };
}

const KEYED = keyed();

/**
 * Where keywords of a text start, in order, and the longest at each (its index); the last text's are kept, as a
 * look asks for the open matches of one text, of its beginnings (tail.ts openStart) and for its capped match.
 */
const hits = { text: '', starts: [] as number[], keywords: [] as number[] };

function keywordHits(text: string): typeof hits {
  if (text === hits.text) return hits;
  const { scan, index } = KEYED;
  hits.starts.length = hits.keywords.length = 0;
  scan.lastIndex = 0;
  for (let found = scan.exec(text); found !== null; found = scan.exec(text)) {
    hits.starts.push(found.index);
    hits.keywords.push(index.get(found[0].toLowerCase())!);
    scan.lastIndex = found.index + 1;
  }
  hits.text = text;
  return hits;
}

/** The longest keyword at `at` of `text` (its index), or -1. */
function keywordAt(text: string, at: number): number {
  KEYED.at.lastIndex = at;
  const found = KEYED.at.exec(text);
  return found === null ? -1 : KEYED.index.get(found[0].toLowerCase())!;
}

/**
 * The earliest cut that leaves every match still open at the end of text[0, end) whole: `end` when none is.
 * `withinCaps`: a capped match longer than its cap holds nothing (in a view of the text, where no blob is
 * swallowed: tail.ts).
 */
export function openMatchStart(text: string, withinCaps = false, end = text.length): number {
  let best = end;
  const { starts, keywords } = keywordHits(text);
  let seen: string | undefined;
  for (let hit = 0; hit < starts.length && starts[hit]! - KEYED.maxLead < best; hit++) {
    const at = starts[hit]!;
    if (at >= end) break;
    seen ??= end === text.length ? text : text.slice(0, end);
    // the longest keyword there may not fit in text[0, end), a shorter one may
    const keyword = at + KEYED.keywords[keywords[hit]!]!.length > end ? keywordAt(seen, at) : keywords[hit]!;
    if (keyword < 0) continue;
    for (const bound of KEYED.bounds[keyword]!) {
      const start = at - bound.lead;
      if (withinCaps && bound.cap && end - start > bound.cap.longest) continue;
      if (start < best && bound.open(seen, at)) best = start;
    }
  }
  return Math.max(0, best);
}

/** A capped match open at the end of a text: where it starts, where its keyword is, its cap. */
export type CappedMatch = { start: number; keyword: number; cap: RunCap };

/** The earliest capped match (HoldBound.cap) still open at the end of `text`. */
export function openCappedMatch(text: string): CappedMatch | undefined {
  let best: CappedMatch | undefined;
  const { starts, keywords } = keywordHits(text);
  for (let hit = 0; hit < starts.length && (best === undefined || starts[hit]! - KEYED.maxLead < best.start); hit++) {
    const at = starts[hit]!;
    for (const bound of KEYED.bounds[keywords[hit]!]!) {
      const start = Math.max(0, at - bound.lead);
      if (bound.cap && (best === undefined || start < best.start) && bound.open(text, at)) best = { start, keyword: at, cap: bound.cap };
    }
  }
  return best;
}

/**
 * Once a capped match has outgrown its cap with no rule matching (stream.ts), every match after it that could only
 * be outgrown too closes with it: from `from` (just past the closed match's keyword), the keywords up to the
 * first whose matches might not be (a bound without a cap, or one still within it) are passed, and the position
 * just past the last one passed is returned, as closing them one look at a time would leave it. One pass over
 * the keywords, where one look each was quadratic (`ghp_` × 4,000 in one piece: seconds).
 */
export function outgrownBefore(text: string, from: number): number {
  const { starts, keywords } = keywordHits(text);
  let closed = from;
  for (let hit = 0; hit < starts.length; hit++) {
    const at = starts[hit]!;
    if (at < from) continue;
    const withinCap = (bound: HoldBound): boolean => !bound.cap || text.length - (at - bound.lead) <= bound.cap.longest;
    if (KEYED.bounds[keywords[hit]!]!.some(withinCap)) return closed;
    closed = at + 1;
  }
  return closed;
}

export const PEM_HEADER_START = '-----BEGIN';
const PEM_FOOTER = /-----END[ A-Z0-9]{0,40}PRIVATE KEY[ A-Z]{0,10}-----/;
/** A private-key header, or the start of one still arriving word by word (`-----BEGIN RSA `). */
const PEM_HEADER = /^-----BEGIN[ A-Z0-9]*$|^-----BEGIN[ A-Z0-9]{0,40}PRIVATE/;

/** The earliest private-key header in the last MAX_PEM_HOLD characters with no footer after it. */
export function pemStart(text: string): number {
  for (let at = text.indexOf(PEM_HEADER_START, Math.max(0, text.length - MAX_PEM_HOLD)); at >= 0; at = text.indexOf(PEM_HEADER_START, at + 1)) {
    if (PEM_HEADER.test(text.slice(at, at + 64)) && !PEM_FOOTER.test(text.slice(at))) return at;
  }
  return text.length;
}
