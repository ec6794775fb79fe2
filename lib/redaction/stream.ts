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

/** Released text kept as the left context of the next release: a name before its keyword, lookbehinds, line starts. */
const CONTEXT_CHARS = 256;
/**
 * Up to this much held text, every piece is looked at; beyond, only when the
 * held text has doubled since the last look. Each look costs time linear in
 * what is held, so a long hold (an open PEM block, a long token) arriving in
 * one-character pieces still costs linear time overall.
 */
const EAGER_HOLD = 512;

export type StreamRedactor = {
  /** A raw piece in; what can be released now, redacted ('' while everything is held back). */
  push(piece: string): string;
  /** Everything still held back, redacted: before a non-text event, and at the end. */
  flush(): string;
};

/** `raw` redacted as it reads after `context`: lookbehinds and line starts see what they would in the whole text. */
function redactAfter(context: string, raw: string, options: RedactOptions): string {
  const withContext = redactText(context + raw, options);
  const contextAlone = redactText(context, options);
  return withContext.startsWith(contextAlone) ? withContext.slice(contextAlone.length) : redactText(raw, options);
}

export function createStreamRedactor(options: RedactOptions = {}): StreamRedactor {
  const longestSecret = Math.max(0, ...prepareSecrets(options.secrets).map((secret) => secret.length));
  let held = '';
  let context = '';
  let lookedAt = 0;

  const release = (raw: string): string => {
    const out = redactAfter(context, raw, options);
    context = (context + raw).slice(-CONTEXT_CHARS);
    return out;
  };

  /** Whether releasing held[0, cut) now gives the same text as redacting everything held at once. */
  const cutsCleanly = (cut: number): boolean => {
    const ready = held.slice(0, cut);
    const whole = redactAfter(context, held, options);
    return whole === redactAfter(context, ready, options) + redactAfter((context + ready).slice(-CONTEXT_CHARS), held.slice(cut), options);
  };

  /** What is held, up to where a match could still begin, redacted. */
  const releaseReady = (): string => {
    const window = context + held;
    const suspicious = mayContainSecret(window, options);
    let cut = holdFrom(window, suspicious, longestSecret) - context.length;
    // A complete match that the cut would split: hold it all (released at the next clean cut or flush).
    if (suspicious && cut > 0 && cut < held.length && !cutsCleanly(cut)) cut = 0;
    if (cut <= 0) return '';
    const ready = held.slice(0, cut);
    held = held.slice(cut);
    if (suspicious) return release(ready);
    // Nothing in view can be a secret: what is ready goes out as it came.
    context = (context + ready).slice(-CONTEXT_CHARS);
    return ready;
  };

  return {
    push(piece) {
      held += piece;
      if (held.length > EAGER_HOLD && held.length < 2 * lookedAt) return '';
      const out = releaseReady();
      lookedAt = held.length;
      return out;
    },
    flush() {
      const rest = held;
      held = '';
      lookedAt = 0;
      const out = rest ? release(rest) : '';
      context = '';
      return out;
    },
  };
}
