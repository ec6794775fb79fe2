/**
 * Redaction of text that arrives in pieces (the model's `text` deltas): a
 * secret split across deltas must not leak. What could still grow into a
 * secret is held back (see hold.ts: bounded by the longest secret a rule can
 * match, not by the text around it); everything else is released at once,
 * redacted. The concatenation of what is released equals
 * redactText(concatenation of what came in), for every split.
 */

import { holdFrom } from './hold.js';
import { mayContainSecret, prepareSecrets, redactText, type RedactOptions } from './text.js';

export { holdFrom } from './hold.js';

/** Released text kept, at least, as the left context of the next release: a name before its keyword, lookbehinds, line starts. */
const CONTEXT_CHARS = 160;
/**
 * Up to this much held text, a piece is looked at when it ends a word; any
 * held text is looked at again when it has doubled since the last look. Each
 * look costs time linear in what is held, so a long hold (an open PEM block,
 * a long token) arriving in one-character pieces still costs linear time
 * overall. Looking later only releases later, never differently.
 */
const EAGER_HOLD = 512;
const SPACE = /\s/;

export type StreamRedactor = {
  /** A raw piece in; what can be released now, redacted ('' while everything is held back). */
  push(piece: string): string;
  /** Everything still held back, redacted: before a non-text event, and at the end. */
  flush(): string;
};

/**
 * `raw` redacted as it reads after `context`: lookbehinds and line starts see
 * what they would in the whole text. The context's own redaction is
 * remembered: consecutive calls share it.
 */
function redactorAfter(options: RedactOptions): (context: string, raw: string) => string {
  let lastContext = '';
  let lastRedacted = '';
  return (context, raw) => {
    if (context !== lastContext) {
      lastContext = context;
      lastRedacted = redactText(context, options);
    }
    const withContext = redactText(context + raw, options);
    return withContext.startsWith(lastRedacted) ? withContext.slice(lastRedacted.length) : redactText(raw, options);
  };
}

/**
 * Released raw text kept as the left context of what is still held. It
 * starts at an earlier cut, never inside a match: a long token released
 * whole stays whole in it, so rules that run after the token rule see its
 * `[REDACTED]` there, as they do in the whole text.
 */
type Context = { readonly text: string; readonly cuts: readonly number[] };

const NO_CONTEXT: Context = { text: '', cuts: [0] };

/** The context once `raw` (up to a cut) is released: from the latest cut that leaves CONTEXT_CHARS or more. */
function extend(context: Context, raw: string): Context {
  const text = context.text + raw;
  const cuts = [...context.cuts, text.length];
  let keep = 0;
  while (keep + 1 < cuts.length && text.length - cuts[keep + 1]! >= CONTEXT_CHARS) keep++;
  const start = cuts[keep]!;
  return { text: text.slice(start), cuts: cuts.slice(keep).map((cut) => cut - start) };
}

const ESCAPED_CHAR_LENGTH = 6;

export function createStreamRedactor(options: RedactOptions = {}): StreamRedactor {
  // A credential in use may arrive encoded: `\u0073`-escaped or as an HTML entity (6 characters each), URL-encoded (3), base64 (4/3).
  const longestSecret = ESCAPED_CHAR_LENGTH * Math.max(0, ...prepareSecrets(options.secrets).map((secret) => secret.length));
  const redactAfter = redactorAfter(options);
  let held = '';
  let context = NO_CONTEXT;
  let lookedAt = 0;

  const advance = (raw: string): void => {
    held = held.slice(raw.length);
    context = extend(context, raw);
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
    const rest = redactAfter(extend(context, ready).text, held.slice(cut));
    return redactAfter(context.text, held) === out + rest ? out : undefined;
  };

  /** What is held, up to where a match could still begin, redacted. */
  const releaseReady = (): string => {
    const window = context.text + held;
    const suspicious = mayContainSecret(window, options);
    const cut = holdFrom(window, suspicious, longestSecret) - context.text.length;
    if (cut <= 0) return '';
    const ready = held.slice(0, cut);
    // Nothing in view can be a secret: what is ready goes out as it came.
    const out = suspicious ? redactCleanCut(cut) : ready;
    if (out === undefined) return '';
    advance(ready);
    return out;
  };

  return {
    push(piece) {
      held += piece;
      const endsWord = SPACE.test(piece);
      const due = held.length >= 2 * lookedAt || (held.length <= EAGER_HOLD && endsWord);
      if (!due) return '';
      const out = releaseReady();
      lookedAt = held.length;
      return out;
    },
    flush() {
      const out = held ? redactAfter(context.text, held) : '';
      held = '';
      context = NO_CONTEXT;
      lookedAt = 0;
      return out;
    },
  };
}
