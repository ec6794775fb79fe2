import { TextSpool, slicesOf } from '../files/text-spool.js';

/**
 * Strings longer than this are written in slices of this many UTF-16 units: small enough that a slice's JSON is
 * a young object for V8 (collected at once), not a large one that stays until a full collection.
 */
export const PART_CHARS = 1 << 15;

const isLongString = (field: unknown): field is string => typeof field === 'string' && field.length > PART_CHARS;

/** A spooled final's spool (lib/files/text-spool.ts): its `text` is written from it, and the spool is no field. */
const spoolOf = (value: object): TextSpool | undefined => {
  const { spool } = value as { spool?: unknown };
  return spool instanceof TextSpool ? spool : undefined;
};

/**
 * Whether a field holds a long string, or the text is in a spool (every event is asked: no array made for the answer).
 * An inherited field is asked too (no hasOwn per key, which would double the cost): jsonLineParts writes own ones only.
 */
function hasLongString(value: object): boolean {
  if (spoolOf(value)) return true;
  for (const key in value) if (isLongString((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * A text given in chunks (none ending between the halves of a surrogate pair) as a JSON string, in escaped slices
 * of about PART_CHARS: their concatenation is JSON.stringify of the text.
 */
function* stringParts(chunks: Iterable<string>): Generator<string> {
  yield '"';
  for (const slice of slicesOf(chunks, PART_CHARS)) yield JSON.stringify(slice).slice(1, -1);
  yield '"';
}

/**
 * An object's JSON line (`JSON.stringify(value) + '\n'`, byte for byte) in parts: a field holding a long string
 * (a huge answer's `final.text`) comes in slices, so the whole line never exists as one string; a spooled final's
 * `text` comes from its spool as it is read back, chunk by chunk, and is written as that text would be. An object
 * with neither is one part.
 */
export function* jsonLineParts(value: object): Generator<string> {
  if (!hasLongString(value)) {
    yield `${JSON.stringify(value)}\n`;
    return;
  }
  const spool = spoolOf(value);
  let pending = '{';
  for (const [key, field] of Object.entries(value)) {
    if (spool && key === 'spool') continue;
    const long = spool && key === 'text' ? spool.chunks() : isLongString(field) ? [field] : undefined;
    const json = long ? '' : JSON.stringify(field);
    // what JSON.stringify leaves out: undefined, functions, symbols
    if (json === undefined) continue;
    pending += `${pending === '{' ? '' : ','}${JSON.stringify(key)}:`;
    if (json) {
      pending += json;
      continue;
    }
    yield pending;
    yield* stringParts(long!);
    pending = '';
  }
  yield `${pending}}\n`;
}

/**
 * Emits an object's JSON line: whole, or in parts (jsonLineParts) when it holds a long string; no generator for the
 * rest. A spooled final's line is emitted as its parts unread (an Iterable): the stream pulls them as its reader
 * takes them (lib/streams.ts), so the answer is never all in a buffer.
 */
export function emitJsonLine(value: object, emit: (part: string | Iterable<string>) => void): void {
  if (!hasLongString(value)) return emit(`${JSON.stringify(value)}\n`);
  if (spoolOf(value)) return emit(jsonLineParts(value));
  for (const part of jsonLineParts(value)) emit(part);
}
