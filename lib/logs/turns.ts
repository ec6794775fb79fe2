/**
 * What a model turn is in a log (docs/protocol.md §3.3), for every tool that counts or shows turns (zero stats,
 * zero render). A turn is one provider call of the agent loop (lib/agent/loop.ts): the model's reasoning, text
 * and usage, then the tool calls it asked for, run one by one, each answered by its result. The next turn starts
 * with the next reasoning, text, usage or final after those results. A log does not mark turns, so:
 *
 * - the run's first turn starts with the first of these events, or with a tool_call or a final;
 * - a tool_call after a tool_result is the same turn's next call (a turn of tool calls alone, with no text and no
 *   usage, cannot be told from the turn before it, and is counted with it);
 * - a final right after tool results is a turn of its own (the model answered nothing), except at the turn limit:
 *   there the loop writes final with the last turn's text and then the limit's error (§3.4: `max_turns`, in
 *   version 2 `incomplete`), or in a conversation `turn_end {status: "incomplete"}` (§12), and that final is no turn;
 * - in a conversation (--multi-turn, §12), a user turn's `turn_start` and `turn_end` end the model turn going on:
 *   the next user turn's first reasoning, text, usage, tool_call or final starts a model turn.
 */

/** The error codes of the turn limit (§3.4): version 1, version 2. */
const TURN_LIMIT = new Set<unknown>(['max_turns', 'incomplete']);

const MODEL_OUTPUT = new Set<unknown>(['reasoning', 'text', 'usage']);

export type TurnCounter = {
  /** One event of the run, in order: true when it starts a new turn (whose number is then `turns`). */
  starts(event: { type?: unknown; code?: unknown; status?: unknown }): boolean;
  /** The run's turns so far. */
  readonly turns: number;
};

export function createTurnCounter(): TurnCounter {
  let turns = 0;
  /** before: no turn yet; model: in a turn, no result since it started; results: its tool results have come. */
  let phase: 'before' | 'model' | 'results' = 'before';
  /** The last event was a final that started a turn after results: the turn limit would take it back. */
  let finalAfterResults = false;
  const start = () => {
    turns += 1;
    phase = 'model';
    return true;
  };
  return {
    starts({ type, code, status }) {
      const limit = (type === 'error' && TURN_LIMIT.has(code)) || (type === 'turn_end' && status === 'incomplete');
      const takeBack = finalAfterResults && limit;
      finalAfterResults = false;
      if (takeBack) turns -= 1;
      if (type === 'turn_start' || type === 'turn_end') {
        phase = 'before';
        return false;
      }
      if (MODEL_OUTPUT.has(type)) return phase === 'model' ? false : start();
      if (type === 'tool_call') return phase === 'before' ? start() : false;
      if (type === 'tool_result' && phase !== 'before') phase = 'results';
      if (type === 'final' && phase !== 'model') {
        finalAfterResults = phase === 'results';
        return start();
      }
      return false;
    },
    get turns() {
      return turns;
    },
  };
}
