import type { Transform } from 'node:stream';
import type { LogItem } from '../lib/logs/framing.js';
import type { RedactOptions } from '../lib/redaction/index.js';
import { createTranscript, type Piece } from '../lib/render/transcript.js';
import { stepStream } from '../lib/streams.js';

/** LogItems → transcript pieces (a run's heading, turns, tool calls, outcomes), redacted, each as soon as it is whole. */
export function transcript(redaction?: RedactOptions): Transform {
  return stepStream<LogItem, Piece>(createTranscript({ redaction }));
}
