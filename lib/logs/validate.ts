import { checkVersioned, createVersionScopes, type VersionedKind } from '../protocol/schema-version.js';
import type { LogItem } from './framing.js';
import { createInvariantChecker, type Problem } from './invariants.js';
import { isStoredPrompt } from './prompts.js';
import type { LogPlaces } from './places.js';
import { redactOutbound, type RedactOptions } from '../redaction/index.js';
import { isJsonObject } from '../protocol/json-object.js';
import type { Step } from '../streams.js';

export type LogCheckOptions = {
  kind?: VersionedKind;
  maxProblems?: number;
  format?: 'text' | 'json';
  /** Problem messages quote values from the log: redacted before they are printed. */
  redaction?: RedactOptions;
  /** A log of several files: each problem names its file and its line there. */
  places?: LogPlaces;
};

export type LogSummary = { valid: boolean; events: number; runs: number; problems: number };

export const DEFAULT_MAX_PROBLEMS = 50;

/**
 * The problems of one log item: not JSON, or not an event of the schema of its own schemaVersion; and the
 * order rules for output events (one version per run among them), one version for input events. In an output
 * log, an input event is a session file's stored prompt (docs/protocol.md §9): checked against the input schema
 * of its version, and allowed between runs only. A log is valid with no problem and at least one event (an
 * output log: at least one run).
 */
export function createLogChecker(kind: VersionedKind = 'output', places?: LogPlaces) {
  const invariants = createInvariantChecker(places?.label);
  const inputVersion = createVersionScopes(() => 'the input');
  let events = 0;
  let problems = 0;
  const count = (found: Problem[]) => {
    problems += found.length;
    return found;
  };
  const orderProblems = (value: unknown, lineNo: number): Problem[] => {
    if (kind === 'input') {
      const mixed = inputVersion.check('', value, lineNo);
      return mixed ? [{ lineNo, problem: `${mixed.field}: ${mixed.problem}` }] : [];
    }
    if (!isJsonObject(value)) return [];
    return isStoredPrompt(value) ? invariants.prompt(String(value.type), lineNo) : invariants.event(value, lineNo);
  };
  return {
    item(item: LogItem): Problem[] {
      if ('problem' in item) return count([{ lineNo: item.lineNo, problem: item.problem }]);
      events += 1;
      const { value, lineNo } = item;
      const verdict = checkVersioned(kind === 'output' && isStoredPrompt(value) ? 'input' : kind, value);
      const order = orderProblems(value, lineNo);
      return count(verdict.ok ? order : [{ lineNo, problem: `${verdict.field}: ${verdict.problem}` }, ...order]);
    },
    end(): Problem[] {
      return count(kind === 'output' ? invariants.end() : []);
    },
    /** The earliest line a problem may still be found at, besides the lines still to come. */
    openFrom: () => invariants.openFrom(),
    summary(): LogSummary {
      const runs = invariants.runIds.length;
      const enough = events > 0 && (kind === 'input' || runs > 0);
      return { valid: problems === 0 && enough, events, runs, problems };
    },
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function summaryLine({ valid, events, runs, problems }: LogSummary, shown: number): string {
  const what = `${plural(events, 'event')}, ${plural(runs, 'run')}`;
  if (valid) return `valid: ${what}\n`;
  if (problems > 0) return `invalid: ${plural(problems, 'problem')}${shown < problems ? ` (${shown} shown)` : ''} in ${what}\n`;
  return events === 0 ? 'invalid: no events\n' : `invalid: no runs in ${plural(events, 'event')} (only input events)\n`;
}

/**
 * The problems found so far, given out in line order: a problem is held while something still open (a run, a
 * call) or a line still to come may give one at an earlier line. Only the first `max` in line order can be
 * shown, so no more than those are held.
 */
function createLineOrder(max: number) {
  const held: Problem[] = [];
  let given = 0;
  const insert = (problem: Problem) => {
    let at = held.length;
    while (at > 0 && held[at - 1]!.lineNo > problem.lineNo) at -= 1;
    held.splice(at, 0, problem);
  };
  return {
    add(problems: Problem[]) {
      for (const problem of problems) insert(problem);
      held.length = Math.min(held.length, max - given);
    },
    /** The held problems at lines before `line`, in order. */
    before(line: number): Problem[] {
      let count = 0;
      while (count < held.length && held[count]!.lineNo < line) count += 1;
      given += count;
      return held.splice(0, count);
    },
  };
}

/**
 * LogItems → the report, as text lines (`line N: problem`, in line order, each as soon as no earlier one can
 * still be found, then a summary line) or JSON lines (one object per problem, then a summary object).
 * `summary()` says whether the log was valid, once the report has ended.
 */
export function createLogReport(options: LogCheckOptions = {}): Step<LogItem, string> & { summary(): LogSummary | undefined } {
  const checker = createLogChecker(options.kind, options.places);
  const where = (lineNo: number) => options.places?.of(lineNo) ?? { line: lineNo };
  const max = options.maxProblems ?? DEFAULT_MAX_PROBLEMS;
  const order = createLineOrder(max);
  const json = options.format === 'json';
  let shown = 0;
  let summary: LogSummary | undefined;
  const report = (problems: Problem[], emit: (line: string) => void) => {
    for (const { lineNo, problem } of problems) {
      shown += 1;
      const clean = redactOutbound(problem, options.redaction);
      const { file, line } = where(lineNo);
      const named = file === undefined ? undefined : redactOutbound(file, options.redaction);
      emit(json ? `${JSON.stringify({ type: 'problem', file: named, line, problem: clean })}\n` : `${named === undefined ? '' : `${named}: `}line ${line}: ${clean}\n`);
    }
  };
  return {
    write(item, emit) {
      order.add(checker.item(item));
      // a later item may start on this same line (values framing), so only earlier lines are settled
      report(order.before(Math.min(item.lineNo, checker.openFrom())), emit);
    },
    end(emit) {
      order.add(checker.end());
      report(order.before(Infinity), emit);
      summary = checker.summary();
      emit(json ? `${JSON.stringify({ type: 'summary', ...summary })}\n` : summaryLine(summary, shown));
    },
    summary: () => summary,
  };
}
