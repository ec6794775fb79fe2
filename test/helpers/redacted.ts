/** Comparing two redactions of one text. */

import { REDACTED } from '../../lib/redaction/rule.js';

/** `shown` is `whole` with as much redacted or more: what it shows, `whole` shows, in the same order. */
export function noMoreShown(shown: string, whole: string): boolean {
  const parts = shown.split(REDACTED);
  const [first, last] = [parts[0]!, parts.at(-1)!];
  if (parts.length === 1) return shown === whole;
  if (!whole.startsWith(first) || !whole.endsWith(last)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = whole.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return at <= whole.length - last.length;
}
