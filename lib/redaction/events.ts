import type { Event, TextEvent } from '../protocol/types.js';
import { createStreamRedactor } from './stream.js';
import type { RedactOptions } from './text.js';
import { redactEvent } from './value.js';

export type EventRedactor = {
  /** One event in; the events to write now (a text delta may be held back, or released before another event). */
  event(event: Event): Event[];
  /** What is still held back, at the end of the stream. */
  end(): Event[];
};

/**
 * Redacts a run's events: consecutive `text` deltas through the streaming
 * redactor (so a secret split across them cannot leak, and no empty delta is
 * written), every other event on its own, after the held-back text. A
 * re-split delta keeps every other field of the latest text event
 * (`schemaVersion`, `runId`, …): only `delta` changes.
 */
export function createEventRedactor(options: RedactOptions = {}): EventRedactor {
  const text = createStreamRedactor(options);
  let template: TextEvent = { type: 'text', delta: '' };
  const released = (delta: string): Event[] => (delta ? [{ ...template, delta }] : []);
  return {
    event(event) {
      if (event.type === 'text') {
        template = event;
        return released(text.push(event.delta));
      }
      return [...released(text.flush()), redactEvent(event, options)];
    },
    end: () => released(text.flush()),
  };
}
