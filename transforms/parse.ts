import type { Transform } from 'node:stream';
import { parseStep } from '../lib/protocol/parse.js';
import { stepStream } from '../lib/streams.js';

/** `{ line, lineNo }` → `{ value, lineNo }`. */
export function parse(options: { label?: string } = {}): Transform {
  return stepStream(parseStep(options.label));
}
