import type { Emit, Step } from '../streams.js';

/**
 * Several files read as one log (`zero stats a.jsonl b.jsonl`): each file is framed on its own (its framing chosen
 * by its own first line, its last line ended even without a newline), and the lines are numbered on across the
 * files, so that everything that orders or matches lines sees one log. Where a line is, for a person, is its file
 * and its line there: LogPlaces tells.
 */

/** Written into a log chain before the bytes of each file, when a log is several files. */
export type LogFileStart = { logFile: string };

export const isLogFileStart = (chunk: unknown): chunk is LogFileStart =>
  typeof chunk === 'object' && chunk !== null && !Buffer.isBuffer(chunk) && typeof (chunk as LogFileStart).logFile === 'string';

export type LogPlaces = {
  /** The next file starts at this line of the log. */
  start(file: string, firstLine: number): void;
  /** A line of the log as its file (none when the log is one input) and its line in that file. */
  of(lineNo: number): { file?: string; line: number };
  /** A line as a person names it: `line 3`, or `line 3 of b.jsonl` when the log is several files. */
  label(lineNo: number): string;
};

export function createLogPlaces(): LogPlaces {
  const files: string[] = [];
  const firstLines: number[] = [];
  const of = (lineNo: number) => {
    if (files.length === 0 || lineNo < firstLines[0]!) return { line: lineNo };
    // the last file starting at or before the line
    let low = 0;
    let high = files.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (firstLines[middle]! <= lineNo) low = middle;
      else high = middle - 1;
    }
    return { file: files[low]!, line: lineNo - firstLines[low]! + 1 };
  };
  return {
    start(file, firstLine) {
      files.push(file);
      firstLines.push(firstLine);
    },
    of,
    label(lineNo) {
      const { file, line } = of(lineNo);
      return file === undefined ? `line ${line}` : `line ${line} of ${file}`;
    },
  };
}

const NEWLINE = 0x0a;

function newlines(chunk: Buffer | string): number {
  let count = 0;
  if (typeof chunk === 'string') for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', at + 1)) count += 1;
  else for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) count += 1;
  return count;
}

const endsLine = (chunk: Buffer | string) => (typeof chunk === 'string' ? chunk.endsWith('\n') : chunk[chunk.length - 1] === NEWLINE);

/**
 * bytes (and a LogFileStart before each file of several) → the framer's items, a fresh framer for each file, the
 * items' lineNo counted on across the files. Without a LogFileStart it is the framer as it is.
 */
export function createFilesFramer<Out extends { lineNo: number }>(frame: () => Step<Buffer | string, Out>, places: LogPlaces): Step<Buffer | string | LogFileStart, Out> {
  let framer = frame();
  let started = false;
  /** The lines of the files before this one, and this one's so far (its newlines, and whether its last line is open). */
  let before = 0;
  let ended = 0;
  let open = false;
  let shifted: { emit: Emit<Out>; by: number; shifting: Emit<Out> } | undefined;
  const shift = (emit: Emit<Out>): Emit<Out> => {
    if (before === 0) return emit;
    if (shifted?.emit !== emit || shifted.by !== before) {
      const by = before;
      shifted = { emit, by, shifting: (item) => emit(((item.lineNo += by), item)) };
    }
    return shifted.shifting;
  };
  return {
    write(chunk, emit) {
      if (!isLogFileStart(chunk)) {
        if (started && chunk.length > 0) {
          ended += newlines(chunk);
          open = !endsLine(chunk);
        }
        return framer.write(chunk, shift(emit));
      }
      if (started) {
        framer.end?.(shift(emit));
        framer = frame();
        before += ended + (open ? 1 : 0);
        ended = 0;
        open = false;
      }
      started = true;
      places.start(chunk.logFile, before + 1);
    },
    end(emit) {
      framer.end?.(shift(emit));
    },
  };
}
