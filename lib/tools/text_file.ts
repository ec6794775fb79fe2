import { createReadStream, read } from 'node:fs';
import { promisify } from 'node:util';
import { chunksOf } from '../files/bounded.js';
import { closeFile, openRegularFile, type OpenFile } from '../files/open.js';
import { createLineScanner, type LineSink } from '../protocol/lines.js';
import { utf8Prefix } from './output.js';

const SNIFF_BYTES = 8192;
const readFd = promisify(read);
const CR = 0x0d;

/** Bytes are taken as binary when their first 8 KiB hold a NUL byte. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}

/** Whether the open file is binary (looksBinary of its first 8 KiB). */
export async function isBinaryFile(fd: number): Promise<boolean> {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await readFd(fd, buffer, 0, SNIFF_BYTES, 0);
  return looksBinary(buffer.subarray(0, bytesRead));
}

/**
 * Opens `path` (named `shownPath` in errors) to read it as text: a regular file (anything else is refused with a
 * NotRegularFileError, see openRegularFile) that is not binary; undefined, the file closed again, when it is binary.
 */
export async function openTextFile(path: string, shownPath: string): Promise<OpenFile | undefined> {
  const file = await openRegularFile(path, shownPath);
  let binary = true;
  try {
    binary = await isBinaryFile(file.fd);
  } finally {
    if (binary) await closeFile(file.fd);
  }
  return binary ? undefined : file;
}

/** One line of a text file, without its line ending; `cut` when it was longer than the limit and `text` is its start. */
export type TextLine = { text: string; cut: boolean };

/**
 * The lines of an open regular file from its start (LF or CRLF endings), each at most `maxLineBytes` long: a
 * longer line is given cut, as soon as it passes the limit, and the rest of it is skipped unread into memory,
 * so memory stays within the limit and a chunk whatever the file holds. The iteration owns `fd` and closes it
 * however it ends; aborting `signal` makes it throw.
 */
export async function* readLines(fd: number, { maxLineBytes, signal }: { maxLineBytes: number; signal?: AbortSignal }): AsyncGenerator<TextLine> {
  const cutter = lineCutter(maxLineBytes);
  for await (const chunk of chunksOf(createReadStream('', { fd, start: 0, highWaterMark: 64 * 1024 }), { signal })) yield* cutter.write(chunk);
  yield* cutter.end();
}

/** Bytes → lines, holding at most one line's first `maxLineBytes` (+1 for a CR). */
function lineCutter(maxLineBytes: number) {
  let pieces: Buffer[] = [];
  let held = 0;
  /** The line being read was given cut already: the rest of it is dropped. */
  let skipping = false;
  let ready: TextLine[] = [];
  const scanner = createLineScanner({ dropBom: false });

  const give = (cut: boolean) => {
    let bytes = Buffer.concat(pieces, held);
    if (!cut && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, -1);
    const over = bytes.length > maxLineBytes;
    ready.push({ text: utf8Prefix(bytes, maxLineBytes).toString('utf8'), cut: cut || over });
    pieces = [];
    held = 0;
  };
  const sink: LineSink = {
    piece(bytes, ended) {
      if (!skipping) {
        // +1: a CR before the newline does not count against the limit.
        const room = maxLineBytes + 1 - held;
        pieces.push(bytes.length > room ? bytes.subarray(0, room) : bytes);
        held += Math.min(bytes.length, room);
        if (bytes.length > room) {
          give(true);
          skipping = true;
        } else if (ended) {
          give(false);
        }
      }
      if (ended) skipping = false;
    },
    /**
     * The whole lines of a chunk at once (the scanner calls it right after an ended piece): decoded together and
     * split, which is the same text, since no UTF-8 sequence spans a `\n`, and far fewer copies than line by line.
     */
    lines(bytes, from, to) {
      const short = to - from <= maxLineBytes;
      for (const raw of bytes.toString('utf8', from, to).split('\n')) {
        const text = raw.charCodeAt(raw.length - 1) === CR ? raw.slice(0, -1) : raw;
        // A line's UTF-8 bytes are at most three per UTF-16 unit: only a long one needs counting.
        if (short || text.length * 3 <= maxLineBytes || Buffer.byteLength(text) <= maxLineBytes) ready.push({ text, cut: false });
        else ready.push({ text: utf8Prefix(Buffer.from(text), maxLineBytes).toString('utf8'), cut: true });
      }
    },
  };
  const taken = () => {
    const lines = ready;
    ready = [];
    return lines;
  };
  return {
    write(chunk: Buffer): TextLine[] {
      scanner.write(chunk, sink);
      return taken();
    },
    /** The last line, if it had no line ending. */
    end(): TextLine[] {
      scanner.end(sink);
      if (held > 0 && !skipping) give(false);
      return taken();
    },
  };
}
