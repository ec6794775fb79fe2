import type { Transform } from 'node:stream';
import { parseStep } from '../lib/protocol/parse.js';
import { stepStream } from '../lib/streams.js';
import { aString, checkOptions } from '../lib/options.js';

/** `{ line, lineNo }` → `{ value, lineNo }`. */
export function parse(options: { label?: string } = {}): Transform {
  return stepStream(parseStep(checkOptions('parse', options, { label: aString }).label));
}
