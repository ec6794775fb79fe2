import type { Transform } from 'node:stream';
import { createSerializer, type OutputFormat, type ProgressWriter } from '../lib/output/serializer.js';
import type { OutputEvent } from '../lib/protocol/types.js';
import { mapStream } from '../lib/streams.js';

export { OUTPUT_FORMATS, type OutputFormat } from '../lib/output/serializer.js';

export type SerializeOptions = {
  /** Where the `text` format writes its progress lines (default: process.stderr); a terminal also sees the model's reasoning. */
  stderr?: ProgressWriter;
};

/** event → string: one JSON line for `stream-json` and `json`; the assistant's text for `text`. */
export function serialize(format: OutputFormat = 'stream-json', options: SerializeOptions = {}): Transform {
  const write = createSerializer(format, options.stderr ?? process.stderr);
  return mapStream((event: OutputEvent) => write(event) || undefined, { readableObjectMode: false });
}
