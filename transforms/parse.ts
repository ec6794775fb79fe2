import type { Transform } from 'node:stream';
import { parseLine } from '../lib/protocol/parse.js';
import type { Line } from '../lib/protocol/types.js';
import { mapStream } from '../lib/streams.js';

/** `{ line, lineNo }` → `{ value, lineNo }`. */
export function parse(options: { label?: string } = {}): Transform {
  return mapStream((line: Line) => parseLine(line, options.label));
}
