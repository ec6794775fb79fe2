import type { Event, ReasoningEvent, TextEvent } from '../protocol/types.js';
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
 * Redacts a run's events: consecutive `text` deltas through the streaming
 * redactor (so a secret split across them cannot leak, and no empty delta is
 * written), consecutive `reasoning` deltas likewise, every other event on
 * its own, after the held-back deltas. Any event other than the next delta
 * of the same kind releases what is held first, so the order of events is
 * kept. A re-split delta keeps every other field of the latest event of its
 * kind (`schemaVersion`, `runId`, …): only `delta` changes.
 */
export function createEventRedactor(options: RedactOptions = {}): EventRedactor {
  let held: { redactor: StreamRedactor; template: DeltaEvent } | undefined;
  const redactors = new Map<DeltaEvent['type'], StreamRedactor>();
  const redactorFor = (type: DeltaEvent['type']) => {
    let redactor = redactors.get(type);
    if (!redactor) redactors.set(type, (redactor = createStreamRedactor(options)));
    return redactor;
  };
  const released = (template: DeltaEvent, delta: string): Event[] => (delta ? [{ ...template, delta }] : []);
  const release = (): Event[] => {
    if (!held) return [];
    const { redactor, template } = held;
    held = undefined;
    return released(template, redactor.flush());
  };
  return {
    event(event) {
      if (!isDeltaEvent(event)) return [...release(), redactEvent(event, options)];
      const before = held && held.template.type !== event.type ? release() : undefined;
      const redactor = held?.redactor ?? redactorFor(event.type);
      held = { redactor, template: event };
      const now = released(event, redactor.push(event.delta));
      return before?.length ? [...before, ...now] : now;
    },
    end: release,
  };
}

/** The redact stage's step: a run's events, redacted (see createEventRedactor). */
export function redactStep(options: RedactOptions = {}): Step<Event, Event> {
  const redactor = createEventRedactor(options);
  return {
    write: (event, emit) => redactor.event(event).forEach(emit),
    end: (emit) => redactor.end().forEach(emit),
  };
}
