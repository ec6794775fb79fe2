import { StringDecoder } from 'node:string_decoder';
import { isLineTooDeep, TOO_DEEP } from '../protocol/depth.js';
import { DEFAULT_MAX_LINE_BYTES, createLineAssembler, createLineFramer, createLineScanner, lineTooLong, toBytes } from '../protocol/lines.js';
import { parseLine } from '../protocol/parse.js';
import type { Line } from '../protocol/types.js';
import { composeSteps, mapStep, type Emit, type Step } from '../streams.js';
import { createKeptText, createValueReader, TooDeepError, TooLongError } from './value-reader.js';

export { tooLongValue } from './value-reader.js';

export const FRAMINGS = ['lines', 'values', 'auto'] as const;
export type Framing = (typeof FRAMINGS)[number];

/**
 * One item of a log: a JSON value and the physical line where it starts, or a
 * piece of text that is not JSON (kept, so nothing is lost), with its line. The
 * lines framing gives `bytes` too: the line exactly as read, valid UTF-8 or not.
 */
export type LogItem = { lineNo: number; value: unknown; raw?: string; bytes?: Buffer } | { lineNo: number; raw: string; problem: string; bytes?: Buffer };

/** A line of the lines framing not parsed yet (`parse: false`): lineItem makes it a LogItem when its value is needed. */
export type LogLine = { lineNo: number; raw: string; bytes?: Buffer };

export type LogFramer = Step<Buffer | string, LogItem>;
type AnyLogFramer = Step<Buffer | string, LogItem | LogLine>;

export const NOT_JSON = 'not a JSON object';

/** A framed line as a LogItem: its JSON object (the parse stage's parseLine), or the line kept as text with the problem. */
export function lineItem(line: Line | LogLine): LogItem {
  const raw = 'line' in line ? line.line : line.raw;
  const kept = line.bytes ? { raw, bytes: line.bytes } : { raw };
  let value: unknown;
  try {
    value = parseLine({ line: raw, lineNo: line.lineNo }, undefined, { maxDepth: Infinity }).value;
  } catch {
    return { lineNo: line.lineNo, ...kept, problem: NOT_JSON };
  }
  if (isLineTooDeep(raw, value)) return { lineNo: line.lineNo, ...kept, problem: TOO_DEEP };
  return { lineNo: line.lineNo, value, ...kept };
}

/** A line of the lines framing as a LogLine: nothing parsed. */
const logLine = (line: Line): LogLine => (line.bytes ? { lineNo: line.lineNo, raw: line.line, bytes: line.bytes } : { lineNo: line.lineNo, raw: line.line });

/** The limit on a line (lines framing) or on the text of a value (values framing); default 16 MiB. */
export type LogFramingOptions = { maxLineBytes?: number; /** The lines framing's `bytes` (default true); false: for a reader that never writes a line as it came. */ keepBytes?: boolean };

/** Lines framing: the line framer, the lines' bytes kept as asked (not parsing: those of lines holding U+FFFD), then lineItem or logLine. */
const linesFramer = (maxLineBytes: number, keepBytes = true, parse = true): AnyLogFramer =>
  composeSteps([createLineFramer({ keepBytes: parse ? keepBytes : 'lossy', maxLineBytes }), mapStep<Line, LogItem | LogLine>(parse ? lineItem : logLine)]);

/**
 * Values framing: JSON values whatever the line breaks (createValueReader),
 * numbered by the same newline scanning as the lines framing. The text goes in
 * a physical line at a time (a line longer than the limit, in pieces of it), so
 * where the input was cut changes nothing. A value that is not JSON, nests too
 * deep or passes the limit is kept as a problem item, and the lines after the
 * one it broke on are read as lines.
 */
