/**
 * Redaction of text that arrives in pieces (the model's `text` deltas): a
 * secret split across deltas must not leak. What could still grow into a
 * secret is held back (see hold.ts: bounded by the longest secret a rule can
 * match, not by the text around it); everything else is released at once,
 * redacted, a delta's last word too unless its end could begin a secret. A
 * run that outgrows its rule's bound goes as one marker, its rest dropped as
 * it comes. The concatenation of what is released equals
 * redactText(concatenation of what came in), for every split.
 */

import { openCappedMatch, outgrownBefore, PEM_HEADER_START, SHORT_RUN, type CappedMatch } from './hold.js';
import { heldTailLength, holdFrom, type HeldCredentials } from './tail.js';
import { rulesViews } from './rules-view.js';
import { CONTEXT_CHARS, createContext, textAfter } from './stream-context.js';
import { createLiveKeywords } from './live-keywords.js';
import { credentialScanners } from './credential-pieces.js';
import { REDACTED } from './rule.js';
import { redactorAfter } from './redact-after.js';
import { mayContainKnownSecret, prepareKnown, type RedactOptions } from './text.js';

export { holdFrom } from './tail.js';

let scannedCharacters = 0;
/**
 * Characters the stream redactors of this process have looked at (scanned for keywords, held text looked at
 * again, redacted): tests bound it per character of input, which catches quadratic work at any size, where a
 * time bound flakes on a busy machine.
 */
export const charactersScanned = (): number => scannedCharacters;
/** `text`, counted as looked at. */
const looked = (text: string): string => {
  scannedCharacters += text.length;
  return text;
};

/**
 * Up to this much held text, a piece is looked at as it comes (with a keyword
 * in view, when it ends a word); any held text is looked at again when it has
 * doubled since the last look. Each
 * look costs time linear in what is held, so a long hold (an open PEM block,
 * a long token) arriving in one-character pieces still costs linear time
 * overall. Looking later only releases later, never differently.
 */
const EAGER_HOLD = 512;
const SPACE = /\s/;
const PEM_HEADER_END_CHAR = PEM_HEADER_START.at(-1)!;
/** Up to this long, a text is looked at with the characters before it (a credential in use glued to a word, a token start). */
const LAST_CHARS = 32;

export type StreamRedactor = {
  /** A raw piece in; what can be released now, redacted ('' while everything is held back). */
  push(piece: string): string;
  /** Everything still held back, redacted: before a non-text event, and at the end. */
  flush(): string;
  /** How many characters are held back now (never more than the longest hold a rule gives: docs/redaction.md). */
  readonly held: number;
};

const ESCAPED_CHAR_LENGTH = 6;

