/**
 * Which keywords of streamed text can still wake a rule (stream.ts). The prefilter's keywords include words
 * that prose and code use all the time (`key`, `token`, `password`, `secret`): a stream redactor that held and
 * redacted again every window naming one did so for nearly every delta of a model that talks about its code.
 * But those rules match only a name followed by an operator (`token =`, `"apiKey":`, `?sig=`, `Cookie:`),
 * `bearer` or `--cookie` and a space: the few characters after each occurrence decide it, most of them at once
 * (`the token is`: dead at the `i`). Every other keyword (a token's prefix, `://`, a private-key header, an
 * escape, the AWS key name `secret access`) is live as soon as it is seen, as before.
 *
 * A dead occurrence can wake no rule whatever follows, so a window whose keywords are all dead is as quiet as
 * one without any: redactText leaves it as it is (each rule's keyword condition below is a necessary condition
 * of its regex).
 */

import { ESCAPE_KEYWORDS } from './escapes.js';
import { isNameCode } from './hold-bounds.js';
import { endsNetrcWord, NETRC_REACH } from './config-lines.js';
import { keywordHitScanners } from './keyword-scanner.js';
import { looksRandom } from './literals.js';
import { MAX_PROSE_WORD, proseWordValues } from './assignments.js';
import { TEXT_RULES } from './text.js';

const OPEN = 0;
const LIVE = 1;
const DEAD = 2;
type Verdict = typeof OPEN | typeof LIVE | typeof DEAD;

/**
 * What follows an occurrence: `text` from `from` (the piece it ends in, then what it has been followed by while
 * open); `runEnd` is where the name run after it stops, scanned once; `dashed`: `--` before it.
 */
type Follow = {
  text: string;
  from: number;
  runEnd: number;
  dashed: boolean;
  /** The name the keyword is in begins with `--` (`--api-key`): a command's flag. */
  flagged: boolean;
  /** The keyword (`-p`) begins an argument: after no letter, digit or dash (`--user`'s second dash aside). */
  argumentStart: boolean;
  /** The keyword (`pass`) follows a .netrc word: `machine host`, `login user`. */
  netrc: boolean;
};
type Condition = (follow: Follow) => Verdict;

/** A name, a backslash, a quote, a bracket and 32 blanks fit in this: an occurrence still open past it is taken as live. */
const FOLLOW_LIMIT = 200;

const isBlankCode = (code: number): boolean => code === 32 || code === 9;

/**
 * Walks the name run after the keyword on from where the last walk stopped, FOLLOW_LIMIT characters at most (an
 * occurrence still open past that is live): false when the run goes on past it. Unbounded, `password` × N in one
 * piece walked to the piece's end from every occurrence.
 */
const walkNameRun = (follow: Follow): boolean => {
  const { text } = follow;
  const limit = Math.min(text.length, follow.from + FOLLOW_LIMIT + 1);
  follow.runEnd = Math.max(follow.runEnd, follow.from);
  while (follow.runEnd < limit && isNameCode(text.charCodeAt(follow.runEnd))) follow.runEnd++;
  return follow.runEnd < limit || limit === text.length;
};

/**
 * The rest of a name, then `\?["']?]?[ \t]{0,32}` and `:` or `=` (or a quote and a comma, `||`, `??`, `>`, or blanks and a
 * single quote or `is`): the anchored assignment rule's condition; the
 * query parameter (`[?&]name=`), header (`authorization:`, `x-api-key=`) and cookie (`Cookie:`) rules' names meet it too.
 */
