import type { Transform } from 'node:stream';
import { createLogRedactor } from '../lib/logs/redact.js';
import type { RedactOptions } from '../lib/redaction/index.js';
import { stepStream } from '../lib/streams.js';

/** LogItems → the log's lines with every secret redacted (clean lines as they came), one write per chunk. */
export function redactLog(options: RedactOptions = {}): Transform {
  return stepStream(createLogRedactor(options), { readableObjectMode: false });
}
