import type { Transform } from 'node:stream';
import { redactStep } from '../lib/redaction/events.js';
import { stepStream } from '../lib/streams.js';
import { guardStep } from '../lib/output/event-guard.js';
import { checkOptions, REDACTION } from '../lib/options.js';

export type RedactOptions = {
  /** Exact values of the credentials this process loaded: redacted wherever they appear. */
  secrets?: string[];
};

/**
 * event → the same event with every secret replaced by `[REDACTED]` (docs/protocol.md §4).
 * Text and reasoning deltas may be held back and re-split, so a secret split across them cannot leak.
 */
export function redact(options: RedactOptions = {}): Transform {
  return stepStream(guardStep('redact', redactStep(checkOptions('redact', options, REDACTION))));
}
