import { BESIDE_TEXT, isDeltaEvent } from '../redaction/events.js';
import { createStreamRedactor, type StreamRedactor } from '../redaction/stream.js';
import { mayContainSecret, redactEvent, redactText, redactValue, type RedactOptions } from '../redaction/index.js';
import type { Step } from '../streams.js';
import { lineItem, type LogItem, type LogLine } from './framing.js';
import { mayContainKnownSecret, mayContainSecretInJson, mayContainSecretInJsonChanged } from '../redaction/text.js';
import { RUN_ID_PATTERN } from '../protocol/ids.js';
import { beginsAsDelta, plainDelta, plainDeltaLine, type DeltaKind } from './delta-line.js';
import { jsonLine } from '../output/serializer.js';
import { isJsonObject } from '../protocol/json-object.js';
import { startsWithText } from '../strings.js';

type Json = Record<string, unknown>;
/** A line as it was read: its text and, from the lines framing, its bytes. */
type Original = { raw: string; bytes?: Buffer };
/** A delta and its line's other fields (the delta may be among them: what is written takes `delta`). */
type DeltaLine = { fields: Json; delta: string; original?: Original };
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

const originalOf = (item: LogItem): Original | undefined => (item.raw === undefined ? undefined : (item as Original));
/** A line whose type, among its first characters, is one beside the text (events.ts BESIDE_TEXT). */
const BESIDE_TEXT_TYPE = new RegExp(`"type"\\s*:\\s*"(?:${[...BESIDE_TEXT].join('|')})"`);
const mayBeBesideText = (raw: string): boolean => BESIDE_TEXT_TYPE.test(raw.length > 512 ? raw.slice(0, 512) : raw);
/** A line's runId, when written plainly (no escape) among its first characters; undefined otherwise. */
const PLAIN_RUN_ID = /"runId"\s*:\s*"([^"\\]*)"/;
const plainRunIdOf = (raw: string): string | undefined => PLAIN_RUN_ID.exec(raw.length > 512 ? raw.slice(0, 512) : raw)?.[1];
const isDelta = (value: Json): boolean => isDeltaEvent(value) && typeof value.delta === 'string';

/**
 * Delta text held unscanned before a run's deltas go through the stream redactor anyway: what a log redactor
 * keeps of a segment (its lines) is bounded by this, whatever the log.
 */
const DEFERRED_CHARS = 64 * 1024;

/**
 * One run's text and reasoning deltas through a stream redactor per kind (createStreamRedactor),
 * which may hold back a tail and re-split deltas, one kind at a time. While what it releases
 * is exactly the text that came in, the original lines are written as they were
 * (byte-identical); once a redaction changes the text, what it releases is written as
 * events shaped like the run's own (same keys, same order, same schemaVersion and runId)
 * until the next flush point realigns them. A delta of the other kind is such a point: what
 * the held kind holds goes out first.
 *
 * The deltas of a segment (from one flush point to the next) are first only kept: nothing else goes out
 * before the segment ends (every other line is a flush point), so when redactText leaves the segment's whole
 * text as it is (so would the stream redactor, whose output is redactText of its input), its lines go out as
 * they came, and no delta is pushed through the stream redactor. A segment with a secret, or one that grows
 * past DEFERRED_CHARS, goes through it delta by delta, as it came: the same output either way.
 */
