import type { Transform } from 'node:stream';
import { createLineFramer, type LineOptions } from '../lib/protocol/lines.js';
import { stepStream } from '../lib/streams.js';

/** bytes → `{ line, lineNo }`: CRLF, BOM, blank lines and the line-length limit of docs/protocol.md §1, linear in the bytes. */
export function split(options: LineOptions = {}): Transform {
  return stepStream(createLineFramer(options), { writableObjectMode: false });
}
