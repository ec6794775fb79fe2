import { BESIDE_TEXT, isDeltaEvent } from '../redaction/events.js';
import { mayContainSecret, redactEvent, redactText, redactValue, type RedactOptions } from '../redaction/index.js';
import type { Step } from '../streams.js';
import { lineItem, type LogItem, type LogLine } from './framing.js';
import { mayContainKnownSecret, mayContainSecretInJson, mayContainSecretInJsonChanged } from '../redaction/text.js';
import { RUN_ID_PATTERN } from '../protocol/ids.js';
import { beginsAsDelta, plainDelta, plainDeltaLine } from './delta-line.js';
import { createRunDeltas, type DeltaWriter, type RunDeltas } from './run-deltas.js';
import { jsonLine } from '../output/serializer.js';
import { isJsonObject, keysIn, keysNamed } from '../protocol/json-object.js';
import { stringEnd } from '../protocol/depth.js';

type Json = Record<string, unknown>;
/** A line as it was read: its text and, from the lines framing, its bytes. */
type Original = { raw: string; bytes?: Buffer };
/** Where lines go: an array, or a step's emit. */
type Lines = { push(line: string | Buffer): unknown };

const NEWLINE = Buffer.from('\n');
/**
 * A clean line as it came: its text, or its bytes when they are not valid UTF-8 (the text then holds
 * U+FFFD where they were), so that clean lines stay byte-identical whatever their encoding.
 */
const asRead = ({ raw, bytes }: Original): string | Buffer => (bytes && raw.includes('\uFFFD') ? Buffer.concat([bytes, NEWLINE]) : `${raw}\n`);

/**
 * A delta line's fields, those before the delta and those after it, with the delta's place between them: filled in a
 * loop, as a spread that adds keys to what it copies costs microseconds (no key is `__proto__`: delta-line.ts).
 */
function fieldsAround(before: Json, after: Json): Json {
  const fields: Json = {};
  for (const key in before) fields[key] = before[key];
  fields.delta = '';
  for (const key in after) fields[key] = after[key];
  return fields;
}

/** The events whose deltas are one text in pieces, redacted as one (docs/protocol.md §4): the answer and the reasoning. */
const MAYBE_DELTA = /"type"\s*:\s*"(?:text|reasoning)"/;
/** Whether a raw line may be a delta: its type written plainly, or anything escaped (`"t\u0065xt"` is text too). */
const mayBeDelta = (raw: string): boolean => raw.includes('\\u') || ((raw.includes('"text"') || raw.includes('"reasoning"')) && MAYBE_DELTA.test(raw));

/**
 * A usage line as zero writes it (docs/protocol.md): numbers under its own keys and a run id of zero's form, which
 * no secret fits, so nothing in it to redact; but its keys name `token`s, so the keyword search finds one in each.
 */
const PLAIN_USAGE = new RegExp(
  `^\\{"schemaVersion":[12],"type":"usage","runId":"${RUN_ID_PATTERN.source.slice(1, -1)}","promptTokens":\\d{1,15},"completionTokens":\\d{1,15},"totalTokens":\\d{1,15}(?:,"costUsd":[0-9.e+-]{1,24})?\\}$`,
);

/**
 * Whether a line that is no plain delta can go out as it came: no keyword in it (a secret, or an escape that could
 * hide one), and not a delta; or a plain usage line. Keywords first: most such lines name one early on (a tool's
 * output names a `key` or a `token`), and the search stops there. But a line whose beginning names a delta's type (a
 * delta with a field after it, say) is a delta, which mayBeDelta would say too: the keyword search is not asked.
 */
const isCleanOther = (raw: string, options: RedactOptions): boolean =>
  (!beginsAsDelta(raw) && !mayContainSecretInJson(raw, options) && !mayBeDelta(raw)) ||
  (PLAIN_USAGE.test(raw) && !mayContainKnownSecret(raw, options));

/** A line whose type, among its first characters, is one beside the text (events.ts BESIDE_TEXT). */
const BESIDE_TEXT_TYPE = new RegExp(`"type"\\s*:\\s*"(?:${[...BESIDE_TEXT].join('|')})"`);
const mayBeBesideText = (raw: string): boolean => BESIDE_TEXT_TYPE.test(raw.length > 512 ? raw.slice(0, 512) : raw);
/**
 * A line's runId, when written plainly (no escape): its top-level `"runId"` key, wherever it is (Zero Go sorts its
 * keys: a long output comes first), never one nested in a value (a tool call's `args`). Strings are skipped whole.
 */
