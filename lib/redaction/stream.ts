/**
 * Redaction of text that arrives in pieces (the model's `text` deltas): a
 * secret split across deltas must not leak. What could still grow into a
 * secret is held back; everything else is released at once, redacted. The
 * concatenation of what is released equals redactText(concatenation of what
 * came in).
 */

import { isSensitiveKey } from './keys.js';
import { mayContainSecret, redactText, type RedactOptions } from './text.js';

/** Longest trailing run of token characters held back; a longer run is released. */
export const MAX_RUN_HOLD = 1024;
/** Longest unterminated PEM private-key block held back. */
export const MAX_PEM_HOLD = 16 * 1024;
/** Released text kept as the left context of the next release (lookbehinds, line starts). */
const CONTEXT_CHARS = 64;

/** Words after which a credential may follow a space: `Authorization: Bearer <token>`. */
const SCHEME_WORDS = /^(?:bearer|basic|digest)$/i;
const IDENTIFIER_AT_END = /[A-Za-z0-9_.-]*[A-Za-z0-9_]$/;
const SEPARATOR_AT_END = /[\s"'`]*(?::=|=>|[:=])?[\s"'`]*$/;
const HEADER_LINE = /(?:^|[\s"'])(?:set-)?cookie\s*:/i;
const PEM_FOOTER = /-----END[ A-Z0-9]{0,40}PRIVATE KEY[ A-Z]{0,10}-----/;

/**
 * Where a held-back tail of `text` starts: the trailing run of non-space
 * characters, pulled back over a sensitive key and its separator
 * (`password = `, `"apiKey": "`, `Authorization: Bearer `), a cookie header
 * line, or an unterminated PEM private-key block.
 */
export function holdFrom(text: string, mayHoldSecret = true): number {
  let from = text.length;
  while (from > 0 && !/\s/.test(text[from - 1]!)) from--;
  if (text.length - from > MAX_RUN_HOLD) from = text.length;

  // A PEM header may still be arriving word by word ("-----BEGIN RSA "), before any keyword is in view.
  const pem = text.lastIndexOf('-----BEGIN');
  if (pem >= 0 && !PEM_FOOTER.test(text.slice(pem)) && text.length - pem <= MAX_PEM_HOLD && /^-----BEGIN[ A-Z0-9]*$|PRIVATE/.test(text.slice(pem, pem + 64))) {
    from = Math.min(from, pem);
  }
  // Keys and headers contain a prefilter keyword: without one, nothing more can be waiting for its value.
  if (!mayHoldSecret) return from;

  // Walk back over `key<separator>` pairs; scheme words chain to the header name before them.
  for (let steps = 0; steps < 4; steps++) {
    const before = text.slice(Math.max(0, from - 256), from);
    const separator = SEPARATOR_AT_END.exec(before)?.[0] ?? '';
    const head = before.slice(0, before.length - separator.length);
    const key = IDENTIFIER_AT_END.exec(head)?.[0];
    if (!key) break;
    const assigns = /[:=]/.test(separator);
    if (!(SCHEME_WORDS.test(key) || (assigns && isSensitiveKey(key)))) break;
    from -= separator.length + key.length;
  }

  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  const header = HEADER_LINE.exec(text.slice(lineStart));
  if (header && text.length - lineStart <= MAX_RUN_HOLD) from = Math.min(from, lineStart + header.index);

  return Math.max(0, from);
}

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
  let held = '';
  let context = '';

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

  return {
    push(piece) {
      held += piece;
      const window = context + held;
      const suspicious = mayContainSecret(window, options);
      let cut = holdFrom(window, suspicious) - context.length;
      // A match that the cut would split (a PEM footer still arriving, say): hold it all, up to the cap.
      if (suspicious && cut > 0 && cut < held.length && held.length <= MAX_PEM_HOLD && !cutsCleanly(cut)) cut = 0;
      if (cut <= 0) return '';
      const ready = held.slice(0, cut);
      held = held.slice(cut);
      if (suspicious) return release(ready);
      // Nothing in view can be a secret: what is ready goes out as it came.
      context = (context + ready).slice(-CONTEXT_CHARS);
      return ready;
    },
    flush() {
      const rest = held;
      held = '';
      const out = rest ? release(rest) : '';
      context = '';
      return out;
    },
  };
}
