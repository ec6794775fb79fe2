import { createVersionScopes } from '../protocol/schema-version.js';
import { createEarliest } from './earliest.js';

/**
 * The protocol's order rules for a log (docs/protocol.md §3.3), per runId: run_start
 * first (or a failure before the start: error, then run_end, and nothing else),
 * exactly one run_end and nothing after it, every tool_call answered by
 * exactly one tool_result before the run goes on (a new turn or the end), one
 * runId and one schemaVersion per run, a run_end exitCode that agrees with its
 * status. Several runs in one log are fine, one after the other, and between them a session file's stored
 * prompts (input events, §6), which belong to no run.
 */

export type Problem = { lineNo: number; problem: string };

type Run = {
  runId: string;
  startLine: number;
  lastLine: number;
  ended: boolean;
  beforeStart: boolean;
  /** The calls waiting for their results: id → line. */
  open: Map<string, number>;
  /** The calls in the order they came, from `head` on; one answered since is skipped when the earliest is asked for. */
  calls: { id: string; line: number }[];
  head: number;
};

/**
 * The line of `run`'s earliest call still waiting. A Map's first entry is found by walking past every entry
 * deleted before it, which was quadratic over 100,000 calls answered in order (200,000: 20 s).
 */
function earliestCall(run: Run): number {
  const { calls } = run;
  while (run.head < calls.length && run.open.get(calls[run.head]!.id) !== calls[run.head]!.line) run.head++;
  if (run.head > 1024 && run.head * 2 > calls.length) {
    calls.splice(0, run.head);
    run.head = 0;
  }
  return run.head < calls.length ? calls[run.head]!.line : run.lastLine;
}

/** No call of `run` is waiting any more. */
function noCallsOpen(run: Run): void {
  run.open.clear();
  run.calls.length = 0;
  run.head = 0;
}

/**
 * Events that may come while tool calls are still unanswered: more calls of the same turn, their results, notices, heartbeats,
 * and what happens around a call before its result (a checkpoint before it runs, the permission it needs).
 */
const MAY_WAIT = new Set(['tool_call', 'tool_result', 'warning', 'usage', 'error', 'checkpoint', 'permission_request', 'permission_decision', 'heartbeat']);

/** §3.3 rule 8: the exit codes each status goes with (interrupted: 141 too, when stdout's reader went away, §3.4). */
const EXIT_CODES = new Map<unknown, { agrees: (code: number) => boolean; expected: string }>([
  ['success', { agrees: (code) => code === 0, expected: '0' }],
  ['error', { agrees: (code) => code !== 0, expected: 'not 0' }],
  ['incomplete', { agrees: (code) => code === 4, expected: '4' }],
  ['interrupted', { agrees: (code) => code === 130 || code === 141, expected: '130, or 141 when stdout is gone' }],
]);

/** A run_end whose exitCode disagrees with its status (an unknown status or a missing field is the schema's to report). */
function exitCodeProblem(event: Record<string, unknown>): string | undefined {
  const rule = EXIT_CODES.get(event.status);
  if (!rule || typeof event.exitCode !== 'number' || rule.agrees(event.exitCode)) return undefined;
  return `run_end exitCode ${event.exitCode} does not agree with status ${event.status} (expected ${rule.expected})`;
}

export type InvariantChecker = {
  /** One event (any object: schema problems are reported elsewhere) and the line it starts on. */
  event(event: Record<string, unknown>, lineNo: number): Problem[];
  /** A stored prompt (an input event) and its line: it must come between runs. */
  prompt(type: string, lineNo: number): Problem[];
  /** The problems only the end of the log reveals (a run that never ended). */
  end(): Problem[];
  /**
   * The earliest line a problem may still be found at, by what is open: a run that has not ended (its
   * run_end missing, at its last line) and the calls waiting for their results. Infinity when nothing is.
   */
  openFrom(): number;
  /** The run ids seen so far, in order of appearance. */
  readonly runIds: string[];
};