const PLAIN_RUN_ID = /"runId"\s*:\s*"([^"\\]*)"/y;
function plainRunIdOf(raw: string): string | undefined {
  let depth = 0;
  for (let at = 0; at < raw.length; at++) {
    const code = raw.charCodeAt(at);
    if (code === 34) {
      const end = stringEnd(raw, at);
      if (depth === 1 && end === at + 6 && raw.startsWith('"runId"', at)) {
        PLAIN_RUN_ID.lastIndex = at;
        return PLAIN_RUN_ID.exec(raw)?.[1];
      }
      at = end;
    } else if (code === 123 || code === 91) depth++;
    else if (code === 125 || code === 93) depth--;
  }
  return undefined;
}
const isDelta = (value: Json): boolean => isDeltaEvent(value) && typeof value.delta === 'string';

/**
 * Delta text (and lines beside it) kept unscanned before a run's deltas go through the stream redactor anyway: a
 * run keeps at most this much of a segment, and all the runs of a log at most ALL_DEFERRED_CHARS together (in a
 * log of thousands of runs open at once, each keeps little and goes through the stream redactor soon).
 */
const DEFERRED_CHARS = 64 * 1024;
const ALL_DEFERRED_CHARS = 1024 * 1024;

/** A run's deltas written as lines: as they were read, or re-split as lines shaped like the run's own. */
const LINES: DeltaWriter<Original, string | Buffer> = {
  asCame: ({ fields, delta, original }) => (original ? asRead(original) : jsonLine({ ...fields, delta })),
  shaped: (template, delta) => jsonLine({ ...template, delta }),
};
const sizeOfLine = (line: string | Buffer) => line.length;

/**
 * A log, item by item → the same log with every secret redacted (docs/protocol.md §4).
 * A line the prefilter proves clean is written as it was, without parse or
 * serialise; a line that is not JSON is redacted as text and kept. A run's
 * text goes on across the lines of other runs, lines that are no events and
 * its own lines beside the text: a secret split around one of them is caught.
 * Such a line keeps its place among the deltas of the run the last delta was
 * of; a run's deltas held back go out after the lines of other runs that came
 * meanwhile (each run's own lines keep their order).
 */
