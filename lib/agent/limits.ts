import { BudgetExceededError, RunTimeoutError } from '../errors.js';
import { costOf, type Price, type TokenCounts } from '../providers/prices.js';

/** What a run may spend (per run; with --multi-turn, per conversation). */
export type RunLimits = {
  /** The model's price (a profile's `pricing`, else the table's): every `usage` then carries `costUsd`. */
  price?: Price;
  /** --max-budget-usd: no model call starts once the run has spent this much (it needs `price`). */
  maxBudgetUsd?: number;
  /** --max-tool-calls: the call after this many is not run. */
  maxToolCalls?: number;
  /** --run-timeout, in milliseconds: the whole run's deadline. */
  runTimeoutMs?: number;
};

/** Counts what a run spends, and stops it (BudgetExceededError) before it goes past a limit. */
export type Meter = {
  /** A turn's usage: its cost in US dollars, added to the run's; undefined without a price. */
  charge(counts: TokenCounts): number | undefined;
  /** Before each model call. */
  beforeModelCall(): void;
  /** Before each tool call runs: counts it, or says why it may not run. */
  nextToolCall(): BudgetExceededError | undefined;
};

const dollars = (amount: number) => `$${amount.toFixed(4)}`;

export function createMeter(limits: RunLimits = {}): Meter {
  const { price, maxBudgetUsd, maxToolCalls } = limits;
  let spent = 0;
  let toolCalls = 0;
  return {
    charge(counts) {
      if (!price) return undefined;
      const cost = costOf(price, counts);
      spent += cost;
      return cost;
    },
    beforeModelCall() {
      if (maxBudgetUsd !== undefined && spent >= maxBudgetUsd) {
        throw new BudgetExceededError(`The run spent ${dollars(spent)}, its budget is ${dollars(maxBudgetUsd)} (--max-budget-usd): no further model call was made.`);
      }
    },
    nextToolCall() {
      if (maxToolCalls !== undefined && toolCalls >= maxToolCalls) {
        return new BudgetExceededError(`The run made its ${maxToolCalls} tool call${maxToolCalls === 1 ? '' : 's'} (--max-tool-calls): the next one was not run.`);
      }
      toolCalls += 1;
      return undefined;
    },
  };
}

/**
 * The run's signal, which also aborts with RunTimeoutError at the deadline (the provider request and the tools
 * running stop with it, as on a signal); `clear` once the run is over.
 */
export function withDeadline(signal: AbortSignal, runTimeoutMs: number | undefined): { signal: AbortSignal; clear(): void } {
  if (runTimeoutMs === undefined) return { signal, clear: () => {} };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new RunTimeoutError(runTimeoutMs / 1000)), runTimeoutMs);
  timer.unref();
  return { signal: AbortSignal.any([signal, controller.signal]), clear: () => clearTimeout(timer) };
}
