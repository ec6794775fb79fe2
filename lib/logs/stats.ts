import { checkVersioned } from '../protocol/schema-version.js';
import type { OutputEvent } from '../protocol/types.js';
import type { LogItem } from './framing.js';
import { isValidStoredPrompt } from './prompts.js';
import { createTurnCounter, type TurnCounter } from './turns.js';
import { redactOutbound, type RedactOptions } from '../redaction/index.js';
import type { Step } from '../streams.js';

export type RunStats = {
  runId: string;
  provider?: string;
  model?: string;
  /**
   * What the user asked: a conversation's user turns (--multi-turn: its `turn_start`s), else the run's one prompt
   * (0 for a run that failed before it started).
   */
  userTurns: number;
  /** The user turns that ended `interrupted`. */
  interruptedTurns: number;
  /** Model turns, as lib/logs/turns.ts defines them (docs/protocol.md §3.3): the requests to the model. */
  modelTurns: number;
  toolCalls: number;
  /** Keyed by names from the log: Maps, so that a tool named `__proto__` or `toString` is counted like any other. */
  toolsByName: Map<string, number>;
  toolsBySideEffect: Map<string, number>;
  tokens: { prompt: number; completion: number; total: number; costUsd?: number };
  /** run_end's status (success, error; in version 2 also interrupted, incomplete), or `unfinished` when the log has none. */
  outcome: 'success' | 'error' | 'interrupted' | 'incomplete' | 'unfinished';
  exitCode: number | null;
  /** The code of the last error event, if any. */
  errorCode?: string;
};

const newRun = (runId: string): RunStats => ({
  runId,
  provider: undefined,
  model: undefined,
  userTurns: 0,
  interruptedTurns: 0,
  modelTurns: 0,
  toolCalls: 0,
  toolsByName: new Map(),
  toolsBySideEffect: new Map(),
  tokens: { prompt: 0, completion: 0, total: 0 },
  outcome: 'unfinished',
  exitCode: null,
});

const countIn = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

/**
 * Per-run totals of the events of a log valid in their own schema version (others are counted as skipped).
 * A session file's stored prompts (valid input events, §6) are no run's and are not skipped either.
 */
export function createStatsCollector(redaction?: RedactOptions) {
  // names come from the log: a model or tool name may carry a secret
  const clean = (name: string) => redactOutbound(name, redaction);
  /** `conversation`: the run has turn_start events, which count its user turns (else its run_start is its one prompt). */
  const runs = new Map<string, { stats: RunStats; turns: TurnCounter; conversation: boolean }>();
  let skipped = 0;
  return {
    item(item: LogItem): void {
      if ('problem' in item) return void (skipped += 1);
      if (isValidStoredPrompt(item.value)) return;
      const verdict = checkVersioned<OutputEvent>('output', item.value);
      if (!verdict.ok) return void (skipped += 1);
      const event = verdict.value;
      let entry = runs.get(event.runId);
      if (!entry) {
        entry = { stats: newRun(event.runId), turns: createTurnCounter(), conversation: false };
        runs.set(event.runId, entry);
      }
      const run = entry.stats;
      entry.turns.starts(event);
      run.modelTurns = entry.turns.turns;
      switch (event.type) {
        case 'run_start':
          // Zero Go's --list-tools run has neither
          run.provider = event.provider === undefined ? undefined : clean(event.provider);
          run.model = event.model === undefined ? undefined : clean(event.model);
          if (!entry.conversation) run.userTurns = 1;
          break;
        case 'turn_start':
          if (!entry.conversation) run.userTurns = 0;
          entry.conversation = true;
          run.userTurns += 1;
          break;
        case 'turn_end':
          if (event.status === 'interrupted') run.interruptedTurns += 1;
          break;
        case 'tool_call':
          run.toolCalls += 1;
          countIn(run.toolsByName, clean(event.name));
          countIn(run.toolsBySideEffect, event.sideEffect ?? 'unknown');
          break;
        case 'usage':
          run.tokens.prompt += event.promptTokens ?? 0;
          run.tokens.completion += event.completionTokens ?? 0;
          run.tokens.total += event.totalTokens ?? (event.promptTokens ?? 0) + (event.completionTokens ?? 0);
          if (event.costUsd !== undefined) run.tokens.costUsd = (run.tokens.costUsd ?? 0) + event.costUsd;
          break;
        case 'error':
          run.errorCode = clean(event.code);
          break;
        case 'run_end':
          run.outcome = event.status;
          run.exitCode = event.exitCode;
          break;
      }
    },
    runs: (): RunStats[] => [...runs.values()].map((entry) => entry.stats),
    get skipped() {
      return skipped;
    },
  };
}

