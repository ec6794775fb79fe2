import type { Duplex } from 'node:stream';
import pumpify from 'pumpify';
import type { OutputFormat } from '../transforms/serialize.js';
import { pace } from '../transforms/pace.js';
import type { LogPlaces } from './logs/places.js';
import { checkLogChainOptions, logChain, type LogChainOptions } from './logs/chain.js';
import { aName, aString, aWriter, nonNegativeNumber, oneOf, wholeNumber } from './options.js';
import { OUTPUT_FORMATS, type ProgressWriter } from './output/serializer.js';
import { createRecordedCheck, createReplayRedactor, createRunPicker, endingOnFailure, type RunPick } from './logs/replay.js';
import { createStatsReport, type StatsFormat } from './logs/stats.js';
import { createLogReport, type LogCheckOptions, type LogSummary } from './logs/validate.js';
import { createLogSerializer } from './logs/serialize.js';
import { RENDER_FORMATS, transcriptTitle, type RenderFormat } from './render/format.js';
import { createHtmlRenderer } from './render/html.js';
import { createMarkdownRenderer } from './render/markdown.js';
import { createPlainTextRenderer } from './render/text.js';
import { createTranscript } from './render/transcript.js';
import { stampEvent } from './protocol/stamp.js';
import type { Event, OutputEvent } from './protocol/types.js';
import { composeSteps, mapStep, stepStream } from './streams.js';

export { type LogChainOptions } from './logs/chain.js';
export { redactLogChain } from './logs/redact-chain.js';

/** `zero validate`: frame → schema of each line's version + order rules → the report; `summary()` once it has ended. */
export function validateLogChain(given?: LogChainOptions & Omit<LogCheckOptions, 'redaction' | 'places'>): { chain: Duplex; summary(): LogSummary | undefined } {
  const options = checkLogChainOptions('validateLogChain', given, { kind: oneOf(['input', 'output']), maxProblems: wholeNumber, format: oneOf(['text', 'json']) });
  let report: ReturnType<typeof createLogReport> | undefined;
  const chain = logChain(options, (places) => [(report = createLogReport({ ...options, places }))]);
  return { chain, summary: () => report!.summary() };
}

/** `zero stats`: frame → per-run totals, at the end. */
export function statsChain(given?: LogChainOptions & { format?: StatsFormat }): Duplex {
  const options = checkLogChainOptions('statsChain', given, { format: oneOf(['text', 'json', 'stream-json']) });
  return logChain(options, () => [createStatsReport(options.format, options.redaction)]);
}

export type ReplayChainOptions = LogChainOptions & {
  /** The run to replay (default: the first). */
  runId?: string;
  /** A runId to stamp the events with instead of the recorded one. */
  newRunId?: string;
  /** Milliseconds between events. */
  delay?: number;
  format?: OutputFormat;
  stderr?: ProgressWriter;
};

/**
 * `zero replay`: frame → pick a run → validate(output) → redact (→ restamp) → (pace) → serialize, as exec wrote it;
 * in the text format, a conversation's user turns, how each ended and the permissions decided are shown too.
 */
export function replayChain(given?: ReplayChainOptions): { chain: Duplex; pick: RunPick } {
  const options = checkLogChainOptions('replayChain', given, { runId: aName, newRunId: aName, delay: nonNegativeNumber, format: oneOf(OUTPUT_FORMATS), stderr: aWriter });
  let picker: ReturnType<typeof createRunPicker> | undefined;
  const { newRunId: runId, redaction } = options;
  // a new runId only: each event keeps its own schemaVersion (the stamp stage would write the events in one version)
  const restamped = mapStep((event: OutputEvent) => (runId ? stampEvent<Event>(event, runId, event.schemaVersion) : event));
  const picked = (places: LogPlaces) => [endingOnFailure(composeSteps([(picker = createRunPicker(options.runId, places)), createRecordedCheck(places)]), createReplayRedactor(redaction)), restamped];
  const serializer = mapStep(createLogSerializer(options.format ?? 'stream-json', options.stderr ?? process.stderr));
  if (!options.delay) {
    const chain = logChain(options, (places) => [...picked(places), serializer]);
    return { chain, pick: picker!.pick };
  }
  const chain = new pumpify.obj(logChain(options, picked, true), pace(options.delay), stepStream(serializer, { readableObjectMode: false }));
  return { chain, pick: picker!.pick };
}

const RENDERERS = { markdown: createMarkdownRenderer, html: createHtmlRenderer, text: createPlainTextRenderer } as const;

/** `zero render`: frame → transcript (redacted as it is made) → markdown | html | text, written as the log is read. */
export function renderChain(given?: LogChainOptions & { format?: RenderFormat; source?: string }): Duplex {
  const options = checkLogChainOptions('renderChain', given, { format: oneOf(RENDER_FORMATS), source: aString });
  const render = RENDERERS[options.format ?? 'markdown'];
  return logChain(options, (places) => [createTranscript({ redaction: options.redaction, places }), render({ title: transcriptTitle(options.source) })]);
}
