import type { OutputEvent } from '../protocol/types.js';
import { hasLegacyLine, toLegacyJson } from './json.js';
import { emitJsonLine } from './json-parts.js';
import { createTextRenderer } from './text.js';
import { mapStep, type Step } from '../streams.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];

/** One JSON line: how stream-json writes every event. */
export const jsonLine = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** Where the `text` format writes progress: a terminal (`isTTY`) also sees the model's reasoning. */
export type ProgressWriter = {
  write(text: string): unknown;
  isTTY?: boolean;
  /** Escape codes for colour (default: a terminal, unless NO_COLOR). */
  color?: boolean;
  /** The terminal's width: progress lines are cut to it. */
  columns?: number;
  /**
   * Progress that belongs after the first `stdoutBytes` bytes of the answer: a writer that shares a screen with
   * stdout holds it back until they are written (else it would overtake text still on its way through the chain).
   */
  writeAfter?(text: string, stdoutBytes: number): unknown;
  /** What the run now waits for (a model reply, a tool), for a writer that shows a spinner. */
  busy?(what: string): void;
  /** At the end, the run's session and how to continue it (zero exec, on a terminal). */
  sessionHint?: boolean;
};

/** NO_COLOR (no-color.org): set and not empty, no escape codes. */
const noColor = () => Boolean(process.env.NO_COLOR);

function textSerializer(stderr: ProgressWriter): (event: OutputEvent) => string {
  const color = stderr.color ?? (stderr.isTTY === true && !noColor());
  const render = createTextRenderer({ reasoning: stderr.isTTY ? (color ? 'dim' : 'plain') : undefined, color, columns: stderr.columns, sessionHint: stderr.sessionHint });
  let stdoutBytes = 0;
  return (event) => {
    const { stdout = '', stderr: progress, busy } = render(event);
    stdoutBytes += Buffer.byteLength(stdout);
    if (progress) (stderr.writeAfter ? stderr.writeAfter(progress, stdoutBytes) : stderr.write(progress));
    if (busy) stderr.busy?.(busy);
    return stdout;
  };
}

/** What a JSON format writes a line of for an event: the event (stream-json), its older form (json), or nothing. */
function jsonShown(format: Exclude<OutputFormat, 'text'>): (event: OutputEvent) => object | undefined {
  if (format === 'stream-json') return (event) => event;
  return (event) => (hasLegacyLine(event) ? toLegacyJson(event) : undefined);
}

/**
 * event → what the format writes on stdout ('' for nothing): one JSON line for
 * `stream-json` and `json`, the assistant's text for `text` (whose progress
 * lines go to `stderr`). The serialize stage and `zero sessions show` use it.
 */
export function createSerializer(format: OutputFormat, stderr: ProgressWriter): (event: OutputEvent) => string {
  if (format === 'text') return textSerializer(stderr);
  const shown = jsonShown(format);
  return (event) => {
    const value = shown(event);
    return value ? jsonLine(value) : '';
  };
}

/**
 * The serialize stage's step: each event as the format writes it on stdout (nothing for an event it does not show).
 * A JSON line is emitted in parts (lib/output/json-parts.ts): a huge answer's `final` is never one string, and a
 * spooled one's parts are pulled as they are read (an Iterable, lib/streams.ts).
 */
export function serializeStep(format: OutputFormat, stderr: ProgressWriter): Step<OutputEvent, string | Iterable<string>> {
  if (format === 'text') {
    const write = textSerializer(stderr);
    return mapStep((event) => write(event) || undefined);
  }
  const shown = jsonShown(format);
  return {
    write(event, emit) {
      const value = shown(event);
      if (value) emitJsonLine(value, emit);
    },
  };
}
