import type { Transform } from 'node:stream';
import type { Event } from '../lib/protocol/types.js';
import { createEventRedactor } from '../lib/redaction/events.js';
import { flatMapStream } from '../lib/streams.js';

export type RedactOptions = {
  /** Exact values of the credentials this process loaded: redacted wherever they appear. */
  secrets?: string[];
};

/**
 * event → the same event with every secret replaced by `[REDACTED]` (docs/protocol.md §4).
 * Text deltas may be held back and re-split, so a secret split across them cannot leak.
 */
export function redact(options: RedactOptions = {}): Transform {
  const redactor = createEventRedactor(options);
  return flatMapStream((event: Event) => redactor.event(event), { flush: () => redactor.end() });
}