function valuesFramer(maxBytes: number, parse = true): LogFramer {
  const scanner = createLineScanner();
  const decoder = new StringDecoder('utf8');
  const reader = createValueReader(maxBytes);
  const kept = createKeptText(maxBytes);
  let lineNo = 1;
  let pieces: Buffer[] = [];
  let pendingBytes = 0;
  /** After a broken value: the rest of its line is dropped, then lines are read as lines. */
  let rest: { lines: ReturnType<typeof createLineAssembler>; skipping: boolean } | undefined;

  const pending = () => {
    const text = decoder.write(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, pendingBytes));
    pieces = [];
    pendingBytes = 0;
    return text;
  };
  const emitting = (emit: Emit<LogItem>): Emit<LogItem> => (item) => {
    kept.clear();
    emit(item);
  };
  const broken = (error: unknown, emit: Emit<LogItem>, ended: boolean) => {
    // a reader that writes what it reads (zero redact) cannot write a value it could not read whole: it fails, as the lines framing does
    if (error instanceof TooLongError && !parse) throw lineTooLong(reader.start ?? lineNo, maxBytes);
    const { message } = error as Error;
    const problem = error instanceof TooDeepError || error instanceof TooLongError ? message : `not JSON (${message})`;
    emit({ lineNo: reader.start ?? lineNo, raw: kept.text, problem });
    kept.clear();
    rest = { lines: createLineAssembler({ keepBytes: true, maxLineBytes: maxBytes, firstLineNo: lineNo + 1 }), skipping: !ended };
  };
  const feed = (text: string, ended: boolean, emit: Emit<LogItem>) => {
    kept.add(text);
    try {
      reader.write(text, lineNo, emitting(emit));
    } catch (error) {
      broken(error, emit, ended);
    }
  };
  const afterBroken = (bytes: Buffer, ended: boolean, emit: Emit<LogItem>) => {
    if (rest!.skipping) rest!.skipping = !ended;
    else rest!.lines.piece(bytes, ended, (line) => emit(lineItem(line)));
  };
  const piece = (bytes: Buffer, ended: boolean, emit: Emit<LogItem>) => {
    if (rest) return afterBroken(bytes, ended, emit);
    pieces.push(bytes);
    pendingBytes += bytes.length;
    if (ended) {
      feed(`${pending()}${decoder.end()}\n`, true, emit);
      lineNo += 1;
    } else if (pendingBytes > maxBytes) {
      feed(pending(), false, emit);
    }
  };

  return {
    write(chunk, emit) {
      scanner.write(chunk, { piece: (bytes, ended) => piece(bytes, ended, emit) });
    },
    end(emit) {
      scanner.end({ piece: (bytes, ended) => piece(bytes, ended, emit) });
      if (rest) return rest.lines.end((line) => emit(lineItem(line)));
      if (pendingBytes > 0) feed(`${pending()}${decoder.end()}`, true, emit);
      if (rest) return;
      try {
        reader.end(lineNo, emitting(emit));
      } catch (error) {
        broken(error, emit, true);
      }
    },
  };
}

/**
 * Auto's choice, by the first line with content: `[` → values; `{` that is not
 * a whole JSON value on its line (pretty-printed, concatenated, or a line not
 * finished within the limit) → values; else lines.
 */
function choose(firstLine: string, whole: boolean): 'lines' | 'values' {
  const trimmed = firstLine.trim();
  if (trimmed.startsWith('[')) return 'values';
  if (!trimmed.startsWith('{')) return 'lines';
  if (!whole) return 'values';
  try {
    JSON.parse(trimmed);
    return 'lines';
  } catch {
    return 'values';
  }
}

/** Auto: holds the bytes up to the first line with content (or the limit), then hands them to the framing chosen by it. */
function autoFramer(maxBytes: number, keepBytes?: boolean, parse = true): AnyLogFramer {
  let head: Buffer[] = [];
  let headBytes = 0;
  /** Finds the first line with content; let go once the choice is made, with what it holds. */
  let firstLines: ReturnType<typeof createLineFramer> | undefined = createLineFramer({ maxLineBytes: Infinity });
  let first: Line | undefined;
  const found = (line: Line) => void (first ??= line);
  let chosen: AnyLogFramer | undefined;

  const choosing = (framing: 'lines' | 'values', emit: Emit<LogItem | LogLine>) => {
    chosen = framing === 'values' ? valuesFramer(maxBytes, parse) : linesFramer(maxBytes, keepBytes, parse);
    for (const chunk of head) chosen.write(chunk, emit);
    head = [];
    firstLines = undefined;
  };
  return {
    write(chunk, emit) {
      if (chosen) return chosen.write(chunk, emit);
      const bytes = toBytes(chunk);
      head.push(bytes);
      headBytes += bytes.length;
      firstLines!.write(bytes, found);
      if (first) choosing(choose(first.line, true), emit);
      // All lines so far were blank: what starts the unfinished one decides.
      else if (headBytes >= maxBytes) choosing(choose(Buffer.concat(head).toString('utf8'), false), emit);
    },
    end(emit) {
      if (!chosen) {
        firstLines!.end(found);
        choosing(first ? choose(first.line, true) : 'lines', emit);
      }
      chosen!.end?.(emit);
    },
  };
}

/**
 * bytes → LogItems, as a plain step. `lines`: strict JSONL (the split stage's
 * line framer); `values`: a stream of JSON values whatever the line breaks, a
 * top-level array of events included (stream-json); `auto`: picks by the first
 * non-blank character (and, for `{`, by whether the first value ends on its
 * first line).
 */
export function createLogFramer(framing: Framing = 'auto', options: LogFramingOptions = {}): LogFramer {
  return framer(framing, options, true) as LogFramer;
}

/**
 * createLogFramer for a reader that needs the value of some lines only (zero redact writes a clean line as it
 * came): the lines framing gives LogLines, unparsed; the values framing parses anyway.
 */
export function createLogLineFramer(framing: Framing = 'auto', options: LogFramingOptions = {}): AnyLogFramer {
  return framer(framing, options, false);
}

function framer(framing: Framing, options: LogFramingOptions, parse: boolean): AnyLogFramer {
  const maxBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  if (framing === 'lines') return linesFramer(maxBytes, options.keepBytes, parse);
  if (framing === 'values') return valuesFramer(maxBytes, parse);
  return autoFramer(maxBytes, options.keepBytes, parse);
}
