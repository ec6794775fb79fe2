import type { Event, FinalEvent, ReasoningEvent, TextEvent } from '../protocol/types.js';
import { createStreamRedactor, type StreamRedactor } from './stream.js';
import type { RedactOptions } from './text.js';
import { redactEvent } from './value.js';
import type { Step } from '../streams.js';

export type EventRedactor = {
  /** One event in; the events to write now (a delta may be held back, or released before another event). */
  event(event: Event): Event[];
  /** What is still held back, at the end of the stream. */
  end(): Event[];
};

type DeltaEvent = TextEvent | ReasoningEvent;

/** The events whose `delta`s are one text in pieces: the answer, and the model's reasoning (docs/protocol.md §4). */
export const isDeltaEvent = (event: { type?: unknown }): event is DeltaEvent => event.type === 'text' || event.type === 'reasoning';

/**
 * Events that say nothing of the text around them (a heartbeat, a usage count, a warning): they go out at once,
 * and the deltas held back stay held, as the text they belong to goes on after them.
 */
export const BESIDE_TEXT: ReadonlySet<unknown> = new Set(['heartbeat', 'usage', 'warning']);

/**
 * Redacts a run's events: its `text` deltas through the streaming redactor
 * (so a secret split across them cannot leak, and no empty delta is
 * written), its `reasoning` deltas likewise as a text of their own, every
 * other event on its own, after the held-back deltas. Any event other than a
 * delta releases what is held first, so the order of events is kept; but a
 * heartbeat, usage or warning, or a delta of the other kind, goes out ahead of
 * what is held (releasing it would end the text there, and a secret split
 * around the event would go out in two harmless-looking pieces). A re-split delta keeps
 * every other field of the latest event of its kind (`schemaVersion`,
 * `runId`, …), redacted: only `delta` changes.
 */
export function createEventRedactor(options: RedactOptions = {}): EventRedactor {
  const step = redactStep(options);
  const collect = (run: (emit: (event: Event) => void) => void): Event[] => {
    const out: Event[] = [];
    run((event) => void out.push(event));
    return out;
  };
  return {
    event: (event) => collect((emit) => step.write(event, emit)),
    end: () => collect((emit) => step.end!(emit)),
  };
}

/** What the redact step does with a spooled `final`'s text. */
export type SpooledFinals = {
  /** Nobody reads the final's text (`-o text` without a session): it is not redacted, and the final goes on without it. */
  unread?: boolean;
  /** The run's cancellation: the text is cut where its redaction has got to (TextSpool.through). */
  cutOn?: AbortSignal;
};

/**
 * A spooled `final` (lib/files/text-spool.ts): its text through the stream redactor, which gives what redactText of
 * the whole gives, into a spool of its own, made piece by piece as its readers pull it.
 */
function redactSpooled({ spool, ...event }: FinalEvent, options: RedactOptions & SpooledFinals): FinalEvent {
  const redacted = redactEvent(event, options);
  return options.unread ? redacted : { ...redacted, spool: spool!.through(createStreamRedactor(options), options.cutOn) };
}

/**
 * A delta event with its other fields redacted (an embedding program's own, a run id): the delta is the stream
 * redactor's. A run's deltas carry the same fields, so the last verdict is kept while their values stay the same;
 * an event of `type` and `delta` alone, as the agent makes them, is looked at no further.
 */
function deltaFieldsRedactor(options: RedactOptions): (event: DeltaEvent) => DeltaEvent {
  let last: Record<string, unknown> | undefined;
  let lastCount = 0;
  let redacted: Record<string, unknown> | undefined;
  return (event) => {
    const fields = event as unknown as Record<string, unknown>;
    let count = 0;
    let same = last !== undefined;
    for (const key in fields) {
      if (key === 'delta') continue;
      count++;
      if (same && last![key] !== fields[key]) same = false;
    }
    if (count === 1) return event;
    if (!same || count !== lastCount) {
      const { delta: _delta, ...others } = fields;
      const out = redactEvent(others, options);
      last = others;
      lastCount = count;
      redacted = Object.keys(out).every((key) => out[key] === others[key]) ? undefined : out;
    }
    return redacted === undefined ? event : ({ ...redacted, delta: event.delta } as unknown as DeltaEvent);
  };
}

/** One kind of delta's text (the answer's, the reasoning's): its redactor, its latest delta event, whether it holds a text going on. */
type KindText = { redactor?: StreamRedactor; template?: DeltaEvent; open: boolean };

/**
 * The redact stage's step: a run's events, redacted, as createEventRedactor tells; each goes to `emit` as it is
 * released. The answer and the reasoning are two texts: a delta of one goes out ahead of what the other holds,
 * which goes on after it (a secret split around it is caught), as a heartbeat does.
 */
export function redactStep(options: RedactOptions & SpooledFinals = {}): Step<Event, Event> {
  const withFieldsRedacted = deltaFieldsRedactor(options);
  const text: KindText = { open: false };
  const reasoning: KindText = { open: false };
  const release = (kind: KindText, emit: (event: Event) => void) => {
    if (!kind.open) return;
    kind.open = false;
    const delta = kind.redactor!.flush();
    if (delta) emit({ ...kind.template!, delta });
  };
  return {
    write(event, emit) {
      if (!isDeltaEvent(event)) {
        if (!BESIDE_TEXT.has(event.type)) {
          release(reasoning, emit);
          release(text, emit);
        }
        return emit(event.type === 'final' && event.spool ? redactSpooled(event, options) : redactEvent(event, options));
      }
      const kind = event.type === 'text' ? text : reasoning;
      // another run's deltas (a log of several runs): another text
      if (kind.open && (kind.template as { runId?: unknown }).runId !== (event as { runId?: unknown }).runId) release(kind, emit);
      const delta = (kind.redactor ??= createStreamRedactor(options)).push(event.delta);
      const template = (kind.template = withFieldsRedacted(event));
      kind.open = true;
      if (delta) emit(delta === event.delta && template === event ? event : { ...template, delta });
    },
    end(emit) {
      release(reasoning, emit);
      release(text, emit);
    },
  };
}
