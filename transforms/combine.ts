import type { Transform } from 'node:stream';
import { combineStep } from '../lib/protocol/combine.js';
import { stepStream } from '../lib/streams.js';

/** Input events → one `{ prompt, images? }`, at the end of the input: nothing reaches the model unless the whole input was valid. */
export function combine(): Transform {
  return stepStream(combineStep());
}
