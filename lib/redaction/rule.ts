/**
 * The shape every text-redaction rule shares, and the marker they write.
 *
 * A rule is data plus one pure function, so the streaming engine (a later
 * issue) can run the same list over a held-back window of text deltas.
 */

/** What every redacted secret is replaced with. */
export const REDACTED = '[REDACTED]';

export interface TextRule {
  /** Short name, for tests and debugging. */
  readonly name: string;
  /**
   * Cheap prefilter: lowercase substrings, at least one of which occurs in the
   * lowercased text whenever the rule can match. An empty list means "always run".
   */
  readonly keywords: readonly string[];
  /** Returns the text with this rule's matches redacted (the same string when none). */
  apply(text: string): string;
  /**
   * The same as apply, told where each of the rule's keywords begins in `text` (ascending): what the prefilter's
   * pass learned, so the rule need not search for them again (the prefilter locates the keywords of every rule that has it).
   */
  applyAt?(text: string, keywordStarts: readonly number[]): string;
}

/** Whether a rule's prefilter lets it run on a text whose lowercase form is `lower`. */
export function mayMatch(rule: TextRule, lower: string): boolean {
  if (rule.keywords.length === 0) return true;
  for (const keyword of rule.keywords) {
    if (lower.includes(keyword)) return true;
  }
  return false;
}

/**
 * A rule that replaces every whole match of a global regex with REDACTED.
 * With `tail` (a one-character class), the characters of that class right after
 * a match go too: a run longer than the regex's bound is redacted whole rather
 * than leaving a tail that a second pass could match differently.
 */
export function wholeMatchRule(name: string, keywords: readonly string[], pattern: RegExp, tail?: RegExp): TextRule {
  return scanRule(name, keywords, pattern, (match) => {
    const end = match.index + match[0].length;
    return [match.index, tail ? extendRun(match.input, end, tail) : end];
  });
}

/**
 * extendRun over one text that remembers the last run it read: a run read again from a start inside it (a name in a
 * value, whose own value ends where that one does) is not read again. It holds the text: one per text.
 */
export function runReader(char: RegExp): (text: string, start: number) => number {
  let last = { text: '', start: 0, end: -1 };
  return (text, start) => {
    if (text === last.text && start >= last.start && start <= last.end) return last.end;
    last = { text, start, end: extendRun(text, start, char) };
    return last.end;
  };
}

/** The index after the run of `char`-class characters that starts at `end` (a linear scan, no regex backtracking). */
export function extendRun(text: string, end: number, char: RegExp): number {
  let at = end;
  while (at < text.length && char.test(text.charAt(at))) at++;
  return at;
}

/** Where, inside the text, the secret of one regex match lies: [start, end). */
export type SecretRange = readonly [start: number, end: number];

/**
 * A rule that scans with a global regex and lets `locate` pick the secret
 * inside each match (or decline with undefined). A declined match consumes
 * nothing: scanning resumes one character after its start, so a candidate
 * hidden inside it is still seen — the same candidates a second pass would see,
 * which keeps redaction idempotent.
 *
 * `startsAtKeyword`, for a pattern whose every match begins where one of the keywords does (`\bauthorization…`):
 * the rule also has applyAt, which tries the pattern only at the keyword starts the prefilter found, instead of
 * running it over the whole text.
 */
export function scanRule(
  name: string,
  keywords: readonly string[],
  pattern: RegExp,
  locate: (match: RegExpExecArray) => SecretRange | undefined,
  startsAtKeyword = false,
): TextRule {
  assertGlobal(pattern);
  /** The text redacted, given the next match at or after an index. */
  const redact = (text: string, matchFrom: (from: number) => RegExpExecArray | null): string => {
    let out = '';
    let copied = 0;
    for (let match = matchFrom(0); match !== null; ) {
      const range = locate(match);
      if (range === undefined || range[0] < copied) {
        match = matchFrom(match.index + 1);
        continue;
      }
      out += text.slice(copied, range[0]) + REDACTED;
      copied = range[1];
      match = matchFrom(Math.max(range[1], match.index + 1));
    }
    return out === '' ? text : out + text.slice(copied);
  };
  const rule: TextRule = {
    name,
    keywords,
    apply: (text) =>
      redact(text, (from) => {
        pattern.lastIndex = from;
        return pattern.exec(text);
      }),
  };
  if (!startsAtKeyword) return rule;
  const sticky = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}y`);
  return {
    ...rule,
    applyAt(text, starts) {
      let next = 0;
      return redact(text, (from) => {
        for (; next < starts.length; next++) {
          if (starts[next]! < from) continue;
          sticky.lastIndex = starts[next]!;
          const match = sticky.exec(text);
          if (match !== null) return match;
        }
        return null;
      });
    },
  };
}

/**
 * A rule whose regex has exactly two capture groups, (kept prefix)(secret),
 * matched back to back: the secret is replaced unless `keep(secret)` says to
 * leave it. `tail` as for wholeMatchRule.
 */
export function prefixedSecretRule(
  name: string,
  keywords: readonly string[],
  pattern: RegExp,
  keep: (secret: string, prefix: string) => boolean,
  tail?: RegExp,
): TextRule {
  return scanRule(name, keywords, pattern, (match) => {
    const [whole, prefix, secret] = match;
    if (keep(secret, prefix)) return undefined;
    const end = match.index + whole.length;
    return [match.index + prefix.length, tail ? extendRun(match.input, end, tail) : end];
  });
}

/**
 * The same rule, run only on the lines that hold one of its keywords (any
 * case). Only for rules whose matches never span a line break and whose
 * lookarounds treat a line break like the start or end of the text: then the
 * output is the same, and a long text with few such lines is scanned once,
 * cheaply, instead of by the rule's regex.
 */
export function lineLocalRule(rule: TextRule): TextRule {
  if (rule.keywords.length === 0 || rule.keywords.some((keyword) => /[\r\n]/.test(keyword))) {
    throw new Error(`line-local rule ${rule.name} needs keywords without line breaks`);
  }
  const keyword = new RegExp(rule.keywords.map(escapeRegExp).join('|'), 'gi');
  return {
    name: rule.name,
    keywords: rule.keywords,
    apply(text) {
      let out = '';
      let copied = 0;
      keyword.lastIndex = 0;
      for (let match = keyword.exec(text); match !== null; match = keyword.exec(text)) {
        const start = text.lastIndexOf('\n', match.index) + 1;
        const newline = text.indexOf('\n', match.index);
        const end = newline < 0 ? text.length : newline;
        const line = text.slice(start, end);
        const redacted = rule.apply(line);
        if (redacted !== line) {
          out += text.slice(copied, start) + redacted;
          copied = end;
        }
        keyword.lastIndex = end;
      }
      return out === '' ? text : out + text.slice(copied);
    },
  };
}

/** `text` as a regex source matching it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

function assertGlobal(pattern: RegExp): void {
  if (!pattern.global) throw new Error(`redaction pattern must be global: ${pattern}`);
}