const counts = (record: Map<string, number>) =>
  [...record]
    .map(([key, n]) => `${key} ${n}`)
    .join(', ') || '-';

const interrupted = (run: RunStats) => (run.interruptedTurns ? ` (${run.interruptedTurns} interrupted)` : '');

/** The runs as a text table: one block per run. */
export function formatStats(runs: RunStats[], skipped = 0): string {
  const blocks = runs.map((run) => {
    const rows: [string, string][] = [
      ['model', run.provider || run.model ? `${run.provider ?? '?'} / ${run.model ?? '?'}` : '-'],
      ['outcome', `${run.outcome}${run.exitCode === null ? '' : ` (exit ${run.exitCode})`}${run.errorCode ? `, error ${run.errorCode}` : ''}`],
      ['user turns', `${run.userTurns}${interrupted(run)}`],
      ['model turns', String(run.modelTurns)],
      ['tool calls', String(run.toolCalls)],
      ['  by name', counts(run.toolsByName)],
      ['  by side effect', counts(run.toolsBySideEffect)],
      ['tokens', `prompt ${run.tokens.prompt}, completion ${run.tokens.completion}, total ${run.tokens.total}${run.tokens.costUsd === undefined ? '' : `, cost $${run.tokens.costUsd.toFixed(4)}`}`],
    ];
    return `run ${run.runId}\n${rows.map(([name, value]) => `  ${name.padEnd(18)}${value}\n`).join('')}`;
  });
  const tail = skipped ? `(${skipped} line${skipped === 1 ? '' : 's'} skipped: not valid events; see zero validate)\n` : '';
  return (blocks.join('\n') || 'No runs.\n') + tail;
}

/**
 * A run's stats as one JSON object: `json` in snake_case, as every `-o json` of zero (the exec format §5,
 * sessions list); `stream-json` in camelCase, as the protocol's events, with `turns` (the model turns, the name
 * before `modelTurns`) kept for the scripts written before.
 */
export function statsObject(run: RunStats, format: 'json' | 'stream-json'): Record<string, unknown> {
  const { tokens } = run;
  const byName = Object.fromEntries(run.toolsByName);
  const bySideEffect = Object.fromEntries(run.toolsBySideEffect);
  const outcome = { outcome: run.outcome };
  if (format === 'stream-json') {
    const { runId, provider, model, userTurns, interruptedTurns, modelTurns, toolCalls, exitCode, errorCode } = run;
    return { type: 'run_stats', runId, provider, model, userTurns, interruptedTurns, modelTurns, turns: modelTurns, toolCalls, toolsByName: byName, toolsBySideEffect: bySideEffect, tokens, ...outcome, exitCode, errorCode };
  }
  return {
    type: 'run_stats',
    run_id: run.runId,
    provider: run.provider,
    model: run.model,
    user_turns: run.userTurns,
    interrupted_turns: run.interruptedTurns,
    model_turns: run.modelTurns,
    tool_calls: run.toolCalls,
    tools_by_name: byName,
    tools_by_side_effect: bySideEffect,
    tokens: { prompt: tokens.prompt, completion: tokens.completion, total: tokens.total, cost_usd: tokens.costUsd },
    ...outcome,
    exit_code: run.exitCode,
    error_code: run.errorCode,
  };
}

export type StatsFormat = 'text' | 'json' | 'stream-json';

/** LogItems → the stats report, at the end of the log: a text table, or one JSON object per run. */
export function createStatsReport(format: StatsFormat = 'text', redaction?: RedactOptions): Step<LogItem, string> {
  const collector = createStatsCollector(redaction);
  return {
    write: (item) => collector.item(item),
    end(emit) {
      const runs = collector.runs();
      if (format === 'text') return emit(formatStats(runs, collector.skipped));
      for (const run of runs) emit(`${JSON.stringify(statsObject(run, format))}\n`);
    },
  };
}