function createRunDeltas(options: RedactOptions) {
  // made when a segment first needs one: most runs of a log never do (their deltas go out as they came)
  const streams: Partial<Record<DeltaKind, StreamRedactor>> = {};
  const streamOf = (kind: DeltaKind) => (streams[kind] ??= createStreamRedactor(options));
  /** The kind of the deltas being matched. */
  let kind: DeltaKind | undefined;
  let queue: DeltaLine[] = [];
  let released = '';
  let resplit = false;
  let template: Json = {};
  /** The segment's deltas not pushed yet, while `live` is false. */
  let deferred: DeltaLine[] = [];
  /** Lines beside the text (a heartbeat, a usage) that came among the deferred deltas: before deferred[before]. */
  let asides: { before: number; line: string | Buffer }[] = [];
  let deferredChars = 0;
  let live = false;

  const shaped = (delta: string) => jsonLine({ ...template, delta });
  const asCame = (line: DeltaLine) => (line.original ? asRead(line.original) : jsonLine({ ...line.fields, delta: line.delta }));

  /** Original deltas fully covered by the released text go out as they were; a difference switches to re-split mode. */
  const match = (out: Lines) => {
    while (queue.length > 0) {
      const first = queue[0]!;
      if (startsWithText(released, first.delta)) {
        out.push(asCame(first));
        released = released.slice(first.delta.length);
        queue.shift();
      } else if (startsWithText(first.delta, released)) {
        return;
      } else {
        // A redaction changed the text: from here to the next flush point, write what is released.
        out.push(shaped(released));
        released = '';
        queue = [];
        resplit = true;
        return;
      }
    }
  };

  /** Text of the current kind the redactor let go of. */
  const take = (text: string, out: Lines) => {
    if (resplit) {
      if (text) out.push(shaped(text));
      return;
    }
    released += text;
    match(out);
  };

  /** One delta of the current kind through its stream redactor. */
  const push = (line: DeltaLine, out: Lines) => {
    template = line.fields;
    if (!resplit) queue.push(line);
    take(streamOf(kind!).push(line.delta), out);
  };

  /** The segment's kept deltas through the stream redactor, and the rest of it as it comes. */
  const goLive = (out: Lines) => {
    live = true;
    const lines = deferred;
    deferred = [];
    deferredChars = 0;
    inOrder(lines, out, (line) => push(line, out));
  };

  /** The kept deltas, each through `each`, with the lines beside the text where they came among them. */
  const inOrder = (lines: DeltaLine[], out: Lines, each: (line: DeltaLine) => void) => {
    let next = 0;
    for (const [index, line] of lines.entries()) {
      while (next < asides.length && asides[next]!.before === index) out.push(asides[next++]!.line);
      each(line);
    }
    while (next < asides.length) out.push(asides[next++]!.line);
    asides = [];
  };

  /** A flush point: everything held is released, and the run starts afresh. */
  const settle = (out: Lines) => {
    if (!live && deferred.length > 0) {
      const text = deferred.map((line) => line.delta).join('');
      if (redactText(text, options) !== text) goLive(out);
      else inOrder(deferred, out, (line) => out.push(asCame(line)));
      deferred = [];
      deferredChars = 0;
    }
    if (kind && live) take(streamOf(kind).flush(), out);
    if (released) out.push(shaped(released));
    released = '';
    queue = [];
    resplit = false;
    kind = undefined;
    live = false;
  };

  return {
    delta(fields: Json, delta: string, original: Original | undefined, out: Lines) {
      const type = fields.type as DeltaKind;
      if (type !== kind) settle(out);
      kind = type;
      const line: DeltaLine = { fields, delta, original };
      if (live) return push(line, out);
      deferred.push(line);
      deferredChars += line.delta.length;
      if (deferredChars > DEFERRED_CHARS) goLive(out);
    },
    /**
     * A line beside the text (a heartbeat, a usage, a warning): the text goes on after it. Kept in its place among
     * the kept deltas; once they went through the stream redactor, it goes out at once, ahead of what is held.
     */
    aside(line: string | Buffer, out: Lines) {
      if (live || deferred.length === 0) out.push(line);
      else asides.push({ before: deferred.length, line });
    },
    /** Any other event of this run: the held-back deltas first, then the event, redacted. */
    other(event: Json, out: Lines): Json {
      settle(out);
      return redactEvent(event, options);
    },
    end: settle,
  };
}

/**
 * A log, item by item → the same log with every secret redacted (docs/protocol.md §4).
 * A line the prefilter proves clean is written as it was, without parse or
 * serialise, unless a run's deltas are held back (then it keeps its place after
 * them); a line that is not JSON is redacted as text and kept.
 */
