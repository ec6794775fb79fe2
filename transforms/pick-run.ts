import type { Transform } from 'node:stream';
import { createRunPicker, type RunPick } from '../lib/logs/replay.js';
import { stepStream } from '../lib/streams.js';

/** LogItems → `{ value, lineNo }` of one run of a log (the one asked for, else the first); `pick` tells which, and how it ended. */
export function pickRun(runId?: string): { stream: Transform; pick: RunPick } {
  const picker = createRunPicker(runId);
  return { stream: stepStream(picker), pick: picker.pick };
}
