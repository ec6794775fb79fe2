import type { Event } from '../protocol/types.js';
import type { Step } from '../streams.js';

/**
 * What a model's first deltas look like: prose, code and a path, a newline; nothing a rule wakes on, whose code only
 * a delta that needs it should pay for.
 */
const DELTAS = ['Here is', ' the fix, in `lib/run.ts`:', ' run it.\n'];

/**
 * A step that passes events on as they are and, once `run_start` has gone out, runs made-up text deltas through
 * `copy()`: a throwaway instance of the chain's own steps, whose output is dropped. run_start is written when the
 * model's response begins, its first text tens to hundreds of ms later; until a delta has run through the stream
 * redactor, the stamp and the serializer, their code is compiled on the first real one, which then reaches stdout
 * milliseconds late. The copy writes nowhere and keeps nothing: no stdout, no session, no stderr. Each delta is
 * a turn of the event loop of its own, so a chunk that arrives meanwhile waits for one at most.
 */
export function warmUpStep(copy: () => Step<Event, unknown>): Step<Event, Event> {
  let started = false;
  return {
    write(event, emit) {
      emit(event);
      if (started || event.type !== 'run_start') return;
      started = true;
      // after run_start's own bytes are out, in the wait for the model's first text
      setImmediate(() => warmUp(copy(), 0));
    },
  };
}

function warmUp(step: Step<Event, unknown>, index: number): void {
  const drop = () => {};
  if (index === DELTAS.length) return step.end?.(drop);
  step.write({ type: 'text', delta: DELTAS[index]! }, drop);
  setImmediate(warmUp, step, index + 1);
}