/** `label`: how a message names another line (`line 3`, or `line 3 of b.jsonl` in a log of several files). */
export function createInvariantChecker(label: (lineNo: number) => string = (lineNo) => `line ${lineNo}`): InvariantChecker {
  const runs = new Map<string, Run>();
  const runIds: string[] = [];
  const versions = createVersionScopes((runId) => `run ${runId}`);
  /** The run that is going on: started, not ended. */
  let current: Run | undefined;
  const open = createEarliest<Run>((run) => (run.ended ? undefined : run.open.size === 0 ? run.lastLine : earliestCall(run)));

  const unanswered = (run: Run, what: string): Problem[] => {
    if (run.open.size === 0) return [];
    const problems = [...run.open].map(([id, line]) => ({ lineNo: line, problem: `run ${run.runId}: tool_call ${JSON.stringify(id)} has no tool_result before ${what}` }));
    noCallsOpen(run);
    return problems;
  };

  return {
    runIds,
    event(event, lineNo) {
      const type = typeof event.type === 'string' ? event.type : undefined;
      const runId = typeof event.runId === 'string' ? event.runId : undefined;
      if (!type || !runId) return [];
      const problems: Problem[] = [];
      let run = runs.get(runId);
      if (!run) {
        run = { runId, startLine: lineNo, lastLine: lineNo, ended: false, beforeStart: type === 'error', open: new Map(), calls: [], head: 0 };
        runs.set(runId, run);
        runIds.push(runId);
        open.add(run, lineNo);
        if (type !== 'run_start' && !run.beforeStart) problems.push({ lineNo, problem: `run ${runId}: first event is ${type}, expected run_start` });
        if (current && !current.ended) problems.push({ lineNo, problem: `run ${runId} starts while run ${current.runId} (${label(current.startLine)}) has not ended` });
        current = run;
      } else {
        if (current !== run && !run.ended) problems.push({ lineNo, problem: `runId ${runId} differs from the run going on (${current?.runId})` });
        if (type === 'run_start' && !run.beforeStart) problems.push({ lineNo, problem: `run ${runId}: second run_start (first at ${label(run.startLine)})` });
        if (run.ended) problems.push({ lineNo, problem: `run ${runId}: ${type === 'run_end' ? 'second run_end' : `${type} after run_end`}` });
        else if (run.beforeStart && type !== 'run_end') problems.push({ lineNo, problem: `run ${runId}: ${type} in a failure before the start (error, then run_end, and nothing else)` });
      }
      run.lastLine = lineNo;
      const mixed = versions.check(runId, event, lineNo);
      if (mixed) problems.push({ lineNo, problem: `${mixed.field}: ${mixed.problem}` });
      if (type === 'tool_call') {
        const id = String(event.id);
        if (run.open.has(id)) problems.push({ lineNo, problem: `run ${runId}: tool_call id ${JSON.stringify(id)} is already waiting for its result` });
        run.open.set(id, lineNo);
        run.calls.push({ id, line: lineNo });
      } else if (type === 'tool_result') {
        const id = String(event.id);
        if (!run.open.delete(id)) problems.push({ lineNo, problem: `run ${runId}: tool_result ${JSON.stringify(id)} answers no tool_call` });
        else if (run.open.size === 0) noCallsOpen(run);
      } else if (run.open.size > 0 && !MAY_WAIT.has(type)) {
        problems.push(...unanswered(run, type));
      }
      if (type === 'run_end') {
        run.ended = true;
        const disagrees = exitCodeProblem(event);
        if (disagrees) problems.push({ lineNo, problem: `run ${runId}: ${disagrees}` });
      }
      return problems;
    },
    prompt(type, lineNo) {
      if (!current || current.ended) return [];
      return [{ lineNo, problem: `run ${current.runId}: ${type} inside the run (a session file's prompt comes between runs)` }];
    },
    openFrom: () => open.line(),
    end() {
      const problems: Problem[] = [];
      for (const run of runs.values()) {
        if (run.ended) continue;
        problems.push(...unanswered(run, 'the end of the log'));
        problems.push({ lineNo: run.lastLine, problem: `run ${run.runId}: no run_end (the log ends at its last event)` });
      }
      return problems.sort((a, b) => a.lineNo - b.lineNo);
    },
  };
}
