import type { Transform } from 'node:stream';
import { serializeStep, type OutputFormat, type ProgressWriter } from '../lib/output/serializer.js';
import { stepStream } from '../lib/streams.js';
import { guardStep } from '../lib/output/event-guard.js';
import { aWriter, checkOptions, checkValue, oneOf } from '../lib/options.js';
import { OUTPUT_FORMATS } from '../lib/output/serializer.js';

export { OUTPUT_FORMATS, type OutputFormat } from '../lib/output/serializer.js';

export type SerializeOptions = {
  /** Where the `text` format writes its progress lines (default: process.stderr); a terminal also sees the model's reasoning. */
  stderr?: ProgressWriter;
};

/** event → string: one JSON line for `stream-json` and `json`; the assistant's text for `text`. */
export function serialize(format: OutputFormat = 'stream-json', options: SerializeOptions = {}): Transform {
  checkValue('serialize', 'format', format, oneOf(OUTPUT_FORMATS));
  const { stderr = process.stderr } = checkOptions('serialize', options, { stderr: aWriter });
  return stepStream(guardStep('serialize', serializeStep(format, stderr)), { readableObjectMode: false });
}
