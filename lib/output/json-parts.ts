/**
 * Strings longer than this are written in slices of this many UTF-16 units: small enough that a slice's JSON is
 * a young object for V8 (collected at once), not a large one that stays until a full collection.
 */
export const PART_CHARS = 1 << 15;

const isLongString = (field: unknown): field is string => typeof field === 'string' && field.length > PART_CHARS;

/** Whether an own field holds a long string (every event is asked: no array made for the answer). */
function hasLongString(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key) && isLongString((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** Where a slice of `text` may end at or before `end`: never between the two halves of a surrogate pair. */
function sliceEnd(text: string, end: number): number {
  if (end >= text.length) return text.length;
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/** `text` as a JSON string, in escaped slices of about PART_CHARS: their concatenation is JSON.stringify(text). */
function* stringParts(text: string): Generator<string> {
  yield '"';
  for (let start = 0; start < text.length; ) {
    const end = sliceEnd(text, start + PART_CHARS);
    yield JSON.stringify(text.slice(start, end)).slice(1, -1);
    start = end;
  }
  yield '"';
}

/**
 * An object's JSON line (`JSON.stringify(value) + '\n'`, byte for byte) in parts: a field holding a long string
 * (a huge answer's `final.text`) comes in slices, so the whole line never exists as one string. An object with
 * no long string is one part.
 */
export function* jsonLineParts(value: object): Generator<string> {
  if (!hasLongString(value)) {
    yield `${JSON.stringify(value)}\n`;
    return;
  }
  let pending = '{';
  for (const [key, field] of Object.entries(value)) {
    const json = isLongString(field) ? '' : JSON.stringify(field);
    // what JSON.stringify leaves out: undefined, functions, symbols
    if (json === undefined) continue;
    pending += `${pending === '{' ? '' : ','}${JSON.stringify(key)}:`;
    if (json) {
      pending += json;
      continue;
    }
    yield pending;
    yield* stringParts(field as string);
    pending = '';
  }
  yield `${pending}}\n`;
}

/** Emits an object's JSON line: whole, or in parts (jsonLineParts) when it holds a long string; no generator for the rest. */
export function emitJsonLine(value: object, emit: (part: string) => void): void {
  if (!hasLongString(value)) return emit(`${JSON.stringify(value)}\n`);
  for (const part of jsonLineParts(value)) emit(part);
}
