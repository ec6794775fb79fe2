/**
 * A text or reasoning delta line read the fast way: as zero writes it, without JSON.parse of the line, and its
 * other fields checked in place. zero redact reads most lines of a log through these (lib/logs/redact.ts).
 */
import { RUN_ID_PATTERN } from '../protocol/ids.js';

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

const DELTA_TYPES = [',"type":"text","runId":"', ',"type":"reasoning","runId":"'] as const;
const DELTA_KEY = '","delta":"';
/** Characters a JSON string cannot hold unescaped; a backslash means escapes to decode (then JSON.parse of the string alone does). */
const NOT_PLAIN = /["\\\u0000-\u001f]/;

/** A run id of the protocol's shape; a log repeats one on every line, so the last one checked is remembered. */
let lastRunId = '';
function isRunId(runId: string): boolean {
  if (runId === lastRunId) return true;
  if (!RUN_ID_PATTERN.test(runId)) return false;
  lastRunId = runId;
  return true;
}

/** What a delta line says before its delta: the same for every delta of a run, so the last one read is remembered. */
type DeltaHead = { schemaVersion: number; type: DeltaKind; runId: string };
/** The last delta line's beginning, up to its delta's opening quote (`{"schemaVersion":1,…,"delta":"`), and what it says. */
let lastHead = '';
let lastHeadSays: DeltaHead = { schemaVersion: 1, type: 'text', runId: '' };

/** Reads the beginning of a delta line up to its delta into lastHead; false when the line does not begin as one. */
function readHead(raw: string): boolean {
  if (!raw.startsWith('{"schemaVersion":')) return false;
  const schemaVersion = raw.charCodeAt(17) - 48;
  if (schemaVersion !== 1 && schemaVersion !== 2) return false;
  const typed = DELTA_TYPES.find((prefix) => raw.startsWith(prefix, 18));
  if (!typed) return false;
  const idStart = 18 + typed.length;
  const idEnd = raw.indexOf(DELTA_KEY, idStart);
  if (idEnd < 0) return false;
  const runId = raw.slice(idStart, idEnd);
  if (!isRunId(runId)) return false;
  lastHead = `{"schemaVersion":${schemaVersion}${typed}${runId}${DELTA_KEY}`;
  lastHeadSays = { schemaVersion, type: typed === DELTA_TYPES[0] ? 'text' : 'reasoning', runId };
  return true;
}

/**
 * A delta line exactly as zero writes it (`{"schemaVersion":1,"type":"text","runId":"run_…","delta":"…"}`),
 * read without JSON.parse of the line: most lines of a log are these, and only their delta is needed (a delta with
 * escapes is decoded on its own). Anything else (other keys, another order, spaces) is undefined: the line is parsed
 * as usual. Most often the line begins as the one before did (same run, kind and version): one comparison then.
 */
export function plainDeltaLine(raw: string): Json | undefined {
  // (a slice compared is several times faster than startsWith at this length)
  if (!raw.endsWith('"}') || !((lastHead !== '' && raw.slice(0, lastHead.length) === lastHead) || readHead(raw))) return undefined;
  // the delta's quotes: the one lastHead ends with, and the one before the closing brace (not the same quote)
  if (raw.length < lastHead.length + 2) return undefined;
  const delta = raw.slice(lastHead.length, -2);
  const decoded = NOT_PLAIN.test(delta) ? decodedString(raw.slice(lastHead.length - 1, -1)) : delta;
  if (decoded === undefined) return undefined;
  const { schemaVersion, type, runId } = lastHeadSays;
  return { schemaVersion, type, runId, delta: decoded };
}

/** A JSON string literal (quotes included) decoded, or undefined when it is not exactly one (an unescaped quote ends it early). */
function decodedString(literal: string): string | undefined {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