export function createStreamRedactor(options: RedactOptions = {}): StreamRedactor {
  // A credential in use may arrive encoded: `\u0073`-escaped or as an HTML entity (6 characters each), URL-encoded (3), base64 (4/3).
  // prepared once per secrets array (text.ts), as redactText has them: not again for every stream
  const { secrets, forms } = prepareKnown(options.secrets);
  const credentials: HeldCredentials = {
    secrets,
    forms,
    longest: ESCAPED_CHAR_LENGTH * Math.max(0, ...secrets.map((secret) => secret.length)),
  };
  const redactAfter = redactorAfter(options, looked);
  /** A credential in use that ends in what is held begins no further back than this before it. */
  const longestForm = Math.max(0, ...forms.map((form) => form.length));
  let held = '';
  let context = createContext();
  let lookedAt = 0;
  // Keywords are found as text arrives, each character scanned once, not with the whole window at every
  // look: positions count characters since the stream began.
  /** Characters released so far: where `held` starts. */
  let released = 0;
  /** Where the last private-key header seen starts (-1: none yet): a block it opens is held, keyword or not. */
  let lastPem = -1;
  /** The keywords seen that can still wake a rule (live-keywords.ts). */
  const keywords = createLiveKeywords();
  const knowsSecrets = secrets.length > 0;
  /** Where a credential in use may show (credential-pieces.ts): the latest start found (-1: none); no scanner, every look searches. */
  const credentialScan = knowsSecrets ? credentialScanners(secrets)?.() : undefined;
  let lastCredential = -1;
  const onCredential = (at: number): void => {
    lastCredential = Math.max(lastCredential, scanStart + at);
  };
  let scanStart = 0;
  const resetCredentials = (): void => {
    credentialScan?.reset();
    lastCredential = -1;
  };

  /** The last `count` characters released (fewer at the start): the context ends with them. */
  const releasedEnd = (count: number): string => context.endChars(count);
  /** The last `count` characters released or held (fewer at the start): those before a piece not yet held. */
  const lastChars = (count: number): string => (held.length >= count ? held.slice(-count) : releasedEnd(count - held.length) + held);
  const scan = (piece: string): void => {
    const start = released + held.length;
    keywords.scan(looked(piece), start, lastChars);
    scanStart = start;
    credentialScan?.scan(piece, onCredential);
    // a header that ends in this piece has its last letter in it (one native search, most pieces have none)
    if (!piece.includes(PEM_HEADER_END_CHAR)) return;
    const before = lastChars(PEM_HEADER_START.length - 1);
    const pem = (before + piece).lastIndexOf(PEM_HEADER_START);
    if (pem >= 0) lastPem = start - before.length + pem;
  };

  /** A live keyword or a private-key header starts in the window (the context and what is held). */
  const keywordInView = (): boolean => {
    const windowStart = released - context.length;
    return keywords.last >= windowStart || lastPem >= windowStart;
  };

  /**
   * Whether a credential in use (whole, encoded or a piece) may show in what is held and the new piece. One that
   * began in released text would have begun with its end, which tailStart held back (but for one character
   * glued to a word, which the last characters before what is held cover).
   */
  const credentialNear = (piece: string): boolean => {
    if (credentialScan) return lastCredential >= released - context.length;
    return knowsSecrets && mayContainKnownSecret(looked(held.length >= LAST_CHARS ? held + piece : lastChars(LAST_CHARS) + piece), options);
  };
  /** The same once every piece is in: what is held (with the characters before it when it is short). */
  const credentialHeld = (): boolean => {
    if (credentialScan) return lastCredential >= released - context.length;
    return knowsSecrets && mayContainKnownSecret(looked(held.length >= LAST_CHARS ? held : lastChars(LAST_CHARS)), options);
  };

  /**
   * When nothing in view can be a secret (no live keyword, no private-key header, no credential in use near):
   * `text` (what is held, and the new piece) goes out as it came but for a tail that could still begin a secret
   * (tailStart: `… s`, `… -----BEG`, a piece of a credential). Most deltas of ordinary prose take this way,
   * without the window being built.
   */
  const releaseQuiet = (text: string): string => {
    // a short text is looked at with the characters before it, when they could tell whether its first one is at a token start
    const cut = text.length - heldTailLength(looked(text), credentials, text.length >= LAST_CHARS ? undefined : releasedEnd);
    const ready = cut === text.length ? text : text.slice(0, cut);
    held = cut === text.length ? '' : text.slice(cut);
    if (ready) release(ready);
    lookedAt = held.length;
    return ready;
  };

  /** Whether redactText could change the window: a live keyword starts in it, or a loaded credential is in it. */
  const suspiciousWindow = (window: string): boolean => keywords.last >= released - context.length || mayContainKnownSecret(window, options);

  /** `raw`, the start of what was held, goes out: into the context, and counted. */
  const release = (raw: string): void => {
    context.extend(raw);
    released += raw.length;
  };
  const advance = (raw: string): void => {
    held = held.slice(raw.length);
    release(raw);
  };

  /**
   * held[0, cut) redacted, or undefined when releasing it now would not give
   * the text that redacting everything held at once gives (a complete match
   * the cut would split): then everything stays held until a clean cut or flush.
   */
  const redactCleanCut = (cut: number): string | undefined => {
    const ready = held.slice(0, cut);
    const out = redactAfter(context.text, ready);
    if (cut === held.length) return out;
    const rest = redactAfter(textAfter(context.view(), ready), held.slice(cut));
    return redactAfter(context.text, held) === out + rest ? out : undefined;
  };

  /**
   * The earliest capped match (HoldBound.cap) open in what is held, positions in the stream, followed piece by
   * piece while its run goes on (undefined: none, or not known since the last look).
   */
  let capped: CappedMatch | undefined;
  /** Set while a blob's run is swallowed: its characters, as they come, are dropped (its marker is out). */
  let blob: RegExp | undefined;
  /** Matches that start before this stream position hold nothing: their run outgrew its cap with no rule matching it. */
  let closedBefore = 0;
  /**
   * Whether `match` has outgrown its cap. One that begins within its cap of a match that closed may go half its cap
   * further: in a run of such matches (`key=key=key=…`, none a secret) each outgrew a few characters after the
   * last, and the look that closed it cost the whole hold at every delta (20 s for 96 KB in 4-character deltas).
   */
  const overCap = (match: CappedMatch): boolean => {
    const afterClosed = closedBefore > 0 && match.start - closedBefore < match.cap.longest;
    return released + held.length - match.start > (afterClosed ? 1.5 : 1) * match.cap.longest;
  };

  /**
   * The capped match has outgrown its cap. When a rule matches its run to the end, the run is one secret however
   * it goes on: everything held goes out redacted, the run as one marker, and the rest of the run will be
   * swallowed as it comes (what follows reads after the text that went out, as after the marker in the whole
   * text). When none does, the hold was only cautious (`AKIA` and a long run of capitals is not a key id): the
   * match holds nothing any more, and what is held goes out as the whole text would have it.
   */
  const outgrow = (): string => {
    const out = outgrowBlob();
    if (out !== undefined) return out;
    const ready = releaseReady();
    lookedAt = held.length;
    return ready;
  };

  /** outgrow's first half: the blob's output, or undefined when the match only closed (then what is held is looked at again). */
  const outgrowBlob = (): string | undefined => {
    const { keyword, cap } = capped!;
    capped = undefined;
    let out = redactAfter(context.text, held);
    // a list's last pair, still arriving, goes in the marker: its value would have been redacted whole
    const pairsEnd = cap.list ? held.lastIndexOf(';') + 1 : 0;
    if (!out.endsWith(REDACTED) && pairsEnd > keyword - released) out = `${redactAfter(context.text, held.slice(0, pairsEnd))} ${REDACTED}`;
    if (!out.endsWith(REDACTED)) {
      const windowStart = released - context.length;
      closedBefore = windowStart + outgrownBefore(context.text + held, keyword + 1 - windowStart);
      return undefined;
    }
    released += held.length;
    held = '';
    context = createContext();
    context.extend(out.slice(-CONTEXT_CHARS));
    keywords.reset();
    resetCredentials();
    lookedAt = 0;
    blob = cap.run;
    return out;
  };

  /** A blob's continuation dropped from the start of `piece`: what is left of the piece once its run has ended. */
  const swallow = (piece: string): string => {
    blob!.lastIndex = 0;
    const run = blob!.exec(piece)![0].length;
    scannedCharacters += run;
    released += run;
    if (run === piece.length) return '';
    blob = undefined;
    return piece.slice(run);
  };

  /** Whether the capped match, still going on with `piece`, has outgrown its cap (forgotten when its run has ended). */
  const outgrown = (piece: string): boolean => {
    if (!capped || capped.start < released) return false;
    capped.cap.run.lastIndex = 0;
    scannedCharacters += piece.length;
    if (capped.cap.run.exec(piece)![0].length < piece.length) capped = undefined;
    return capped !== undefined && overCap(capped);
  };

  /**
   * What is held, up to where a match could still begin, redacted. A capped match that outgrew its cap with no rule
   * matching it closes, and the window is looked at again: in a loop, as a run of thousands of such matches
   * (`ghp_ghp_ghp_…`) closes them one by one (a recursion ran out of stack).
   */
  const releaseReady = (): string => {
    for (;;) {
      const out = releaseReadyOnce();
      if (out !== undefined) return out;
    }
  };

  /** One look of releaseReady: undefined when a capped match closed and the window needs another. */
  const releaseReadyOnce = (): string | undefined => {
    const window = context.text + held;
    const suspicious = suspiciousWindow(window);
    const windowStart = released - context.length;
    // what holds starts after the matches closed
    const from = Math.max(0, closedBefore - windowStart);
    const holding = looked(from === 0 ? window : window.slice(from));
    // the views the rules read it in (escapes decoded, credentials in use replaced): none for most windows
    const views = rulesViews(holding, lastCredential >= released - longestForm || !credentialScan ? credentials : undefined);
    for (const view of views) looked(view.text);
    const cut = from + holdFrom(holding, suspicious, credentials, views) - context.length;
    if (suspicious && held.length - Math.max(0, cut) > SHORT_RUN) {
      const open = openCappedMatch(looked(holding));
      const at = windowStart + from;
      capped = open && { start: at + open.start, keyword: at + open.keyword, cap: open.cap };
      if (capped && overCap(capped)) return outgrowBlob();
    }
    if (cut <= 0) return '';
    const ready = held.slice(0, cut);
    // Nothing in view can be a secret: what is ready goes out as it came.
    const out = suspicious ? redactCleanCut(cut) : ready;
    if (out === undefined) return '';
    advance(ready);
    // all out, no match open: the keywords seen can change nothing to come
    if (held.length === 0) keywords.retire(released);
    return out;
  };

  const pushPiece = (piece: string): string => {
    scan(piece);
    const inView = keywordInView();
    if (!inView && held.length + piece.length <= EAGER_HOLD && !credentialNear(piece)) return releaseQuiet(held + piece);
    held += piece;
    if (outgrown(piece)) return outgrow();
    // with a keyword in view, a look costs the whole window: pieces that end no word wait for one that does
    const due = held.length >= 2 * lookedAt || (held.length <= EAGER_HOLD && (!inView || SPACE.test(piece)));
    if (!due) return '';
    const out = releaseReady();
    lookedAt = held.length;
    return out;
  };

  return {
    push(piece) {
      if (!blob) return pushPiece(piece);
      const rest = swallow(piece);
      return rest ? pushPiece(rest) : '';
    },
    get held() {
      return held.length;
    },
    flush() {
      blob = undefined;
      capped = undefined;
      // nothing in view can be a secret: what is held goes out as it came (a token's beginning at the end is no token)
      const quiet = !keywordInView() && !credentialHeld();
      const out = !held || quiet ? held : redactAfter(context.text, held);
      released += held.length;
      held = '';
      context = createContext();
      keywords.reset();
      resetCredentials();
      lookedAt = 0;
      return out;
    },
  };
}
