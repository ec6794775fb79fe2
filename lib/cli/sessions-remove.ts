import { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { jsonLine, type OutputFormat } from '../output/serializer.js';
import { openSession, pruneSessions, removeSession, sessionsRoot } from '../sessions/index.js';
import type { CliIO } from './io.js';
import { guarded } from './sessions.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Each removed session: its id on a line (text), or `{type: "removed", id}` (json, stream-json). */
const removedLines = (ids: string[], format: OutputFormat) => ids.map((id) => (format === 'text' ? `removed ${id}\n` : jsonLine({ type: 'removed', id }))).join('');

/** `zero sessions rm ID...`: each session's folder deleted; an unknown or running one is a usage error before any is. */
export const runSessionsRemove = (ids: string[], raw: { outputFormat: string }, io: CliIO) =>
  guarded(io, raw.outputFormat, async (format) => {
    const root = sessionsRoot(io.env);
    for (const id of ids) await openSession(root, id);
    for (const id of ids) await removeSession(root, id);
    return Readable.from([removedLines(ids, format)]);
  });

function days(value: string): number {
  const number = Number(value);
  if (!/^\s*\d*\.?\d+\s*$/.test(value) || !(number >= 0)) throw new UsageError(`Invalid value for --older-than: "${value}". Expected a number of days (0 or more).`);
  return number;
}

/** `zero sessions prune --older-than DAYS`: the sessions not updated for that long, removed; those a run holds are left, with a warning. */
export const runSessionsPrune = (raw: { outputFormat: string; olderThan: string }, io: CliIO) =>
  guarded(io, raw.outputFormat, async (format) => {
    const before = new Date(Date.now() - days(raw.olderThan) * DAY_MS);
    const { removed, inUse } = await pruneSessions(sessionsRoot(io.env), before);
    for (const id of inUse) io.stderr.write(`[zero] WARNING: session ${id} is in use by a run: left in place.\n`);
    return Readable.from([removedLines(removed, format)]);
  });
