import type { Event } from '../protocol/types.js';
import type { Step } from '../streams.js';

// The redact, stamp and serialize stages take output events. Given something else (a line not yet parsed, a
// misspelt type) they would pass it on as if it were one: a string serialized as {"0":"a",…}, an unknown
// type unredacted where a known one would be. They refuse it instead, at the cost of a typeof and a Set lookup.

/** Every output event type of both schema versions; the compiler holds the list to the Event type. */
const TYPES: Record<Event['type'], true> = {
  run_start: true,
  text: true,
  reasoning: true,
  tool_call: true,
  checkpoint: true,
  permission_request: true,
  permission_decision: true,
  tool_result: true,
  usage: true,
  final: true,
  warning: true,
  error: true,
  turn_start: true,
  turn_end: true,
  heartbeat: true,
  run_end: true,
};
export const OUTPUT_EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(TYPES));

/** What the item is, without its content (which may hold a secret). */
function describe(item: unknown): string {
  if (typeof item === 'string' || item instanceof Uint8Array) return `${typeof item === 'string' ? 'a string' : 'bytes'}: parse lines into events first (split → parse → validate('output'))`;
  if (item === null) return 'null';
  if (typeof item !== 'object') return `a ${typeof item}`;
  if (Array.isArray(item)) return 'an array';
  const type = (item as { type?: unknown }).type;
  if (typeof type !== 'string') return 'an object without a string type';
  return `an event of unknown type ${JSON.stringify(type.length > 40 ? `${type.slice(0, 40)}…` : type)}`;
}

/** The item, if it is an output event this stage can take; else a TypeError that says what the stage takes. */
export function checkEvent(stage: string, item: unknown): void {
  if (typeof item === 'object' && item !== null && OUTPUT_EVENT_TYPES.has((item as { type?: unknown }).type as string)) return;
  throw new TypeError(`The ${stage} stage takes output events (objects whose type is one of ${[...OUTPUT_EVENT_TYPES].join(', ')}), not ${describe(item)}.`);
}

/** The step, refusing anything but an output event before it sees it. */
export function guardStep<In extends object, Out>(stage: string, step: Step<In, Out>): Step<In, Out> {
  return {
    write(item, emit) {
      checkEvent(stage, item);
      step.write(item, emit);
    },
    end: step.end ? (emit) => step.end!(emit) : undefined,
  };
}
