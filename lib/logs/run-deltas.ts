import { createStreamRedactor, type StreamRedactor } from '../redaction/stream.js';
import { redactText, type RedactOptions } from '../redaction/index.js';
import { startsWithText } from '../strings.js';
import type { DeltaKind } from './delta-line.js';

type Json = Record<string, unknown>;
/** A delta and its event's other fields (the delta may be among them: what is written takes `delta`); `original`: the event as it came (its line, say). */
type DeltaItem<O> = { fields: Json; delta: string; original?: O };
/** Where what is written goes: an array, or a step's emit. */
export type Out<T> = { push(item: T): unknown };

/** How a run's deltas are written: as they came, or re-split, as deltas shaped like the run's own. */
export type DeltaWriter<O, T> = {
  asCame(item: DeltaItem<O>): T;
  shaped(template: Json, delta: string): T;
};

export type RunDeltas<O, T> = {
  /** A text or reasoning delta of the run. */
  delta(fields: Json, delta: string, original: O | undefined, out: Out<T>): void;
  /**
   * Something that is no part of the run's text (a heartbeat or a usage of the run; another run's line, a line
   * that is no event): the text goes on after it. Kept in its place among the run's kept deltas, so that a clean
   * log comes out in its order; once they went through the stream redactor, it goes out at once, ahead of what
   * is held.
   */
  aside(item: T, out: Out<T>): void;
  /** Any other event of the run (a tool call, a final, run_end): what is held goes out first. */
  settle(out: Out<T>): void;
  /** Whether it keeps deltas not yet looked at (then an aside keeps its place among them). */
  readonly deferring: boolean;
};

/** One kind's text through its stream redactor, and the original deltas its released text is matched against. */
type KindText<O> = { stream?: StreamRedactor; queue: DeltaItem<O>[]; released: string; resplit: boolean; template: Json };
const KINDS: readonly DeltaKind[] = ['reasoning', 'text'];

/**
 * One run's text and reasoning deltas, each kind one text through a stream redactor of its own
 * (createStreamRedactor), which may hold back a tail and re-split deltas: a delta of the other kind, or a line
 * beside the text, does not end it (a secret split around one is caught). While what a redactor releases is
 * exactly the text that came in, the original deltas are written as they came; once a redaction changes the
 * text, what it releases is written as deltas shaped like the run's own until the next settle realigns them.
 *
 * The deltas of a segment (from one settle to the next) are first only kept, the asides in their place among
 * them: when redactText leaves each kind's whole text as it is (so would the stream redactor, whose output is
 * redactText of its input), they go out as they came, in order, and no delta is pushed through a stream
 * redactor. A segment with a secret, or one whose kept characters pass `cap()`, goes through it delta by delta,
 * as it came: the same output either way.
 */
export function createRunDeltas<O, T>(options: RedactOptions, writer: DeltaWriter<O, T>, cap: () => number, sizeOf: (item: T) => number): RunDeltas<O, T> {
  const kinds: Partial<Record<DeltaKind, KindText<O>>> = {};
  const kindOf = (kind: DeltaKind): KindText<O> => (kinds[kind] ??= { queue: [], released: '', resplit: false, template: {} });
  let deferred: DeltaItem<O>[] = [];
  /** Asides that came among the deferred deltas: before deferred[before]. */
  let asides: { before: number; item: T }[] = [];
  let deferredChars = 0;
  let live = false;

  /** Original deltas fully covered by the released text go out as they were; a difference switches to re-split mode. */
  const match = (text: KindText<O>, out: Out<T>) => {
    while (text.queue.length > 0) {
      const first = text.queue[0]!;
      if (startsWithText(text.released, first.delta)) {
        out.push(writer.asCame(first));
        text.released = text.released.slice(first.delta.length);
        text.queue.shift();
      } else if (startsWithText(first.delta, text.released)) {
        return;
      } else {
        // A redaction changed the text: from here to the next settle, write what is released.
        out.push(writer.shaped(text.template, text.released));
        text.released = '';
        text.queue = [];
        text.resplit = true;
        return;
      }
    }
  };

  /** Text of a kind its redactor let go of. */
  const take = (text: KindText<O>, released: string, out: Out<T>) => {
    if (text.resplit) {
      if (released) out.push(writer.shaped(text.template, released));
      return;
    }
    text.released += released;
    match(text, out);
  };

  /** One delta through its kind's stream redactor. */
  const push = (item: DeltaItem<O>, out: Out<T>) => {
    const text = kindOf(item.fields.type as DeltaKind);
    text.template = item.fields;
    if (!text.resplit) text.queue.push(item);
    take(text, (text.stream ??= createStreamRedactor(options)).push(item.delta), out);
  };

  /** The kept deltas, each through `each`, with the asides where they came among them. */
  const inOrder = (items: DeltaItem<O>[], out: Out<T>, each: (item: DeltaItem<O>) => void) => {
    let next = 0;
    for (const [index, item] of items.entries()) {
      while (next < asides.length && asides[next]!.before === index) out.push(asides[next++]!.item);
      each(item);
    }
    while (next < asides.length) out.push(asides[next++]!.item);
    asides = [];
  };

  /** The segment's kept deltas through the stream redactors, and the rest of it as it comes. */
  const goLive = (out: Out<T>) => {
    live = true;
    const items = deferred;
    deferred = [];
    deferredChars = 0;
    inOrder(items, out, (item) => push(item, out));
  };

  const keep = (chars: number, out: Out<T>) => {
    deferredChars += chars;
    if (deferredChars > cap()) goLive(out);
  };

  /** Whether redactText leaves each kind's text of the kept deltas as it is. */
  const deferredClean = (): boolean => {
    let text = '';
    let reasoning = '';
    for (const item of deferred) {
      if (item.fields.type === 'reasoning') reasoning += item.delta;
      else text += item.delta;
    }
    return (!text || redactText(text, options) === text) && (!reasoning || redactText(reasoning, options) === reasoning);
  };

  return {
    delta(fields, delta, original, out) {
      const item: DeltaItem<O> = { fields, delta, original };
      if (live) return push(item, out);
      deferred.push(item);
      keep(delta.length, out);
    },
    aside(item, out) {
      if (live || deferred.length === 0) return void out.push(item);
      asides.push({ before: deferred.length, item });
      keep(sizeOf(item), out);
    },
    settle(out) {
      if (!live && deferred.length > 0) {
        if (!deferredClean()) goLive(out);
        else inOrder(deferred, out, (item) => out.push(writer.asCame(item)));
      }
      deferred = [];
      asides = [];
      deferredChars = 0;
      for (const kind of KINDS) {
        const text = kinds[kind];
        if (!text) continue;
        if (live && text.stream) take(text, text.stream.flush(), out);
        if (text.released) out.push(writer.shaped(text.template, text.released));
        // its stream redactor, flushed, starts afresh: kept for the run's next segment
        Object.assign(text, { queue: [], released: '', resplit: false });
      }
      live = false;
    },
    get deferring() {
      return !live && deferred.length > 0;
    },
  };
}