const nameOperator: Condition = (follow) => {
  if (!walkNameRun(follow)) return OPEN;
  const { text } = follow;
  let at = follow.runEnd;
  if (at < text.length && text.charCodeAt(at) === 92) at++;
  const quoted = at < text.length && (text.charCodeAt(at) === 34 || text.charCodeAt(at) === 39);
  if (quoted) at++;
  // a subscript's closing bracket: `os.environ["API_KEY"] =`
  if (at < text.length && text.charCodeAt(at) === 93) at++;
  const nameEnd = at;
  for (let blanks = 0; blanks < 32 && at < text.length && isBlankCode(text.charCodeAt(at)); blanks++) at++;
  if (at === text.length) return OPEN;
  const code = text.charCodeAt(at);
  // a default (`process.env.API_KEY || "…"`, `?? '…'`), an XML element's content (`<password>…`), SQL's `PASSWORD '…'`
  if (code === 124 || code === 63) return prefixVerdict(text, at, code === 124 ? '||' : '??');
  // (`>` right after the name only: `token > 0` compares)
  if ((code === 62 && at === nameEnd) || (code === 39 && at > nameEnd)) return LIVE;
  // prose: `the password is …`
  if (code === 105 && at > nameEnd) return proseIs(text, at);
  // a name/value pair's value on the next line: `- name: DB_PASSWORD` then `  value: …`
  if (code === 10 || code === 13) return valueLineNext(text, at);
  // or in the XML attribute after it: `key="ApiKey" value="…"`
  if (quoted && code === 118) return prefixVerdict(text, at, VALUE_ATTRIBUTE);
  // a call's quoted first argument, then its comma: `os.getenv("API_KEY", "…")`
  return code === 58 || code === 61 || (quoted && code === 44) ? LIVE : DEAD;
};

/**
 * `is` at `at`, blanks, then a quoted value or a random-looking word (the rule's own judgement, so `the token is
 * valid` stays dead): live; any beginning of that: open; anything else: dead.
 */
function proseIs(text: string, at: number): Verdict {
  if (at + 1 === text.length) return OPEN;
  if (text.charCodeAt(at + 1) !== 115) return DEAD;
  let start = at + 2;
  if (start < text.length && !isBlankCode(text.charCodeAt(start))) return DEAD;
  for (let blanks = 0; blanks < 32 && start < text.length && isBlankCode(text.charCodeAt(start)); blanks++) start++;
  if (start === text.length) return OPEN;
  const first = text.charCodeAt(start);
  if (first === 34 || first === 39 || first === 96) return LIVE;
  let end = start;
  while (end < text.length && end - start <= MAX_PROSE_WORD && !SPACE.test(text.charAt(end))) end++;
  if (end === text.length && end - start <= MAX_PROSE_WORD) return OPEN;
  return proseWordValues(text.slice(start, end)).some(looksRandom) ? LIVE : DEAD;
}

const SPACE = /\s/;

const VALUE_FIELD = 'value:';
const VALUE_ATTRIBUTE = 'value=';

/** `word` at `at` (live), the beginning of it at the text's end (open), or anything else (dead). */
function prefixVerdict(text: string, at: number, word: string): Verdict {
  const seen = text.slice(at, at + word.length);
  if (!word.startsWith(seen)) return DEAD;
  return seen.length === word.length ? LIVE : OPEN;
}

/** After a line break at `at`: blanks, then `value:` (live), the beginning of it (open) or anything else (dead). */
function valueLineNext(text: string, at: number): Verdict {
  if (text.charCodeAt(at) === 13) at++;
  if (at < text.length && text.charCodeAt(at) === 10) at++;
  for (let blanks = 0; blanks < 32 && at < text.length && isBlankCode(text.charCodeAt(at)); blanks++) at++;
  return prefixVerdict(text, at, VALUE_FIELD);
}

/** A space or a tab next: `Bearer <token>`. */
const blankNext: Condition = ({ text, from }) => (text.length === from ? OPEN : isBlankCode(text.charCodeAt(from)) ? LIVE : DEAD);

/** curl's `--cookie <list>`. */
const cookieFlag: Condition = (follow) => (follow.dashed ? blankNext(follow) : DEAD);

/** A command's `--flag`, then a blank and its value (`--password X`; `--password=X` is nameOperator's). */
const flagArgument: Condition = (follow) => {
  if (!follow.flagged) return DEAD;
  if (!walkNameRun(follow)) return OPEN;
  const { text } = follow;
  let at = follow.runEnd;
  let blanks = 0;
  for (; blanks < 4 && at < text.length && isBlankCode(text.charCodeAt(at)); blanks++) at++;
  return at === text.length ? OPEN : blanks > 0 ? LIVE : DEAD;
};

