import { none, getManyValues } from 'stream-chain/defs.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import streamValues, { type StreamValuesItem } from 'stream-json/core/streamers/stream-values.js';
import { MAX_JSON_DEPTH, TOO_DEEP } from '../protocol/depth.js';
import type { Emit } from '../streams.js';
import type { LogItem } from './framing.js';

/** The problem of a value whose text passes the limit: it is not read further. */
export const tooLongValue = (maxBytes: number) => `longer than ${maxBytes} bytes`;

/** Thrown by the values framing at the first token past MAX_JSON_DEPTH, before the value is assembled. */
export class TooDeepError extends Error {}
/** Thrown by the values framing at the first token past the limit, before the value is assembled. */
export class TooLongError extends Error {}

const STARTS = new Set(['startObject', 'startArray', 'startString', 'startNumber', 'stringValue', 'numberValue', 'nullValue', 'trueValue', 'falseValue']);
/** The tokens that give a value's text as it is read; its packed form comes again at the end and is not counted twice. */
const PIECES = new Set(['stringChunk', 'numberChunk']);

/**
 * stream-json's tokenizer and values streamer (plain synchronous functions: the
 * parser gives `many(tokens)` or `none`, the streamer a value or `none`), a
 * top-level array unwrapped into its elements. Each value comes out with the
 * line that was being fed when its first token came out. A value is measured as
 * its tokens come (its text but the whitespace between tokens, in UTF-16 units),
 * so it fails at the limit wherever the input was cut.
 */
export function createValueReader(maxChars: number) {
  const parse = jsonParser({ jsonStreaming: true });
  const values = streamValues();
  let depth = 0;
  /** Inside a top-level array that is being unwrapped. */
  let unwrapping = false;
  let start: number | undefined;
  let size = 0;
  const level = () => (unwrapping ? depth - 1 : depth);

  const measure = (token: Token) => {
    size += PIECES.has(token.name) ? (token as { value: string }).value.length : 1;
    if (size > maxChars) throw new TooLongError(tooLongValue(maxChars));
  };
  const feed = (token: Token, lineNo: number, emit: Emit<LogItem>) => {
    if (depth === 0 && !unwrapping && token.name === 'startArray') {
      unwrapping = true;
      depth = 1;
      return;
    }
    if (unwrapping && depth === 1 && token.name === 'endArray') {
      unwrapping = false;
      depth = 0;
      return;
    }
    if (level() === 0 && start === undefined && STARTS.has(token.name)) start = lineNo;
    if (token.name === 'startObject' || token.name === 'startArray') depth += 1;
    else if (token.name === 'endObject' || token.name === 'endArray') depth -= 1;
    if (level() > MAX_JSON_DEPTH) throw new TooDeepError(TOO_DEEP);
    measure(token);
    // stream-values gives one value or none, never many
    const out = values(token) as StreamValuesItem | typeof none;
    if (out === none) return;
    emit({ lineNo: start ?? lineNo, value: out.value });
    start = undefined;
    size = 0;
  };
  const feedAll = (tokens: ReturnType<typeof parse>, lineNo: number, emit: Emit<LogItem>) => {
    if (tokens !== none) for (const token of getManyValues(tokens)) feed(token, lineNo, emit);
  };

  return {
    /** The line the value being read started on; undefined between values. */
    get start() {
      return start;
    },
    write(text: string, lineNo: number, emit: Emit<LogItem>) {
      feedAll(parse(text), lineNo, emit);
    },
    end(lineNo: number, emit: Emit<LogItem>) {
      feedAll(parse(none as unknown as string), lineNo, emit); // none: the end of the text
      if (depth !== 0 || start !== undefined) throw new Error('unexpected end of input');
    },
  };
}

/**
 * The text since the last value, kept (up to about the limit) for the problem
 * item of a value that breaks: from its first line with content, each line
 * without its line ending.
 */
export function createKeptText(maxChars: number) {
  let pieces: string[] = [];
  let chars = 0;
  return {
    add(text: string) {
      if (chars >= maxChars) return;
      pieces.push(text);
      chars += text.length;
    },
    clear() {
      pieces = [];
      chars = 0;
    },
    get text() {
      return pieces.join('').replace(/\r\n/g, '\n').replace(/^(?:[ \t\r]*\n)+/, '').replace(/\n$/, '');
    },
  };
}
