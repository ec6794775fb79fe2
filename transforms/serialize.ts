import type { Transform } from 'node:stream';
import { toLegacyJson } from '../lib/output/json.js';
import { createTextRenderer } from '../lib/output/text.js';
import type { OutputEvent } from '../lib/protocol/types.js';
import { mapStream } from '../lib/streams.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];

export type SerializeOptions = {
  /** Where the `text` format writes its progress lines (default: process.stderr). */
  stderr?: { write(text: string): unknown };
};

/** event → string: one JSON line for `stream-json` and `json`; the assistant's text for `text`. */
export function serialize(format: OutputFormat = 'stream-json', options: SerializeOptions = {}): Transform {
  if (format === 'stream-json') return mapStream((event: OutputEvent) => `${JSON.stringify(event)}\n`, { readableObjectMode: false });
  if (format === 'json') return mapStream((event: OutputEvent) => `${JSON.stringify(toLegacyJson(event))}\n`, { readableObjectMode: false });
  const render = createTextRenderer();
  const stderr = options.stderr ?? process.stderr;
  return mapStream(
    (event: OutputEvent) => {
      const { stdout, stderr: progress } = render(event);
      if (progress) stderr.write(progress);
      return stdout || undefined;
    },
    { readableObjectMode: false },
  );
}
