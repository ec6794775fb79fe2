import type { Transform } from 'node:stream';
import { createLogFramer, type Framing, type LogFramingOptions } from '../lib/logs/framing.js';
import { stepStream } from '../lib/streams.js';

/** bytes → LogItems: the log tools' reader (lines, or JSON values via stream-json), over the split stage's line-framing core. */
export function frame(framing: Framing = 'auto', options: LogFramingOptions = {}): Transform {
  return stepStream(createLogFramer(framing, options), { writableObjectMode: false });
}
