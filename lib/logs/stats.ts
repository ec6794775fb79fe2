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
  /** Model turns, as lib/logs/turns.ts defines them (docs/protocol.md §3.3). */
  turns: number;
  toolCalls: number;
  toolsByName: Record<string, number>;
  toolsBySideEffect: Record<string, number>;
  tokens: { prompt: number; completion: number; total: number; costUsd?: number };
  /** run_end's status (success, error; in version 2 also interrupted, incomplete), or `unfinished` when the log has none. */
  outcome: 'success' | 'error' | 'interrupted' | 'incomplete' | 'unfinished';
  exitCode: number | null;
  /** The code of the last error event, if any. */
  errorCode?: string;
};

const newRun = (runId: string): RunStats => ({ runId, provider: undefined, model: undefined, turns: 0, toolCalls: 0, toolsByName: {}, toolsBySideEffect: {}, tokens: { prompt: 0, completion: 0, total: 0 }, outcome: 'unfinished', exitCode: null });

/**
 * Per-run totals of the events of a log valid in their own schema version (others are counted as skipped).
 * A session file's stored prompts (valid input events, §6) are no run's and are not skipped either.
 */
export function createStatsCollector(redaction?: RedactOptions) {
  // names come from the log: a model or tool name may carry a secret
  const clean = (name: string) => redactOutbound(name, redaction);
  const runs = new Map<string, { stats: RunStats; turns: TurnCounter }>();
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
        entry = { stats: newRun(event.runId), turns: createTurnCounter() };
        runs.set(event.runId, entry);
      }
      const run = entry.stats;
      entry.turns.starts(event);
      run.turns = entry.turns.turns;
      switch (event.type) {
        case 'run_start':
          run.provider = clean(event.provider);
          run.model = clean(event.model);
          break;
        case 'tool_call': {
          run.toolCalls += 1;
          const name = clean(event.name);
          run.toolsByName[name] = (run.toolsByName[name] ?? 0) + 1;
          const side = event.sideEffect ?? 'unknown';
          run.toolsBySideEffect[side] = (run.toolsBySideEffect[side] ?? 0) + 1;
          break;
        }
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

const counts = (record: Record<string, number>) =>
  Object.entries(record)
    .map(([key, n]) => `${key} ${n}`)
    .join(', ') || '-';

/** The runs as a text table: one block per run. */
export function formatStats(runs: RunStats[], skipped = 0): string {
  const blocks = runs.map((run) => {
    const rows: [string, string][] = [
      ['model', run.provider || run.model ? `${run.provider ?? '?'} / ${run.model ?? '?'}` : '-'],
      ['outcome', `${run.outcome}${run.exitCode === null ? '' : ` (exit ${run.exitCode})`}${run.errorCode ? `, error ${run.errorCode}` : ''}`],
      ['turns', String(run.turns)],
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

/** LogItems → the stats report, at the end of the log: a text table, or one JSON object per run. */
export function createStatsReport(format: 'text' | 'json' = 'text', redaction?: RedactOptions): Step<LogItem, string> {
  const collector = createStatsCollector(redaction);
  return {
    write: (item) => collector.item(item),
    end(emit) {
      const runs = collector.runs();
      if (format === 'text') return emit(formatStats(runs, collector.skipped));
      for (const run of runs) emit(`${JSON.stringify({ type: 'run_stats', ...run })}\n`);
    },
  };
}
