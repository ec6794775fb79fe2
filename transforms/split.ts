import split2 from 'split2';
import type { Transform, TransformCallback } from 'node:stream';
import { createLineNumberer, lineTooLong, DEFAULT_MAX_LINE_BYTES, type LineOptions } from '../lib/protocol/lines.js';

/** bytes → `{ line, lineNo }`: split2 framing, with CRLF, BOM, blank lines and the line-length limit of docs/protocol.md §1. */
export function split(options: LineOptions = {}): Transform {
  const maxBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const numberer = createLineNumberer(options);
  const stream = split2(/\n/, (raw: string) => numberer.number(raw), { maxLength: maxBytes, readableObjectMode: true, readableHighWaterMark: 16 });
  // split2 reports an over-long unfinished line as a bare "maximum buffer reached"; name the line instead.
  const transform = stream._transform.bind(stream);
  stream._transform = (chunk: Buffer, encoding: BufferEncoding, callback: TransformCallback) =>
    transform(chunk, encoding, (error?: Error | null) =>
      callback(error?.message === 'maximum buffer reached' ? lineTooLong(numberer.nextLineNo, maxBytes, options.label) : error));
  return stream;
}