export function createLogRedactor(options: RedactOptions = {}): Step<LogItem | LogLine, string | Buffer> {
  // Only runs with deltas held back: a run that flushed holds nothing (its next delta starts it afresh), and
  // forgetting it keeps each line's cost flat in a log of thousands of runs.
  const runs = new Map<string, ReturnType<typeof createRunDeltas>>();
  /** The run the last delta was of (almost every line's run): looked up without the map. */
  let last: { runId: string; run: ReturnType<typeof createRunDeltas> } | undefined;
  const runOf = (runId: string) => {
    if (last?.runId === runId) return last.run;
    let run = runs.get(runId);
    if (!run) runs.set(runId, (run = createRunDeltas(options)));
    last = { runId, run };
    return run;
  };
  const forget = (runId: string) => {
    runs.delete(runId);
    if (last?.runId === runId) last = undefined;
  };
  /** Held-back deltas of every run but `except` go out first: output keeps the order of the input. */
  const flushOthers = (out: Lines, except?: string) => {
    if (runs.size === 0 || (runs.size === 1 && except !== undefined && last?.runId === except)) return;
    for (const [runId, run] of runs) {
      if (runId === except) continue;
      run.end(out);
      forget(runId);
    }
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
  /** The last delta line beginning read the fast way, judged once: a run's deltas all begin alike. */
  let judged: { head: string; clean: boolean; fields: Json; asCame: boolean } | undefined;
  /** A delta into its run's redactor, after what the other runs held back. */
  const toRun = (fields: Json, delta: string, original: Original | undefined, out: Lines) => {
    const runId = typeof fields.runId === 'string' ? fields.runId : '';
    flushOthers(out, runId);
    runOf(runId).delta(fields, delta, original, out);
  };
  /** The emit as Lines, made once: a stream passes the same emit for every line. */
  let lines: { emit: (line: string | Buffer) => void; out: Lines } | undefined;
  const linesOf = (emit: (line: string | Buffer) => void): Lines => (lines?.emit === emit ? lines.out : (lines = { emit, out: { push: emit } }).out);
  const redactor: Step<LogItem | LogLine, string | Buffer> = {
    write(line, emit) {
      const out = linesOf(emit);
      const raw = line.raw;
      if ('problem' in line) {
        flushOthers(out);
        out.push(mayContainSecret(line.raw, options) ? `${redactText(line.raw, options)}\n` : asRead(line));
        return;
      }
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
      // A clean line that is no delta is written as it came, unparsed, after what the runs held back; one beside a
      // run's text (a heartbeat, a usage) keeps its place among that run's deltas, the text going on after it.
      if (raw !== undefined && isCleanOther(raw, options)) {
        const beside = runs.size > 0 && mayBeBesideText(raw) ? plainRunIdOf(raw) : undefined;
        const run = beside === undefined ? undefined : runs.get(beside);
        if (run) {
          flushOthers(out, beside);
          return run.aside(asRead(line as Original), out);
        }
        flushOthers(out);
        out.push(asRead(line as Original));
        return;
      }
      const item = 'value' in line ? line : lineItem(line);
      if ('problem' in item) return redactor.write(item, emit);
      const { value } = item;
      if (isJsonObject(value) && typeof value.type === 'string') {
        if (isDelta(value)) {
          const { fields, asCame } = fieldsOf(value, plainDelta(value));
          return toRun(fields, value.delta as string, asCame ? originalOf(item) : undefined, out);
        }
        const runId = typeof value.runId === 'string' ? value.runId : '';
        flushOthers(out, runId);
        const run = runs.get(runId);
        if (run && BESIDE_TEXT.has(value.type)) {
          const redacted = redactEvent(value, options);
          return run.aside(redacted === value && item.raw !== undefined ? asRead(item as Original) : jsonLine(redacted), out);
        }
        const redacted = run ? run.other(value, out) : redactEvent(value, options);
        forget(runId);
        out.push(redacted === value && item.raw !== undefined ? asRead(item as Original) : jsonLine(redacted));
        return;
      }
      flushOthers(out);
      const redacted = isJsonObject(value) ? redactEvent(value, options) : redactValue(value, options);
      const same = redacted === value || (!isJsonObject(value) && JSON.stringify(redacted) === JSON.stringify(value));
      out.push(same && item.raw !== undefined ? asRead(item as Original) : jsonLine(redacted));
    },
    end(emit) {
      flushOthers({ push: emit });
    },
  };
  return redactor;
}
