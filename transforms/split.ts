import type { Transform } from 'node:stream';
import { createLineFramer, type LineOptions } from '../lib/protocol/lines.js';
import { stepStream } from '../lib/streams.js';
import { checkOptions, LINES } from '../lib/options.js';

/** bytes → `{ line, lineNo }`: CRLF, BOM, blank lines and the line-length limit of docs/protocol.md §1, linear in the bytes. */
export function split(options: LineOptions = {}): Transform {
  return stepStream(createLineFramer(checkOptions('split', options, LINES)), { writableObjectMode: false });
}
