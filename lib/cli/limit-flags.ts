import { UsageError } from '../errors.js';
import type { RunLimits } from '../agent/limits.js';
import type { Price } from '../providers/prices.js';
import { nonNegativeInteger, seconds } from './option-values.js';

/** --max-budget-usd, --max-tool-calls, --run-timeout as commander hands them over. */
export type LimitFlags = { maxBudgetUsd?: string; maxToolCalls?: string; runTimeout?: string };

export type LimitSettings = Omit<RunLimits, 'price'>;

function dollars(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const amount = Number(value);
  if (!/^\s*\d*\.?\d+\s*$/.test(value) || !Number.isFinite(amount)) throw new UsageError(`Invalid value for ${flag}: "${value}". Expected an amount of US dollars, such as 0.50.`);
  return amount;
}

/** The run's budgets and deadline, checked: a bad value is a usage error naming the flag. */
export function limitSettings(raw: LimitFlags): LimitSettings {
  const limits: LimitSettings = { maxBudgetUsd: dollars('--max-budget-usd', raw.maxBudgetUsd), maxToolCalls: nonNegativeInteger('--max-tool-calls', raw.maxToolCalls), runTimeoutMs: seconds('--run-timeout', raw.runTimeout) };
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}

/** The limits with the model's price; a budget in dollars for a model of no known price is a usage error (a cost is never guessed). */
export function runLimits(limits: LimitSettings, price: Price | undefined, model: string): RunLimits {
  if (limits.maxBudgetUsd !== undefined && !price) {
    throw new UsageError(`--max-budget-usd needs the price of the model, and ${JSON.stringify(model)} has none in the price table: give its profile a pricing {inputPerMTok, outputPerMTok} in the config files.`);
  }
  return { ...limits, ...(price ? { price } : {}) };
}
