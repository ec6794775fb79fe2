/**
 * A text or reasoning delta line read the fast way: as zero writes it, without JSON.parse of the line, and its
 * other fields checked in place. zero redact reads most lines of a log through these (lib/logs/redact.ts).
 */
import { RUN_ID_PATTERN } from '../protocol/ids.js';
import { startsWithText } from '../strings.js';
import { keysNamed } from '../protocol/json-object.js';

type Json = Record<string, unknown>;
export type DeltaKind = 'text' | 'reasoning';

/** A delta whose other fields have their protocol shape (nothing there to redact): the common case, checked cheaply. */
export function plainDelta(value: Json): boolean {
  for (const key in value) {
    if (key === 'delta' || key === 'type') continue;
    if (key === 'schemaVersion' && (value.schemaVersion === 1 || value.schemaVersion === 2)) continue;
    if (key === 'runId' && typeof value.runId === 'string' && isRunId(value.runId)) continue;
    return false;
  }
  return true;
}

const DELTA_KEY = ',"delta":"';
/** Past this, a line's beginning is not read as a delta's (the line is parsed as usual). */
const MAX_HEAD_CHARS = 4096;
/** Characters a JSON string cannot hold unescaped; a backslash means escapes to decode (then JSON.parse of the string alone does). */
const NOT_PLAIN = /["\\\u0000-\u001f]/;
/** From this length on, a delta is copied out of its line by JSON.parse (below it, its fixed cost is more than it saves). */
const OWN_STRING_FROM = 128;

/** A run id of the protocol's shape; a log repeats one on every line, so the last one checked is remembered. */
let lastRunId = '';
function isRunId(runId: string): boolean {
  if (runId === lastRunId) return true;
  if (!RUN_ID_PATTERN.test(runId)) return false;
  lastRunId = runId;
  return true;
}

/**
 * A delta line read the fast way: its delta, its other fields (one object for every line that begins alike: not to
 * be changed), and its beginning up to the delta's opening quote (the same on every delta of a run).
 */
export type DeltaLineRead = {
  fields: Json;
  delta: string;
  head: string;
  /** Fields after the delta, as they are and as written (`,"ts":"…"}`): they change from line to line. */
  after?: { fields: Json; raw: string };
  /**
   * When the beginning differs from the last line's (`previous`) only in one field's value (a `seq`, a `ts`): where
   * it differs, [from, to) of `head`. Nothing else in it changed.
   */
  changed?: { previous: string; from: number; to: number };
};

/** The last delta line's beginning, up to its delta's opening quote (`{"schemaVersion":1,…,"delta":"`), and its fields. */
let lastHead = '';
let lastHeadSays: Json = {};
/** Where each field's value is written in lastHead ([start, end) of its JSON), in order; undefined when not known. */
let lastValues: { key: string; start: number; end: number }[] | undefined;
/** How lastHead differs from the one before it, when it came from it by one value (headAfter). */
let lastChange: DeltaLineRead['changed'];

/**
 * Reads the beginning of a delta line up to its delta into lastHead: false when the line does not begin as one
 * (its fields, but for the delta, in any order, each a string, number, boolean or null; its type text or
 * reasoning). `,"delta":"` cannot occur inside a JSON string unescaped, so its first occurrence ends the fields.
 */
function readHead(raw: string): boolean {
  // a delta's beginning is short: a long line that is no delta is not searched to its end
  const at = raw.charCodeAt(0) === 123 ? raw.slice(0, MAX_HEAD_CHARS).indexOf(DELTA_KEY) : -1;
  if (at < 0) return false;
  const head = raw.slice(0, at);
  // what cannot be a delta's flat beginning is refused before JSON.parse could throw (a tool call whose args name a delta)
  if (head.indexOf('{', 1) >= 0 || head.includes('[') || !(head.includes('"type":"text"') || head.includes('"type":"reasoning"'))) return false;
  let fields: unknown;
  try {
    fields = JSON.parse(`${head}}`);
  } catch {
    return false;
  }
  // (an object: the head begins with `{` and holds no other; no value in it is an object or an array)
  const { type } = fields as Json;
  if ((type !== 'text' && type !== 'reasoning') || 'delta' in (fields as Json)) return false;
  // a key named twice (`"runId":"X","runId":"A"`): JSON.parse keeps the last, and a beginning that differs from
  // this one in the first would be read as that one's change (headAfter); such a line is parsed whole, as any other
  if (keysNamed(head) !== Object.keys(fields as Json).length) return false;
  lastHead = raw.slice(0, at + DELTA_KEY.length);
  lastHeadSays = fields as Json;
  lastValues = valuesIn(head);
  lastChange = undefined;
  return true;
}

/**
 * Where each field's value is written in a flat beginning (`{"k":v,"k":v`), with its key; undefined for one written
 * any other way (spaces, say): its lines are then read whole, each.
 */
function valuesIn(head: string): { key: string; start: number; end: number }[] | undefined {
  const values: { key: string; start: number; end: number }[] = [];
  let at = 1;
  while (at < head.length) {
    const keyEnd = head.charCodeAt(at) === QUOTE ? bareQuoteAt(head, at + 1) : -1;
    if (keyEnd < 0 || head.charCodeAt(keyEnd + 1) !== COLON) return undefined;
    const key = decodedString(head.slice(at, keyEnd + 1));
    const start = keyEnd + 2;
    // a string ends at its closing quote, anything else at the next comma (the last value at the beginning's end)
    const comma = head.indexOf(',', start);
    const end = head.charCodeAt(start) === QUOTE ? bareQuoteAt(head, start + 1) + 1 : comma < 0 ? head.length : comma;
    // (`__proto__`: a copy of the fields by assignment would set a prototype instead)
    if (key === undefined || key === '__proto__' || end <= start) return undefined;
    values.push({ key, start, end });
    if (end < head.length && head.charCodeAt(end) !== COMMA) return undefined;
    at = end + 1;
  }
  return values;
}

const QUOTE = 34;
const COLON = 58;

/**
 * A delta line that begins as the last one did but for one field's value (a `seq`, a `ts` on every event): only that
 * value is read, the other fields kept. Parsing each beginning whole cost a microsecond a line. False when the line
 * differs in more, or elsewhere (the beginning is then read whole).
 */
function headAfter(raw: string): boolean {
  if (lastValues === undefined) return false;
  const end = raw.slice(0, MAX_HEAD_CHARS).indexOf(DELTA_KEY) + DELTA_KEY.length;
  if (end < DELTA_KEY.length) return false;
  // the first value written otherwise, compared a stretch at a time (a slice compared with === is a native compare;
  // a loop over a slice's characters costs ~4 ns each)
  let before = 0;
  let index = 0;
  while (index < lastValues.length && raw.slice(before, lastValues[index]!.end) === lastHead.slice(before, lastValues[index]!.end)) before = lastValues[index++]!.end;
  const value = lastValues[index];
  if (value === undefined || value.key === 'type' || raw.slice(before, value.start) !== lastHead.slice(before, value.start)) return false;
  const valueEnd = raw.charCodeAt(value.start) === QUOTE ? bareQuoteAt(raw, value.start + 1) + 1 : raw.indexOf(',', value.start);
  // what follows the value, to the delta's opening quote, as it was
  if (valueEnd <= value.start || raw.slice(valueEnd, end) !== lastHead.slice(value.end)) return false;
  const json = raw.slice(value.start, valueEnd);
  // as readHead refuses a beginning holding either; JSON.parse then says it is one value
  if (json.includes('{') || json.includes('[')) return false;
  let read: unknown;
  try {
    read = JSON.parse(json);
  } catch {
    return false;
  }
  const fields: Json = {};
  for (const key in lastHeadSays) fields[key] = key === value.key ? read : lastHeadSays[key];
  lastChange = { previous: lastHead, from: value.start, to: valueEnd };
  lastHead = raw.slice(0, end);
  lastHeadSays = fields;
  const shift = valueEnd - value.end;
  value.end = valueEnd;
  for (let later = index + 1; later < lastValues.length; later++) (lastValues[later]!.start += shift), (lastValues[later]!.end += shift);
  return true;
}

/**
 * A delta line read without JSON.parse of the line: its delta last (`{"schemaVersion":1,"type":"text","runId":"run_…",
 * "delta":"…"}`, as zero writes it, or with other fields before the delta), or followed by flat fields of another
 * program (`…,"delta":"…","ts":"…"}`, read into `after`). Most lines of a log are these, and only their delta is
 * needed (a delta with escapes is decoded on its own). Anything else (a field that is an object, spaces before the
 * delta, a key twice) is undefined: the line is parsed as usual. Most often the line begins as the one before did
 * (same run, kind and version): one comparison then. What the fields hold is the caller's to judge (the head: a log
 * redactor asks whether it can hold a secret; `after.raw` likewise, as it changes from line to line).
 */
export function plainDeltaLine(raw: string): DeltaLineRead | undefined {
  if (raw.charCodeAt(raw.length - 1) !== CLOSING_BRACE) return undefined;
  if (lastHead !== '' && startsWithText(raw, lastHead)) lastChange = undefined;
  else if (!(beginsAsDelta(raw) && (headAfter(raw) || readHead(raw)))) return undefined;
  if (!raw.endsWith('"}')) return withFieldsAfter(raw);
  // the delta's quotes: the one lastHead ends with, and the one before the closing brace (not the same quote)
  if (raw.length < lastHead.length + 2) return undefined;
  const delta = raw.slice(lastHead.length, -2);
  const literal = () => raw.slice(lastHead.length - 1, -1);
  // A long delta is decoded even when plain: JSON.parse checks it on the way and makes a string of its own, which the
  // redactor's scans read at half the cost of a slice of the chunk it was read in (V8 reads a slice through its parent).
  if (delta.length >= OWN_STRING_FROM || NOT_PLAIN.test(delta)) {
    if (bareQuoteAt(delta, 0) >= 0) return withFieldsAfter(raw);
    const decoded = decodedString(literal());
    return decoded === undefined ? undefined : { fields: lastHeadSays, delta: decoded, head: lastHead, changed: lastChange };
  }
  return { fields: lastHeadSays, delta, head: lastHead, changed: lastChange };
}

const CLOSING_BRACE = 125;

/**
 * Whether a line's beginning names a delta's type. Asked before a line is searched for a delta's beginning: a tool's
 * output line would be searched 4 KiB deep for nothing (a line whose type comes later is parsed as usual).
 */
export function beginsAsDelta(raw: string): boolean {
  const at = (raw.length > 256 ? raw.slice(0, 256) : raw).indexOf(TYPE_KEY) + TYPE_KEY.length;
  if (at < TYPE_KEY.length) return false;
  const kind = raw.charCodeAt(at) === 116 ? 'text"' : 'reasoning"';
  return raw.slice(at, at + kind.length) === kind;
}

const TYPE_KEY = '"type":"';

/**
 * A delta line whose delta is followed by other fields: the delta ends at its first quote no backslash escapes, and
 * what follows is flat (no object, no array, no key the line has already), read by JSON.parse of itself alone.
 * A log whose every delta carries a timestamp after it (a logger's wrapper) spent a third of its time parsing lines.
 */
function withFieldsAfter(raw: string): DeltaLineRead | undefined {
  const from = lastHead.length;
  const close = bareQuoteAt(raw, from);
  if (close < 0) return undefined;
  const rest = raw.slice(close + 1);
  if (rest.charCodeAt(0) !== COMMA || rest.includes('{') || rest.includes('[')) return undefined;
  const fields = decodedObject(`{${rest.slice(1)}`);
  if (fields === undefined) return undefined;
  // (no `__proto__` on either side: the caller fills one object with both)
  if (Object.hasOwn(lastHeadSays, '__proto__')) return undefined;
  for (const key of Object.keys(fields)) if (key === 'delta' || key === '__proto__' || Object.hasOwn(lastHeadSays, key)) return undefined;
  const delta = decodedString(raw.slice(from - 1, close + 1));
  return delta === undefined ? undefined : { fields: lastHeadSays, delta, head: lastHead, after: { fields, raw: rest }, changed: lastChange };
}

const COMMA = 44;

/** Where `text` holds its first quote no backslash escapes, from `from` on (-1: none). */
function bareQuoteAt(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at >= 0; at = text.indexOf('"', at + 1)) {
    let slashes = 0;
    while (at - slashes > from && text.charCodeAt(at - slashes - 1) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/** A JSON object's text decoded, or undefined when it is not one (what JSON.parse would refuse, or another value). */
function decodedObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

const BACKSLASH = 92;

/** A JSON string literal (quotes included) decoded, or undefined when it is not exactly one (an unescaped quote ends it early). */
function decodedString(literal: string): string | undefined {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