/** A short option that takes a password (`-p`, `-a`, `-u`), at an argument's start. */
const optionArgument: Condition = (follow) => (follow.argumentStart ? LIVE : DEAD);

/** A .netrc entry's `password`, then a blank and its value. */
const NETRC_PASSWORD = 'word';
const netrcPassword: Condition = (follow) => {
  if (!follow.netrc) return DEAD;
  const { text, from } = follow;
  const seen = text.slice(from, from + NETRC_PASSWORD.length + 1).toLowerCase();
  if (!(NETRC_PASSWORD + ' ').startsWith(seen) && !(NETRC_PASSWORD + '\t').startsWith(seen)) return DEAD;
  return seen.length <= NETRC_PASSWORD.length ? OPEN : LIVE;
};

const always: Condition = () => LIVE;
/** An escape's conditions: it wakes no rule of its own, but decoded it may become any keyword. */
const ESCAPED: readonly Condition[] = [always];

/** What each rule needs after one of its keywords, by rule name (any other rule: live at once). */
const CONDITIONS: Readonly<Record<string, readonly Condition[]>> = {
  'sensitive-assignment': [nameOperator],
  'query-param': [nameOperator],
  'authorization-header': [nameOperator],
  'api-key-header': [nameOperator],
  'cookie-header': [nameOperator, cookieFlag],
  'bearer-token': [blankNext],
  'basic-auth-field': [nameOperator],
  'command-flag': [flagArgument],
  'command-password': [optionArgument],
  'netrc-password': [netrcPassword],
};

// a rule with no keyword would never be live here, and what it matches would go out unredacted
if (TEXT_RULES.some((rule) => rule.keywords.length === 0)) throw new Error('live keywords: every text rule needs keywords');
const KEYWORDS = [...new Set([...TEXT_RULES.flatMap((rule) => rule.keywords), ...ESCAPE_KEYWORDS])];
/** Per keyword, the conditions of every rule it wakes (an escape wakes them all: live). */
const KEYWORD_CONDITIONS: readonly (readonly Condition[])[] = KEYWORDS.map((keyword) => {
  const rules = TEXT_RULES.filter((rule) => rule.keywords.includes(keyword));
  if (rules.length === 0) return ESCAPED;
  return [...new Set(rules.flatMap((rule) => CONDITIONS[rule.name] ?? [always]))];
});
const hitScanners = keywordHitScanners(KEYWORDS);

function verdict(conditions: readonly Condition[], follow: Follow): Verdict {
  let open = false;
  for (const condition of conditions) {
    const answer = condition(follow);
    if (answer === LIVE) return LIVE;
    open ||= answer === OPEN;
  }
  return !open ? DEAD : follow.text.length - follow.from > FOLLOW_LIMIT ? LIVE : OPEN;
}

type Pending = { start: number; conditions: readonly Condition[]; follow: Follow };

export type LiveKeywords = {
  /** The next piece, which starts at stream position `at`; `before(count)`: the last `count` characters before it (fewer at the start). */
  scan(piece: string, at: number, before: (count: number) => string): void;
  /** Where the latest keyword that is live or still open starts (-1: none). */
  readonly last: number;
  /** A new text begins. */
  reset(): void;
  /**
   * Everything before `before` went out, and no match was open in it (closed: no text to come can change it):
   * its live keywords can wake no rule for the text to come (escapes aside).
   */
  retire(before: number): void;
};

