import { Readable } from 'node:stream';
import { createLogSerializer } from '../logs/serialize.js';
import { listSessions, openSession, readEvents, sessionsRoot, type SessionMetadata } from '../sessions/index.js';
import { ranIn } from '../sessions/launch.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../output/serializer.js';
import { choice, positiveInteger } from './option-values.js';
import { resolve } from 'node:path';
import type { CliIO } from './io.js';
import { logRedaction, runCommand } from './command.js';
import { redactEvent, redactOutbound } from '../redaction/index.js';
import { visible } from '../output/visible.js';

/**
 * `zero sessions list`: newest first, as a table or one JSON object per session. `none` says why there are none
 * in the table: `cwd`, the directory asked for, and how many sessions there are elsewhere.
 */
export function formatSessionList(sessions: SessionMetadata[], format: OutputFormat, none: { cwd?: string; elsewhere?: number } = {}): string {
  if (format !== 'text') {
    return sessions
      .map(({ id, updatedAt, cwd, title, tags, eventCount, parentId }) =>
        JSON.stringify(format === 'json' ? { type: 'session', id, updated_at: updatedAt, cwd, title, tags, events: eventCount, parent_id: parentId } : { type: 'session', id, updatedAt, cwd, title, tags, events: eventCount, parentId }),
      )
      .map((line) => `${line}\n`)
      .join('');
  }
  if (sessions.length === 0 && none.cwd !== undefined) {
    const others = none.elsewhere ? ` (${none.elsewhere} elsewhere: zero sessions list shows them)` : '';
    return `No sessions for ${none.cwd}${others}.\n`;
  }
  if (sessions.length === 0) return 'No Zero sessions yet.\n';
  const forkOf = (s: SessionMetadata) => (s.parentId ? `  (fork of ${s.parentId})` : '');
  const tagged = (s: SessionMetadata) => (s.tags?.length ? `  [${s.tags.join(', ')}]` : '');
  return sessions.map((s) => visible(`${s.id}  ${s.updatedAt}  ${String(s.eventCount).padStart(5)} events  ${s.cwd}  ${s.title}${tagged(s)}${forkOf(s)}`) + '\n').join('');
}

export type RawListOptions = { outputFormat: string; limit?: string; cwd?: string };

/** The store's sessions, listed in the format: those of --cwd DIR only, the newest --limit N. */
async function sessionList(format: OutputFormat, raw: RawListOptions, io: CliIO): Promise<Readable> {
  const limit = positiveInteger('--limit', raw.limit);
  const cwd = raw.cwd === undefined ? undefined : resolve(raw.cwd);
  const redaction = await logRedaction(io);
  const all = await listSessions(sessionsRoot(io.env));
  const here = all.filter((metadata) => cwd === undefined || ranIn(metadata, cwd));
  const sessions = here.slice(0, limit).map((metadata) => redactOutbound(metadata, redaction));
  return Readable.from([formatSessionList(sessions, format, { cwd: cwd === undefined ? undefined : redactOutbound(cwd, redaction), elsewhere: all.length - here.length })]);
}

/**
 * The session's events, streamed from its file in the chosen format (as zero exec printed them, a conversation's
 * user turns included: lib/logs/serialize.ts), redacted again (stored data is input like any other).
 */
async function sessionEvents(id: string, format: OutputFormat, io: CliIO): Promise<Readable> {
  const session = await openSession(sessionsRoot(io.env), id);
  const render = createLogSerializer(format, io.stderr);
  const redaction = await logRedaction(io);
  return Readable.from(
    (async function* () {
      const onDamaged = (message: string) => void io.stderr.write(redactOutbound(`[zero] WARNING: ${message} That line was skipped.\n`, redaction));
      for await (const event of readEvents(session, { onDamaged })) {
        const text = render(redactEvent(event, redaction));
        if (text) yield text;
      }
    })(),
  );
}

/**
 * A sessions command: a bad format or an unknown session is a usage error, said on stderr whatever the format
 * (stdout carries sessions or their events, never a made-up run).
 */
export function guarded(io: CliIO, rawFormat: string, output: (format: OutputFormat) => Promise<Readable>): Promise<void> {
  return runCommand(io, 'text', async () => ({ readable: await output(choice('--output-format', rawFormat, OUTPUT_FORMATS)), exitCode: Promise.resolve(0) }));
}

/** `zero sessions list`: newest first, as a table or one JSON object per session. */
export const runSessionsList = (raw: RawListOptions, io: CliIO) => guarded(io, raw.outputFormat, (format) => sessionList(format, raw, io));

/** `zero sessions show ID`: the session's events as zero exec printed them. */
export const runSessionsShow = (id: string, raw: { outputFormat: string }, io: CliIO) => guarded(io, raw.outputFormat, (format) => sessionEvents(id, format, io));
