import { createEventRedactor, isDeltaEvent, type EventRedactor } from '../redaction/events.js';
import { mayContainSecret, redactEvent, redactText, redactValue, type RedactOptions } from '../redaction/index.js';
import type { Event } from '../protocol/types.js';
import type { Step } from '../streams.js';
import type { LogItem } from './framing.js';
import { jsonLine } from '../output/serializer.js';
import { isJsonObject } from '../protocol/validate.js';

type Json = Record<string, unknown>;
type DeltaLine = { event: Json; delta: string; raw?: string };
/** Where lines go: an array, or a step's emit. */
type Lines = { push(line: string): unknown };

/** The events whose deltas are one text in pieces, redacted as one (docs/protocol.md §4): the answer and the reasoning. */
const MAYBE_DELTA = /"type"\s*:\s*"(?:text|reasoning)"/;
const isDelta = (value: Json): boolean => isDeltaEvent(value) && typeof value.delta === 'string';

/**
 * One run's text and reasoning deltas through its own event redactor (createEventRedactor),
 * which may hold back a tail and re-split deltas, one kind at a time. While what it releases
 * is exactly the text that came in, the original lines are written as they were
 * (byte-identical); once a redaction changes the text, what it releases is written as
 * events shaped like the run's own (same keys, same order, same schemaVersion and runId)
 * until the next flush point realigns them. A delta of the other kind is such a point: the
 * redactor releases the held kind first.
 */
function createRunDeltas(options: RedactOptions) {
  const redactor: EventRedactor = createEventRedactor(options);
  /** The type of the deltas being matched. */
  let kind: unknown;
  let queue: DeltaLine[] = [];
  let released = '';
  let resplit = false;
  let template: Json = {};

  const shaped = (delta: string) => jsonLine({ ...template, delta });

  /** Original deltas fully covered by the released text go out as they were; a difference switches to re-split mode. */
  const match = (out: Lines) => {
    while (queue.length > 0) {
      const first = queue[0]!;
      if (released.startsWith(first.delta)) {
        out.push(first.raw !== undefined ? `${first.raw}\n` : jsonLine(first.event));
        released = released.slice(first.delta.length);
        queue.shift();
      } else if (first.delta.startsWith(released)) {
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

  /** The deltas of the current kind the redactor let go of, in order. */
  const take = (events: Event[], out: Lines) => {
    for (const event of events) {
      if (event.type !== kind) continue;
      if (resplit) out.push(shaped((event as { delta: string }).delta));
      else released += (event as { delta: string }).delta;
    }
    if (!resplit) match(out);
  };

  /** At a flush point everything has been released: the run starts afresh. */
  const realign = (out: Lines) => {
    if (released) out.push(shaped(released));
    released = '';
    queue = [];
    resplit = false;
  };

  return {
    delta(event: Json, raw: string | undefined, out: Lines) {
      const results = redactor.event(event as unknown as Event);
      if (event.type !== kind) {
        // what was held of the other kind comes first in the results
        take(results, out);
        realign(out);
        kind = event.type;
      }
      template = event;
      if (!resplit) queue.push({ event, delta: event.delta as string, raw });
      take(results, out);
    },
    /** Any other event of this run: the held-back deltas first, then the event, redacted. */
    other(event: Json, out: Lines): Json {
      const results = redactor.event(event as unknown as Event);
      take(results.slice(0, -1), out);
      realign(out);
      return results.at(-1) as unknown as Json;
    },
    end(out: Lines) {
      take(redactor.end(), out);
      realign(out);
    },
  };
}

/**
 * A log, item by item → the same log with every secret redacted (docs/protocol.md §4).
 * A line the prefilter proves clean is written as it was, without parse or
 * serialise, unless a run's deltas are held back (then it keeps its place after
 * them); a line that is not JSON is redacted as text and kept.
 */
export function createLogRedactor(options: RedactOptions = {}): Step<LogItem, string> {
  // Only runs with deltas held back: a run that flushed holds nothing (its next delta starts it afresh), and
  // forgetting it keeps each line's cost flat in a log of thousands of runs.
  const runs = new Map<string, ReturnType<typeof createRunDeltas>>();
  const runOf = (runId: string) => {
    let run = runs.get(runId);
    if (!run) runs.set(runId, (run = createRunDeltas(options)));
    return run;
  };
  /** Held-back deltas of every run but `except` go out first: output keeps the order of the input. */
  const flushOthers = (out: Lines, except?: string) => {
    for (const [runId, run] of runs) {
      if (runId === except) continue;
      run.end(out);
      runs.delete(runId);
    }
  };
  const anyPending = () => runs.size > 0;

  return {
    write(item, emit) {
      const out = { push: emit };
      const clean = item.raw !== undefined && !mayContainSecret(item.raw, options);
      if ('problem' in item) {
        flushOthers(out);
        out.push(`${clean ? item.raw : redactText(item.raw, options)}\n`);
        return;
      }
      // A delta always goes through its run's redactor: a clean one may hold the start of a secret the next one ends.
      if (clean && !anyPending() && !MAYBE_DELTA.test(item.raw!)) {
        out.push(`${item.raw}\n`);
        return;
      }
      const { value } = item;
      if (isJsonObject(value) && typeof value.type === 'string') {
        const runId = typeof value.runId === 'string' ? value.runId : '';
        flushOthers(out, runId);
        if (isDelta(value)) {
          // its other fields (a hand-edited runId, schemaVersion) are redacted on their own; the raw line is then unusable
          const fields: Json = redactEvent({ ...value, delta: '' }, options);
          const changed = Object.keys(value).some((key) => key !== 'delta' && fields[key] !== value[key]);
          runOf(runId).delta(changed ? { ...fields, delta: value.delta } : value, changed ? undefined : item.raw, out);
          return;
        }
        const run = runs.get(runId);
        const redacted = run ? run.other(value, out) : redactEvent(value, options);
        runs.delete(runId);
        out.push(redacted === value && item.raw !== undefined ? `${item.raw}\n` : jsonLine(redacted));
        return;
      }
      flushOthers(out);
      const redacted = isJsonObject(value) ? redactEvent(value, options) : redactValue(value, options);
      const same = redacted === value || (!isJsonObject(value) && JSON.stringify(redacted) === JSON.stringify(value));
      out.push(same && item.raw !== undefined ? `${item.raw}\n` : jsonLine(redacted));
    },
    end(emit) {
      flushOthers({ push: emit });
    },
  };
}
