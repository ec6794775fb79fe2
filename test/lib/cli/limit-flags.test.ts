import t from 'tap';
import { limitSettings, runLimits } from '../../../lib/cli/limit-flags.js';
import { UsageError } from '../../../lib/errors.js';

t.test('the limits as given: dollars, a count of tool calls, seconds in milliseconds; none given, none set', async (t) => {
  t.same(limitSettings({ maxBudgetUsd: '0.50', maxToolCalls: '0', runTimeout: '1.5' }), { maxBudgetUsd: 0.5, maxToolCalls: 0, runTimeoutMs: 1500 });
  t.same(limitSettings({}), {});
});

t.test('a bad value is a usage error naming its flag', async (t) => {
  t.throws(() => limitSettings({ maxBudgetUsd: '$5' }), new UsageError('Invalid value for --max-budget-usd: "$5". Expected an amount of US dollars, such as 0.50.'));
  t.throws(() => limitSettings({ maxBudgetUsd: '-1' }), UsageError);
  t.throws(() => limitSettings({ maxToolCalls: '1.5' }), { message: /^Invalid value for --max-tool-calls: "1\.5"/ });
  t.throws(() => limitSettings({ runTimeout: '0' }), { message: /^Invalid value for --run-timeout: "0"/ });
});

t.test('a budget in dollars needs a price: with one it is kept, without one a usage error naming the model', async (t) => {
  const price = { inputPerMTok: 1, outputPerMTok: 2 };
  t.same(runLimits({ maxBudgetUsd: 1 }, price, 'm'), { maxBudgetUsd: 1, price });
  t.same(runLimits({ maxToolCalls: 3 }, undefined, 'm'), { maxToolCalls: 3 });
  t.throws(() => runLimits({ maxBudgetUsd: 1 }, undefined, 'local-llm'), { message: /^--max-budget-usd needs the price of the model, and "local-llm" has none in the price table/ });
});