export function createLiveKeywords(): LiveKeywords {
  const hits = hitScanners();
  let pending: Pending[] = [];
  let lastLive = -1;
  /** Escapes are never retired: redactText decodes every escape of a text in which a decoded secret shows. */
  let lastEscape = -1;
  let piece = '';
  let before: (count: number) => string = () => '';
  let pieceStart = 0;
  const decide = (occurrence: Pending): boolean => {
    const answer = verdict(occurrence.conditions, occurrence.follow);
    if (answer === LIVE && occurrence.conditions === ESCAPED) lastEscape = Math.max(lastEscape, occurrence.start);
    else if (answer === LIVE) lastLive = Math.max(lastLive, occurrence.start);
    return answer === OPEN;
  };
  /** The character code at `at` (relative to the piece; negative: in what came before it; NaN before the text). */
  const codeAt = (at: number): number => {
    if (at >= 0) return piece.charCodeAt(at);
    const chars = before(-at);
    return chars.length >= -at ? chars.charCodeAt(chars.length + at) : NaN;
  };
  const dashAt = (at: number): boolean => codeAt(at) === 45;
  /** The `count` characters before `at` in the piece (fewer at the stream's start), those before the piece included. */
  const charsBefore = (at: number, count: number): string => {
    if (at >= count) return piece.slice(at - count, at);
    if (at >= 0) return before(count - at) + piece.slice(0, at);
    // a keyword that began in an earlier piece
    const chars = before(count - at);
    return chars.slice(0, Math.max(0, chars.length + at));
  };
  const isWordOrDash = (code: number): boolean => isNameCode(code) && code !== 46;
  /** Whether the name run the keyword at `start` is in begins with `--` (not `---`): walked back at most 64 characters. */
  const flaggedAt = (start: number): boolean => {
    if (!isWordOrDash(codeAt(start - 1))) return false;
    let from = start - 1;
    while (start - from < 64 && isWordOrDash(codeAt(from - 1))) from--;
    return codeAt(from) === 45 && codeAt(from + 1) === 45 && codeAt(from + 2) !== 45 && !isWordOrDash(codeAt(from - 1));
  };
  /** Whether the option at `start` (`-p`) begins an argument; `--user`: the `-u` after its first dash. */
  const argumentStartAt = (start: number): boolean => {
    const before = codeAt(start - 1);
    if (before === 45) return !isWordOrDash(codeAt(start - 2));
    return !isWordOrDash(before);
  };
  // most occurrences are decided in the piece they end in: judged in place, a copy of what follows kept only while open
  const judged: Pending = { start: 0, conditions: [], follow: { text: '', from: 0, runEnd: 0, dashed: false, flagged: false, argumentStart: false, netrc: false } };
  const onHit = (start: number, keyword: number): void => {
    const end = start + KEYWORDS[keyword]!.length;
    judged.start = pieceStart + start;
    judged.conditions = KEYWORD_CONDITIONS[keyword]!;
    const { follow } = judged;
    follow.text = piece;
    follow.from = follow.runEnd = end;
    follow.dashed = dashAt(start - 2) && dashAt(start - 1);
    follow.flagged = judged.conditions.includes(flagArgument) && flaggedAt(start);
    follow.argumentStart = judged.conditions.includes(optionArgument) && argumentStartAt(start);
    follow.netrc = judged.conditions.includes(netrcPassword) && endsNetrcWord(charsBefore(start, NETRC_REACH));
    if (!decide(judged)) return;
    const { runEnd, dashed, flagged, argumentStart, netrc } = judged.follow;
    pending.push({
      start: judged.start,
      conditions: judged.conditions,
      follow: { text: piece.slice(end), from: 0, runEnd: runEnd - end, dashed, flagged, argumentStart, netrc },
    });
  };
  return {
    scan(next, at, charsBefore) {
      if (pending.length > 0) {
        pending = pending.filter((occurrence) => {
          occurrence.follow.text += next.slice(0, FOLLOW_LIMIT + 1 - occurrence.follow.text.length);
          return decide(occurrence);
        });
      }
      piece = next;
      before = charsBefore;
      pieceStart = at;
      hits.scan(next, onHit);
    },
    get last() {
      let last = Math.max(lastLive, lastEscape);
      for (const occurrence of pending) last = Math.max(last, occurrence.start);
      return last;
    },
    reset() {
      hits.reset();
      pending = [];
      lastLive = -1;
      lastEscape = -1;
    },
    retire(before) {
      if (lastLive < before) lastLive = -1;
    },
  };
}
