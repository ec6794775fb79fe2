/** Redaction of a stream's released piece as it reads after the text released before it (stream.ts). */

import { decodeSecretEscapes } from './escapes.js';
import { REDACTED } from './rule.js';
import { redactText, type RedactOptions } from './text.js';
import { startsWithText } from '../strings.js';

/**
 * `raw` redacted as it reads after `context`: lookbehinds and line starts see
 * what they would in the whole text. The context's own redaction is
 * remembered: consecutive calls share it. So is the last context and piece's: a stream's look that cuts what it
 * holds redacts the context and all it holds, and the rest after the context the cut leaves, the same text while
 * the context is short. `looked` counts what is redacted (stream.ts charactersScanned).
 */
export function redactorAfter(options: RedactOptions, looked: (text: string) => string): (context: string, raw: string) => string {
  let lastContext = '';
  let lastRedacted = '';
  let lastText = '';
  let lastTextRedacted = '';
  return (context, raw) => {
    const text = context + raw;
    const withContext = text === lastText ? lastTextRedacted : redactText(looked(text), options);
    lastText = text;
    lastTextRedacted = withContext;
    // nothing read after the context is redacted (most windows with a keyword): the context's own redaction is not needed
    if (withContext === text) return raw;
    if (context !== lastContext) {
      lastContext = context;
      lastRedacted = redactText(looked(context), options);
    }
    if (startsWithText(withContext, lastRedacted)) return withContext.slice(lastRedacted.length);
    // redactText decoded an escape in the context (a secret in the whole shows only decoded): the context decoded
    // then, as it was redacted in the whole; `raw` alone could miss a keyword begun in it (`c` + `ookie=…`)
    const decoded = decodeSecretEscapes(context);
    if (decoded !== context) {
      const decodedBefore = redactText(decoded, options);
      const decodedWith = redactText(looked(decoded + raw), options);
      if (startsWithText(decodedWith, decodedBefore)) return decodedWith.slice(decodedBefore.length);
    }
    // a secret begun in the context, whose beginning went out (a credential's last character glued to a word): what
    // the whole text redacts from there on still covers the rest of it, which `raw` alone may be too short to show
    const from = sharedLength(withContext, lastRedacted);
    if (withContext.startsWith(REDACTED, from)) return withContext.slice(from);
    return redactText(looked(raw), options);
  };
}

function sharedLength(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a.charCodeAt(length) === b.charCodeAt(length)) length++;
  return length;
}
