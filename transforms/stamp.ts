import type { Transform } from 'node:stream';
import { newRunId } from '../lib/protocol/ids.js';
import { stampEvent } from '../lib/protocol/stamp.js';
import type { Event } from '../lib/protocol/types.js';
import { mapStream } from '../lib/streams.js';

/** event → event + `schemaVersion`, `runId` (one run id per stage: one stage per run). */
export function stamp(options: { runId?: string } = {}): Transform {
  const runId = options.runId ?? newRunId();
  return mapStream((event: Event) => stampEvent(event, runId));
}
