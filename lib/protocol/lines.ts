import { isAscii } from 'node:buffer';
import { UsageError } from '../errors.js';
import type { Emit, Step } from '../streams.js';
import type { Line } from './types.js';

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export type LineOptions = { maxLineBytes?: number; label?: string };

export type LineFramerOptions = LineOptions & {
  /**
   * Give each line's exact bytes too (`Line.bytes`), for a byte-identical copy of a line that is not valid UTF-8;
   * `'lossy'`: only for a line whose text holds U+FFFD (any other line's text encodes back to its bytes exactly).
   */
  keepBytes?: boolean | 'lossy';
  /** The number of the first line (default 1). Past 1 the bytes continue an input, so a BOM at their start is content. */
  firstLineNo?: number;
  /** Instead of failing at a line over the limit: told of it, and the line is skipped (never held whole) and counted. */
  onLineTooLong?: (error: UsageError) => void;
};

export function lineTooLong(lineNo: number, maxBytes: number, label = 'stream-json input'): UsageError {
  return new UsageError(`Invalid ${label} at line ${lineNo}: the line is longer than ${maxBytes} bytes (--max-line-bytes).`);
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const NO_BYTES = Buffer.alloc(0);
/** A byte past ASCII, in text read as Latin-1. */
const PAST_ASCII = /[\x80-\xff]/g;

export const toBytes = (chunk: Buffer | string): Buffer => (typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);

/**
 * Where a scanner hands on what it found. `piece`: a run of one line's bytes,
 * `ended` when the line's `\n` (not included) follows them. `lines`, if given,
 * takes the whole lines after a chunk's first `\n` at once: `bytes[from, to)`,
 * separated by `\n` (the one at `to` not included); else they come as pieces.
 */
export type LineSink = {
  piece(bytes: Buffer, ended: boolean): void;
  lines?(bytes: Buffer, from: number, to: number): void;
};

/** The lines of `bytes[from, to)`, separated by `\n`, each as an ended piece. */
function piecesOf(bytes: Buffer, from: number, to: number, piece: LineSink['piece']): void {
  for (let at = bytes.indexOf(NEWLINE, from); at !== -1 && at < to; at = bytes.indexOf(NEWLINE, from)) {
    piece(bytes.subarray(from, at), true);
    from = at + 1;
  }
  piece(bytes.subarray(from, to), true);
}

/**
 * The line ends of a byte stream, each byte searched once: a chunk goes out as
 * the end of the unfinished line, its whole lines, and the start of the next
 * one, as views of the chunk (no copy). A UTF-8 BOM at the very start is
 * dropped, even one split across chunks.
 */
export function createLineScanner({ dropBom = true } = {}) {
  /** The first bytes while they may still be a BOM; undefined once past it. */
  let start: Buffer | undefined = dropBom ? NO_BYTES : undefined;
  const pastBom = (chunk: Buffer): Buffer => {
    const bytes = start!.length ? Buffer.concat([start!, chunk]) : chunk;
    const prefix = Math.min(bytes.length, BOM.length);
    const maybeBom = bytes.subarray(0, prefix).equals(BOM.subarray(0, prefix));
    start = maybeBom && bytes.length < BOM.length ? bytes : undefined;
    if (start) return NO_BYTES;
    return maybeBom ? bytes.subarray(BOM.length) : bytes;
  };
  return {
    write(chunk: Buffer | string, sink: LineSink): void {
      const bytes = start ? pastBom(toBytes(chunk)) : toBytes(chunk);
      const first = bytes.indexOf(NEWLINE);
      if (first === -1) {
        if (bytes.length) sink.piece(bytes, false);
        return;
      }
      sink.piece(bytes.subarray(0, first), true);
      const last = bytes.lastIndexOf(NEWLINE);
      if (last > first) {
        if (sink.lines) sink.lines(bytes, first + 1, last);
        else piecesOf(bytes, first + 1, last, sink.piece);
      }
      if (last + 1 < bytes.length) sink.piece(bytes.subarray(last + 1), false);
    },
    end(sink: LineSink): void {
      if (start?.length) sink.piece(start, false);
      start = undefined;
    },
  };
}

/**
 * Pieces → lines, by the rules of docs/protocol.md §1: physical lines numbered
 * from 1, blank ones counted but not given, a trailing `\r` dropped, each line
 * decoded from UTF-8 whole. The pieces of an unfinished line are kept as they
 * came and joined once, when it ends; one passing the limit fails at once.
 */
export function createLineAssembler(options: LineFramerOptions = {}) {
  const { label, onLineTooLong } = options;
  const keepBytes = options.keepBytes ?? false;
  const maxBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let lineNo = (options.firstLineNo ?? 1) - 1;
  let pieces: Buffer[] = [];
  let pendingBytes = 0;
  /** The rest of a line over the limit, already reported, is being dropped. */
  let skipping = false;

  const reject = (number: number) => {
    const error = lineTooLong(number, maxBytes, label);
    if (!onLineTooLong) throw error;
    onLineTooLong(error);
  };
  /** The next line, without its line ending: `size` is its length in bytes, `bytes` given only if asked for. */
  const accept = (line: string, size: number, bytes: Buffer | undefined, emit: Emit<Line>) => {
    lineNo += 1;
    if (size > maxBytes) return reject(lineNo);
    if (line.trim() === '') return;
    emit(bytes ? { line, lineNo, bytes } : { line, lineNo });
  };
  const finish = (bytes: Buffer, emit: Emit<Line>) => {
    const content = bytes[bytes.length - 1] === CR ? bytes.subarray(0, -1) : bytes;
    const line = content.toString('utf8');
    accept(line, content.length, keepBytes === true || (keepBytes && line.includes('\uFFFD')) ? content : undefined, emit);
  };
  const joined = (last: Buffer) => {
    const bytes = pieces.length === 0 ? last : Buffer.concat([...pieces, last], pendingBytes + last.length);
    pieces = [];
    pendingBytes = 0;
    return bytes;
  };
  const overflow = () => {
    pieces = [];
    pendingBytes = 0;
    skipping = true;
    reject(lineNo + 1);
  };
  const piece = (bytes: Buffer, ended: boolean, emit: Emit<Line>) => {
    if (skipping) {
      if (!ended) return;
      skipping = false;
      lineNo += 1;
    } else if (ended) {
      finish(joined(bytes), emit);
    } else if (pendingBytes + bytes.length > maxBytes + 1) {
      // +1: a CR before the newline does not count against the limit.
      overflow();
    } else {
      pieces.push(bytes);
      pendingBytes += bytes.length;
    }
  };

  /**
   * The lines of bytes[from, to) when neither their bytes nor their sizes are wanted: read as Latin-1 (one byte
   * a character, so a line's offsets in the text are its offsets in the bytes), and only the lines with a byte
   * past ASCII decoded again, from their bytes, as UTF-8. An ASCII line is then a one-byte string, which
   * JSON.parse and JSON.stringify read faster than the two-byte string one em dash anywhere in the chunk makes
   * of all of it when it is decoded whole. The text is the same: ASCII is UTF-8.
   */
  const asciiFirst = (bytes: Buffer, from: number, to: number, emit: Emit<Line>) => {
    const text = bytes.toString('latin1', from, to);
    // most chunks are all ASCII: one native check of their bytes, not a regex over their text
    PAST_ASCII.lastIndex = 0;
    let nextWide = isAscii(bytes.subarray(from, to)) || !PAST_ASCII.test(text) ? Infinity : PAST_ASCII.lastIndex - 1;
    let at = 0;
    for (const raw of text.split('\n')) {
      const end = at + raw.length;
      let line = raw;
      if (nextWide < end) {
        line = bytes.toString('utf8', from + at, from + end);
        PAST_ASCII.lastIndex = end;
        nextWide = PAST_ASCII.test(text) ? PAST_ASCII.lastIndex - 1 : Infinity;
      }
      accept(line.charCodeAt(line.length - 1) === CR ? line.slice(0, -1) : line, 0, undefined, emit);
      at = end + 1;
    }
  };

  return {
    piece,
    /**
     * Whole lines decoded at once and split, not one by one (a third of the
     * time on short lines): the same text, since no UTF-8 sequence spans a `\n`.
     * Sizes are counted only when needed, from the text if decoding was exact.
     * The scanner calls it right after an ended piece: no line is unfinished.
     */
    lines(bytes: Buffer, from: number, to: number, emit: Emit<Line>) {
      if (keepBytes === false && to - from <= maxBytes) return asciiFirst(bytes, from, to, emit);
      const text = bytes.toString('utf8', from, to);
      const bytePerChar = text.length === to - from;
      const lossy = (keepBytes !== false || to - from > maxBytes) && text.includes('\uFFFD');
      if (lossy && !bytePerChar) return piecesOf(bytes, from, to, (line) => finish(line, emit));
      // keepBytes 'lossy' and no U+FFFD here: no line needs its bytes
      const sliced = keepBytes === true || (keepBytes === 'lossy' && lossy);
      const sized = sliced || to - from > maxBytes;
      let at = from;
      for (const raw of text.split('\n')) {
        const line = raw.charCodeAt(raw.length - 1) === CR ? raw.slice(0, -1) : raw;
        const size = !sized ? 0 : bytePerChar ? line.length : Buffer.byteLength(line);
        accept(line, size, sliced ? bytes.subarray(at, at + size) : undefined, emit);
        if (sliced) at += size + raw.length - line.length + 1;
      }
    },
    /** The last line, if it had no `\n`. */
    end(emit: Emit<Line>): void {
      if (pendingBytes > 0) finish(joined(NO_BYTES), emit);
      skipping = false;
    },
  };
}

/**
 * bytes → `{ line, lineNo }` (docs/protocol.md §1), linear in the input: each
 * byte is searched for `\n` once, and an unfinished line is joined once.
 */
export function createLineFramer(options: LineFramerOptions = {}): Required<Step<Buffer | string, Line>> {
  const scanner = createLineScanner({ dropBom: (options.firstLineNo ?? 1) === 1 });
  const lines = createLineAssembler(options);
  const sinkOf = (emit: Emit<Line>): LineSink => ({
    piece: (bytes, ended) => lines.piece(bytes, ended, emit),
    lines: (bytes, from, to) => lines.lines(bytes, from, to, emit),
  });
  return {
    write(chunk, emit) {
      scanner.write(chunk, sinkOf(emit));
    },
    end(emit) {
      scanner.end(sinkOf(emit));
      lines.end(emit);
    },
  };
}
