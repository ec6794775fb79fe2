import { Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { none, isMany, getManyValues } from 'stream-chain/defs.js';
import jsonParser, { type Token } from 'stream-json/core/parser.js';
import streamValues from 'stream-json/core/streamers/stream-values.js';
import { split } from '../../transforms/split.js';
import { isTooDeep, MAX_JSON_DEPTH, TOO_DEEP } from '../protocol/depth.js';
import { parseLine } from '../protocol/parse.js';
import type { Line } from '../protocol/types.js';
import { DEFAULT_MAX_LINE_BYTES } from '../protocol/lines.js';

export const FRAMINGS = ['lines', 'values', 'auto'] as const;
export type Framing = (typeof FRAMINGS)[number];

/**
 * One item of a log: a JSON value and the physical line where it starts, or a
 * piece of text that is not JSON (kept, so nothing is lost), with its line.
 */
export type LogItem = { lineNo: number; value: unknown; raw?: string } | { lineNo: number; raw: string; problem: string };

export const NOT_JSON = 'not a JSON object';

/** A framed line as a LogItem: its JSON object (the parse stage's parseLine), or the line kept as text with the problem. */
export function lineItem(line: Line): LogItem {
  let value: unknown;
  try {
    value = parseLine(line, undefined, { maxDepth: Infinity }).value;
  } catch {
    return { lineNo: line.lineNo, raw: line.line, problem: NOT_JSON };
  }
  if (isTooDeep(value)) return { lineNo: line.lineNo, raw: line.line, problem: TOO_DEEP };
  return { lineNo: line.lineNo, value, raw: line.line };
}

/** Thrown by the values framing at the first token past MAX_JSON_DEPTH, before the value is assembled. */
class TooDeepError extends Error {}

type Sink = (item: LogItem) => void;

/** What a framing does with text: pieces go in, LogItems come out through the sink. */
interface Framer {
  write(text: string, sink: Sink): Promise<void>;
  end(sink: Sink): Promise<void>;
}

/** Lines framing: the split stage's line numberer and parseLine, driven synchronously. */
function linesFramer(firstLineNo = 1): Framer {
  const splitter = split();
  const items: LogItem[] = [];
  splitter.on('data', (line: Line) => items.push(lineItem({ line: line.line, lineNo: line.lineNo + firstLineNo - 1 })));
  const drain = (sink: Sink) => {
    for (const item of items.splice(0)) sink(item);
  };
  let failure: Error | undefined;
  splitter.on('error', (error: Error) => (failure = error));
  return {
    async write(text, sink) {
      await new Promise<void>((resolve) => splitter.write(text, () => setImmediate(resolve)));
      if (failure) throw failure;
      drain(sink);
    },
    async end(sink) {
      await new Promise<void>((resolve) => {
        splitter.once('end', resolve);
        splitter.end();
        splitter.resume();
      });
      if (failure) throw failure;
      drain(sink);
    },
  };
}

async function tokensOf(result: unknown): Promise<Token[]> {
  if (result === none || result === undefined) return [];
  if (isMany(result)) return getManyValues(result) as Token[];
  if (result && typeof (result as AsyncIterable<Token>)[Symbol.asyncIterator] === 'function') {
    const tokens: Token[] = [];
    for await (const token of result as AsyncIterable<Token>) if (token as unknown !== none) tokens.push(token);
    return tokens;
  }
  return [result as Token];
}

const STARTS = new Set(['startObject', 'startArray', 'startString', 'startNumber', 'stringValue', 'numberValue', 'nullValue', 'trueValue', 'falseValue']);

/**
 * Values framing: stream-json's parser (jsonStreaming) and its values streamer;
 * a top-level array is unwrapped into its elements. The text goes in one
 * physical line at a time, so the line a value starts on is the line that was
 * being fed when its first token came out. On a syntax error, the text of the
 * broken value is kept as a problem item and the rest is read as lines.
 */
function valuesFramer(maxValueChars = DEFAULT_MAX_LINE_BYTES): Framer {
  const parse = jsonParser({ jsonStreaming: true }) as unknown as (chunk: unknown) => unknown;
  const values = streamValues() as unknown as (token: unknown) => unknown;
  let lineNo = 1;
  let partial = '';
  let depth = 0;
  /** >0 while inside a top-level array that is being unwrapped (its depth). */
  let unwrapping = false;
  let start: number | undefined;
  /** The text of the value being read, kept for the error report (bounded). */
  let pending: string[] = [];
  let pendingChars = 0;
  let fallback: Framer | undefined;

  /** The text of the value being read, kept as a problem item. */
  const brokenValue = (error: unknown): LogItem => {
    const problem = error instanceof TooDeepError ? TOO_DEEP : `not JSON (${error instanceof Error ? error.message : String(error)})`;
    return { lineNo: start ?? lineNo, raw: pending.join('\n'), problem };
  };

  const feedTokens = async (tokens: Token[], sink: Sink) => {
    for (const token of tokens) {
      if (token.name === 'whitespace') continue;
      if (depth === 0 && !unwrapping && token.name === 'startArray') {
        unwrapping = true;
        depth = 1;
        continue;
      }
      if (unwrapping && depth === 1 && token.name === 'endArray') {
        unwrapping = false;
        depth = 0;
        continue;
      }
      const level = unwrapping ? depth - 1 : depth;
      if (level === 0 && start === undefined && STARTS.has(token.name)) start = lineNo;
      if (token.name === 'startObject' || token.name === 'startArray') depth += 1;
      else if (token.name === 'endObject' || token.name === 'endArray') depth -= 1;
      if ((unwrapping ? depth - 1 : depth) > MAX_JSON_DEPTH) throw new TooDeepError(TOO_DEEP);
      for (const out of await tokensOf(values(token))) {
        sink({ lineNo: start ?? lineNo, value: (out as unknown as { value: unknown }).value });
        start = undefined;
        pending = [];
        pendingChars = 0;
      }
    }
  };

  const failed = async (error: unknown, sink: Sink) => {
    sink(brokenValue(error));
    fallback = linesFramer(lineNo + 1);
  };

  const feedLine = async (line: string, sink: Sink) => {
    if (pendingChars < maxValueChars) {
      pending.push(line.replace(/\r?\n$/, ''));
      pendingChars += line.length;
    }
    try {
      await feedTokens(await tokensOf(parse(line)), sink);
    } catch (error) {
      await failed(error, sink);
    }
    if (line.endsWith('\n')) lineNo += 1;
  };

  return {
    async write(text, sink) {
      if (fallback) return fallback.write(text, sink);
      let from = 0;
      for (;;) {
        const newline = text.indexOf('\n', from);
        if (newline < 0) break;
        const line = partial + text.slice(from, newline + 1);
        partial = '';
        from = newline + 1;
        await feedLine(line, sink);
        const after = fallback as Framer | undefined;
        if (after) return after.write(text.slice(from), sink);
      }
      partial += text.slice(from);
      if (partial.length > maxValueChars) {
        const line = partial;
        partial = '';
        await feedLine(line, sink);
      }
    },
    async end(sink) {
      if (fallback) return fallback.end(sink);
      if (partial) await feedLine(partial, sink);
      partial = '';
      const after = fallback as Framer | undefined;
      if (after) return after.end(sink);
      try {
        await feedTokens(await tokensOf(parse(none)), sink);
        if (depth !== 0 || start !== undefined) throw new Error('unexpected end of input');
        await tokensOf(values(none));
      } catch (error) {
        sink(brokenValue(error));
      }
    },
  };
}

/**
 * Auto: reads up to the first line with content. `[` → values; a first line
 * that is not a whole JSON value but starts one (`{` of a pretty-printed or
 * concatenated log) → values; else lines.
 */
function choose(head: string): 'lines' | 'values' {
  const firstLine = head.replace(/^\uFEFF/, '').split('\n').find((line) => line.trim() !== '') ?? '';
  const trimmed = firstLine.trim();
  if (trimmed.startsWith('[')) return 'values';
  if (!trimmed.startsWith('{')) return 'lines';
  try {
    JSON.parse(trimmed);
    return 'lines';
  } catch {
    return 'values';
  }
}

/**
 * bytes → LogItem objects. `lines`: strict JSONL (the split stage); `values`: a
 * stream of JSON values whatever the line breaks, a top-level array of events
 * included (stream-json); `auto`: picks by the first non-blank character (and,
 * for `{`, by whether the first value ends on its first line).
 */
export function logItems(framing: Framing = 'auto'): Transform {
  const decoder = new StringDecoder('utf8');
  let framer: Framer | undefined = framing === 'lines' ? linesFramer() : framing === 'values' ? valuesFramer() : undefined;
  let head = '';
  const stream = new Transform({
    writableObjectMode: false,
    readableObjectMode: true,
    readableHighWaterMark: 16,
    transform(chunk: Buffer | string, _encoding, callback: TransformCallback) {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      const sink = (item: LogItem) => void stream.push(item);
      if (!framer) {
        head += text;
        const hasLine = head.split('\n').some((line, index, all) => index < all.length - 1 && line.trim() !== '');
        if (!hasLine && head.length < DEFAULT_MAX_LINE_BYTES) return callback();
        framer = choose(head) === 'values' ? valuesFramer() : linesFramer();
        const buffered = head;
        head = '';
        return void framer.write(buffered, sink).then(() => callback(), callback);
      }
      framer.write(text, sink).then(() => callback(), callback);
    },
    flush(callback) {
      const sink = (item: LogItem) => void stream.push(item);
      const rest = decoder.end();
      (async () => {
        if (!framer) {
          framer = choose(head + rest) === 'values' ? valuesFramer() : linesFramer();
          await framer.write(head + rest, sink);
        } else if (rest) await framer.write(rest, sink);
        await framer.end(sink);
      })().then(() => callback(), callback);
    },
  });
  return stream;
}
