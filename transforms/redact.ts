import type { Transform } from 'node:stream';
import type { Event } from '../lib/protocol/types.js';
import { redactEvent } from '../lib/redaction/index.js';
import { mapStream } from '../lib/streams.js';

export type RedactOptions = {
  /** Exact values of the credentials this process loaded: redacted wherever they appear. */
  secrets?: string[];
};

/** event → the same event with every secret replaced by `[REDACTED]` (PROTOCOL §4). */
export function redact(options: RedactOptions = {}): Transform {
  return mapStream((event: Event) => redactEvent(event, options));
}