export function createLogRedactor(options: RedactOptions = {}): Step<LogItem | LogLine, string | Buffer> {
  type Run = RunDeltas<Original, string | Buffer>;
  // Only runs whose text goes on: a run settles at its next event that is no delta (its run_end at the latest), and
  // forgetting it keeps each line's cost flat in a log of thousands of runs.
  const runs = new Map<string, Run>();
  /** The run the last delta was of (almost every line's run): looked up without the map. */
  let last: { runId: string; run: Run } | undefined;
  // each run keeps little when many are open at once: what all keep stays bounded
  const cap = () => Math.min(DEFERRED_CHARS, ALL_DEFERRED_CHARS / Math.max(1, runs.size));
  /** A run settled and forgotten, whose state (its stream redactors made) serves the next run: most logs have one open at a time. */
  let spare: Run | undefined;
  const runOf = (runId: string) => {
    if (last?.runId === runId) return last.run;
    let run = runs.get(runId);
    if (!run) {
      run = spare ?? createRunDeltas(options, LINES, cap, sizeOfLine);
      spare = undefined;
      runs.set(runId, run);
    }
    last = { runId, run };
    return run;
  };
  /** A run that settled: it holds nothing. */
  const forget = (runId: string) => {
    spare = runs.get(runId) ?? spare;
    runs.delete(runId);
    if (last?.runId === runId) last = undefined;
  };
  /**
   * A line that is no part of a run's text: one of no run keeps its place among the deltas the last run keeps; one
   * of a run that holds nothing (`runId`) goes out now, as held behind another run's deltas it would come out after
   * its own run's later lines.
   */
  const passOn = (line: string | Buffer, out: Lines, runId?: string) => {
    if (runId === undefined && last?.run.deferring) last.run.aside(line, out);
    else out.push(line);
  };
  /**
   * A delta line's other fields as they go out, and whether its raw line can: unless `clean` (nothing in them to
   * redact), they are redacted on their own (a hand-edited runId, a sessionId with a key); changed, the line cannot.
   */
  const fieldsOf = (fields: Json, clean: boolean): { fields: Json; asCame: boolean } => {
    if (clean) return { fields, asCame: true };
    const redacted: Json = redactEvent({ ...fields, delta: '' }, options);
    const changed = Object.keys(fields).some((key) => key !== 'delta' && redacted[key] !== fields[key]);
    return changed ? { fields: redacted, asCame: false } : { fields, asCame: true };
  };
  /**
   * Whether a parsed line may go out as it was read, JSON.parse having kept all of it: a key given twice keeps only
   * its last value, and the line would still hold the first (`"delta":"sk-…","delta":"ok"`). When the line names
   * as many keys as the value has, none was given twice; else the line itself must be clean as text.
   */
  const keptWhole = (value: unknown, raw: string | undefined): raw is string => raw !== undefined && (keysNamed(raw) === keysIn(value) || redactText(raw, options) === raw);
  const unchanged = (value: unknown, redacted: unknown): boolean => redacted === value || (!isJsonObject(value) && JSON.stringify(redacted) === JSON.stringify(value));
  /** The last delta line beginning read the fast way, judged once: a run's deltas all begin alike. */
  let judged: { head: string; clean: boolean; fields: Json; asCame: boolean } | undefined;
  const toRun = (fields: Json, delta: string, original: Original | undefined, out: Lines) => {
    runOf(typeof fields.runId === 'string' ? fields.runId : '').delta(fields, delta, original, out);
  };
  /** The emit as Lines, made once: a stream passes the same emit for every line. */
  let lines: { emit: (line: string | Buffer) => void; out: Lines } | undefined;
  const linesOf = (emit: (line: string | Buffer) => void): Lines => (lines?.emit === emit ? lines.out : (lines = { emit, out: { push: emit } }).out);
  const redactor: Step<LogItem | LogLine, string | Buffer> = {
    write(line, emit) {
      const out = linesOf(emit);
      const raw = line.raw;
      if ('problem' in line) return passOn(mayContainSecret(line.raw, options) ? `${redactText(line.raw, options)}\n` : asRead(line), out);
      // A delta always goes through its run's redactor: a clean one may hold the start of a secret the next one ends.
      const read = 'value' in line || raw === undefined ? undefined : plainDeltaLine(raw);
      // fields after the delta that could hold a secret: the line is parsed and its fields redacted, as any other
      if (read && (read.after === undefined || !mayContainSecretInJson(read.after.raw, options))) {
        if (judged?.head !== read.head) {
          // a beginning that differs from a clean one in one value (a `ts`): only what the change reaches is searched
          const { changed } = read;
          const cleanBefore = changed !== undefined && judged?.head === changed.previous && judged.clean;
          const clean = !(cleanBefore ? mayContainSecretInJsonChanged(read.head, changed.from, changed.to, options) : mayContainSecretInJson(read.head, options));
          judged = { head: read.head, clean, ...fieldsOf(read.fields, clean) };
        }
        // the delta keeps its place among the fields (a re-split delta is written as {...fields, delta})
        const fields = read.after ? fieldsAround(judged.fields, read.after.fields) : judged.fields;
        return toRun(fields, read.delta, judged.asCame ? (line as Original) : undefined, out);
      }
      // A clean line that is no delta is written as it came, unparsed: one beside its run's text (a heartbeat, a
      // usage) is an aside of that run, the text going on after it; any other event of the run settles it first.
      if (raw !== undefined && isCleanOther(raw, options)) {
        const runId = runs.size > 0 ? plainRunIdOf(raw) : undefined;
        const run = runId === undefined ? undefined : runs.get(runId);
        if (!run) return passOn(asRead(line as Original), out, runId);
        if (mayBeBesideText(raw)) return run.aside(asRead(line as Original), out);
        run.settle(out);
        forget(runId!);
        return void out.push(asRead(line as Original));
      }
      const item = 'value' in line ? line : lineItem(line);
      if ('problem' in item) return redactor.write(item, emit);
      const { value } = item;
      const asWritten = (redacted: unknown) => (unchanged(value, redacted) && keptWhole(value, item.raw) ? asRead(item as Original) : jsonLine(redacted as Json));
      if (isJsonObject(value) && typeof value.type === 'string') {
        if (isDelta(value)) {
          const { fields, asCame } = fieldsOf(value, plainDelta(value));
          return toRun(fields, value.delta as string, asCame && keptWhole(value, item.raw) ? (item as Original) : undefined, out);
        }
        const runId = typeof value.runId === 'string' ? value.runId : '';
        const run = runs.get(runId);
        if (run && BESIDE_TEXT.has(value.type)) return run.aside(asWritten(redactEvent(value, options)), out);
        if (!run) return passOn(asWritten(redactEvent(value, options)), out, typeof value.runId === 'string' ? value.runId : undefined);
        run.settle(out);
        forget(runId);
        return void out.push(asWritten(redactEvent(value, options)));
      }
      passOn(asWritten(isJsonObject(value) ? redactEvent(value, options) : redactValue(value, options)), out);
    },
    end(emit) {
      const out = { push: emit };
      for (const run of runs.values()) run.settle(out);
      runs.clear();
      last = undefined;
    },
  };
  return redactor;
}
