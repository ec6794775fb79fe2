import type { Duplex } from 'node:stream';
import { createLogFramer, FRAMINGS, type Framing } from './framing.js';
import { checkOptions, oneOf, positiveInteger, REDACTION, type Checks } from '../options.js';
import { createFilesFramer, createLogPlaces, type LogPlaces } from './places.js';
import type { RedactOptions } from '../redaction/index.js';
import { composeSteps, stepStream, type Step } from '../streams.js';

// The log tools' chains (DESIGN: every program is a chain of the same stages): bytes of a log in, bytes out, the framing
// and the steps after it fused in one stream (pace, which waits, apart); only redact writes lines as they came (bytes).
// A log of several files is their bytes, each file's after a LogFileStart ({ logFile: name }): each file is framed
// on its own, and a line is named in its file (lib/logs/places.ts). Each chain is in lib/log-chains.ts but redact's,
// in lib/logs/redact-chain.ts: `zero redact` starts without the others' code (the renderers, the schemas).

export type LogChainOptions = {
  framing?: Framing;
  /** The longest line read (default: the framing's, 16 MiB); a longer one ends the chain with a usage error. */
  maxLineBytes?: number;
  /** What the log's output is redacted with (the credentials in use). */
  redaction?: RedactOptions;
};

/** A log chain's options, those all share and its own (`checks`), checked when `factory` is called. */
export function checkLogChainOptions<T extends LogChainOptions>(factory: string, given: T | undefined, checks: Checks = {}): T {
  const options = checkOptions(factory, given, { framing: oneOf(FRAMINGS), maxLineBytes: positiveInteger, ...checks });
  checkOptions(factory, options.redaction, REDACTION, 'options.redaction');
  return options;
}

/** bytes (and LogFileStarts) → the steps the chain's places are given to (the framing's items first). */
export function logChain(options: LogChainOptions, steps: (places: LogPlaces) => Step<any, any>[], readableObjectMode = false, frame = () => createLogFramer(options.framing, { keepBytes: false, maxLineBytes: options.maxLineBytes }) as Step<Buffer | string, { lineNo: number }>): Duplex {
  const places = createLogPlaces();
  const framer = createFilesFramer(frame, places);
  // bytes are written as objects too, among the LogFileStarts, one chunk buffered as before
  return stepStream(composeSteps([framer, ...steps(places)]), { writableObjectMode: true, writableHighWaterMark: 1, readableObjectMode });
}
