import { open, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { DEFAULT_MAX_LINE_BYTES, createLineFramer } from '../protocol/lines.js';
import { parseLine } from '../protocol/parse.js';
import type { Line } from '../protocol/types.js';
import { applyStep, breather, concatBytes } from '../streams.js';
import { jsonLineParts } from '../output/json-parts.js';
import { NO_FOLLOW, PRIVATE_FILE_MODE, openError } from './folders.js';

/** An event as stored: any JSON object. */
export type StoredEvent = Record<string, unknown>;

const NEWLINE = 0x0a;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/** The most appended in one write: a batch this big (a huge answer's `final`) is written in several. */
const WRITE_BYTES = 1 << 20;

/**
 * Appends events as whole JSON lines (O_APPEND), in one write up to WRITE_BYTES, so a reader or a crash sees each
 * batch's lines whole or a torn last line, never interleaved ones (the session's lock keeps other writers out).
 * A huge line is serialized and written in parts (lib/output/json-parts.ts), never held whole; a spooled final's
 * parts are redacted as they are pulled, so the event loop is let run between them (breather).
 */
export async function appendLines(file: string, events: readonly object[]): Promise<void> {
  if (events.length === 0) return;
  const handle = await open(file, NO_FOLLOW.append, PRIVATE_FILE_MODE).catch((error) => {
    throw openError(file, error);
  });
  const writeAll = async (parts: string[]) => {
    const bytes = concatBytes(parts);
    let offset = 0;
    // a short write (a full disk, a signal) goes on where it stopped
    while (offset < bytes.length) offset += (await handle.write(bytes, offset)).bytesWritten;
  };
  try {
    let parts: string[] = [];
    let length = 0;
    const breathe = breather();
    for (const event of events) {
      for (const part of jsonLineParts(event)) {
        const pause = breathe();
        if (pause) await pause;
        parts.push(part);
        length += part.length;
        if (length < WRITE_BYTES) continue;
        await writeAll(parts);
        [parts, length] = [[], 0];
      }
    }
    await writeAll(parts);
  } finally {
    await handle.close();
  }
}

/** Flushes what was appended to `file` to the disk (fsync), so a power loss keeps it. */
export async function syncJournal(file: string): Promise<void> {
  const handle = await open(file, NO_FOLLOW.append, PRIVATE_FILE_MODE).catch((error) => {
    throw openError(file, error);
  });
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A last line without its newline: the event if it is a whole JSON object, else undefined (torn). */
function parseTail(line: Line, label: string): StoredEvent | undefined {
  try {
    return parseLine(line, label).value as StoredEvent;
  } catch {
    return undefined;
  }
}

export type ReadOptions = {
  label: string;
  maxLineBytes?: number;
  /** A damaged line (not a JSON object, or too long) is skipped and reported here, with its line number. */
  onDamaged?: (message: string) => void;
};

/**
 * Streams the events of a JSONL file line by line (a missing file has none).
 * Framing is the protocol's (lib/protocol/lines): BOM, CRLF, blank lines, the
 * length limit. A last line without its newline that is not a JSON object was torn
 * by a killed writer and is skipped silently; any other damaged line (torn in the
 * middle, garbled, too long) is skipped and reported to onDamaged, so one bad
 * line never makes the rest unreadable.
 */
export async function* readLines(file: string, options: ReadOptions): AsyncGenerator<StoredEvent> {
  const { label } = options;
  const damaged = (error: unknown) => {
    if (!(error instanceof UsageError)) throw error;
    options.onDamaged?.(error.message);
  };
  const framer = createLineFramer({ label, maxLineBytes: options.maxLineBytes, onLineTooLong: damaged });
  const events: StoredEvent[] = [];
  const parse = (line: Line) => {
    try {
      events.push(parseLine(line, label).value as StoredEvent);
    } catch (error) {
      damaged(error);
    }
  };
  let handle: FileHandle;
  try {
    handle = await open(file, NO_FOLLOW.read);
  } catch (error) {
    if (isMissing(error)) return;
    throw openError(file, error);
  }
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false, highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
      framer.write(chunk, parse);
      yield* events.splice(0);
    }
  } finally {
    await handle.close();
  }
  framer.end((line) => {
    const event = parseTail(line, label);
    if (event) events.push(event);
  });
  yield* events;
}

/**
 * Makes a journal safe to append to: a torn last line is cut off (one that is a
 * whole JSON object and lacks only its newline gets it), so the next append does
 * not glue onto it. Returns the number of lines the file then holds. Rewrites
 * nothing else; a missing file is created empty.
 */
export async function repairJournal(file: string, label: string): Promise<number> {
  const handle = await open(file, NO_FOLLOW.readAppend, PRIVATE_FILE_MODE).catch((error) => {
    throw openError(file, error);
  });
  try {
    let lines = 0;
    let lastNewline = -1;
    let position = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false, start: 0, highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) {
        lines += 1;
        lastNewline = position + at;
      }
      position += chunk.length;
    }
    const tailStart = lastNewline + 1;
    if (tailStart === position) return lines;
    const tailBytes = position - tailStart;
    let whole = false;
    if (tailBytes <= DEFAULT_MAX_LINE_BYTES + 1) {
      const tail = Buffer.alloc(tailBytes);
      await handle.read(tail, 0, tailBytes, tailStart);
      // Past the first line, a BOM is not one to drop; a tail too long is torn.
      const framer = createLineFramer({ label, firstLineNo: tailStart > 0 ? 2 : 1, onLineTooLong: () => {} });
      whole = applyStep(framer, [tail]).some((line) => parseTail(line, label) !== undefined);
    }
    if (whole) {
      await handle.write('\n');
      return lines + 1;
    }
    await handle.truncate(tailStart);
    return lines;
  } finally {
    await handle.close();
  }
}
