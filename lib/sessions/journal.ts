import { open, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { DEFAULT_MAX_LINE_BYTES, createLineNumberer, lineTooLong } from '../protocol/lines.js';
import { parseLine } from '../protocol/parse.js';
import { PRIVATE_FILE_MODE } from './folders.js';

/** An event as stored: any JSON object. */
export type StoredEvent = Record<string, unknown>;

const NEWLINE = 0x0a;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/**
 * Appends events as whole JSON lines in one write (O_APPEND), so a reader or a
 * crash sees each batch's lines whole or a torn last line, never interleaved ones.
 */
export async function appendLines(file: string, events: readonly object[]): Promise<void> {
  if (events.length === 0) return;
  const bytes = Buffer.from(events.map((event) => `${JSON.stringify(event)}\n`).join(''), 'utf8');
  const handle = await open(file, 'a', PRIVATE_FILE_MODE);
  try {
    let offset = 0;
    // One write; a short write (a full disk, a signal) goes on where it stopped.
    while (offset < bytes.length) offset += (await handle.write(bytes, offset)).bytesWritten;
  } finally {
    await handle.close();
  }
}

/** Flushes what was appended to `file` to the disk (fsync), so a power loss keeps it. */
export async function syncJournal(file: string): Promise<void> {
  const handle = await open(file, 'a', PRIVATE_FILE_MODE);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

type Numberer = ReturnType<typeof createLineNumberer>;

/** A last line without its newline: the event if it is a whole JSON object, else undefined (torn). */
function parseTail(raw: string, label: string, numberer: Numberer): StoredEvent | undefined {
  try {
    const line = numberer.number(raw);
    return line ? (parseLine(line, label).value as StoredEvent) : undefined;
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
  const maxBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const numberer = createLineNumberer({ label, maxLineBytes: maxBytes });
  const damaged = (error: unknown) => {
    if (!(error instanceof UsageError)) throw error;
    options.onDamaged?.(error.message);
  };
  const parse = (raw: string): StoredEvent | undefined => {
    try {
      const line = numberer.number(raw);
      return line ? (parseLine(line, label).value as StoredEvent) : undefined;
    } catch (error) {
      damaged(error);
      return undefined;
    }
  };
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  // Past the limit, the rest of the line is dropped up to its newline, never held in memory.
  let overlong = false;
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false, highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, end);
        const raw = pendingBytes ? Buffer.concat([...pending, piece]) : piece;
        pending.length = 0;
        pendingBytes = 0;
        start = end + 1;
        if (overlong) {
          overlong = false;
          numberer.number('');
          continue;
        }
        const event = parse(raw.toString('utf8'));
        if (event) yield event;
      }
      if (start < chunk.length && !overlong) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        // +1: a CR before the newline does not count against the limit.
        if (pendingBytes > maxBytes + 1) {
          damaged(lineTooLong(numberer.nextLineNo, maxBytes, label));
          pending.length = 0;
          pendingBytes = 0;
          overlong = true;
        }
      }
    }
  } finally {
    await handle.close();
  }
  if (pendingBytes) {
    const event = parseTail(Buffer.concat(pending).toString('utf8'), label, numberer);
    if (event) yield event;
  }
}

/**
 * Makes a journal safe to append to: a torn last line is cut off (one that is a
 * whole JSON object and lacks only its newline gets it), so the next append does
 * not glue onto it. Returns the number of lines the file then holds. Rewrites
 * nothing else; a missing file is created empty.
 */
export async function repairJournal(file: string, label: string): Promise<number> {
  const handle = await open(file, 'a+', PRIVATE_FILE_MODE);
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
      const numberer = createLineNumberer({ label });
      if (tailStart > 0) numberer.number(''); // not the first line: a BOM here is not one to drop
      whole = parseTail(tail.toString('utf8'), label, numberer) !== undefined;
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
