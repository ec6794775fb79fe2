import type { OutputEvent } from '../protocol/types.js';
import { hasLegacyLine, toLegacyJson } from './json.js';
import { createTextRenderer } from './text.js';
import type { Step } from '../streams.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];

/** One JSON line: how stream-json writes every event. */
export const jsonLine = (value: unknown): string => `${JSON.stringify(value)}\n`;

/**
 * event → what the format writes on stdout ('' for nothing): one JSON line for
 * `stream-json` and `json`, the assistant's text for `text` (whose progress
 * lines go to `stderr`). The serialize stage and `zero sessions show` use it.
 */
/** Where the `text` format writes progress: a terminal (`isTTY`) also sees the model's reasoning. */
export type ProgressWriter = { write(text: string): unknown; isTTY?: boolean };

/** NO_COLOR (no-color.org): set and not empty, no escape codes. */
const noColor = () => Boolean(process.env.NO_COLOR);

export function createSerializer(format: OutputFormat, stderr: ProgressWriter): (event: OutputEvent) => string {
  if (format === 'stream-json') return jsonLine;
  if (format === 'json') return (event) => (hasLegacyLine(event) ? jsonLine(toLegacyJson(event)) : '');
  const render = createTextRenderer({ reasoning: stderr.isTTY ? (noColor() ? 'plain' : 'dim') : undefined });
  return (event) => {
    const { stdout, stderr: progress } = render(event);
    if (progress) stderr.write(progress);
    return stdout ?? '';
  };
}

/** The serialize stage's step: each event as the format writes it on stdout (nothing for an event it does not show). */
export function serializeStep(format: OutputFormat, stderr: ProgressWriter): Step<OutputEvent, string> {
  const write = createSerializer(format, stderr);
  return {
    write(event, emit) {
      const text = write(event);
      if (text) emit(text);
    },
  };
}
