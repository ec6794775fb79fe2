import type { Transform } from 'node:stream';
import { serializeStep, type OutputFormat, type ProgressWriter } from '../lib/output/serializer.js';
import { stepStream } from '../lib/streams.js';
import { guardStep } from '../lib/output/event-guard.js';

export { OUTPUT_FORMATS, type OutputFormat } from '../lib/output/serializer.js';

export type SerializeOptions = {
  /** Where the `text` format writes its progress lines (default: process.stderr); a terminal also sees the model's reasoning. */
  stderr?: ProgressWriter;
};

/** event → string: one JSON line for `stream-json` and `json`; the assistant's text for `text`. */
export function serialize(format: OutputFormat = 'stream-json', options: SerializeOptions = {}): Transform {
  return stepStream(guardStep('serialize', serializeStep(format, options.stderr ?? process.stderr)), { readableObjectMode: false });
}
