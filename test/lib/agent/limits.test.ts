import t from 'tap';
import { createMeter, withDeadline } from '../../../lib/agent/limits.js';
import { BudgetExceededError, RunTimeoutError } from '../../../lib/errors.js';

t.test('the meter prices each usage and stops the run once its budget is spent, not before', async (t) => {
  const meter = createMeter({ price: { inputPerMTok: 2, outputPerMTok: 8 }, maxBudgetUsd: 0.01 });
  meter.beforeModelCall();
  t.equal(meter.charge({ promptTokens: 1000, completionTokens: 500 }), 0.006);
  meter.beforeModelCall();
  t.equal(meter.charge({ promptTokens: 2000 }), 0.004);
  t.throws(() => meter.beforeModelCall(), new BudgetExceededError('The run spent $0.0100, its budget is $0.0100 (--max-budget-usd): no further model call was made.'));
});

t.test('without a price there is no cost and no budget to spend', async (t) => {
  const meter = createMeter({});
  t.equal(meter.charge({ promptTokens: 1000 }), undefined);
  t.doesNotThrow(() => meter.beforeModelCall());
});

t.test('--max-tool-calls N: the N+1th call is refused', async (t) => {
  const meter = createMeter({ maxToolCalls: 2 });
  t.equal(meter.nextToolCall(), undefined);
  t.equal(meter.nextToolCall(), undefined);
  t.match(meter.nextToolCall(), { code: 'budget_exceeded', exitCode: 4, message: 'The run made its 2 tool calls (--max-tool-calls): the next one was not run.' });
  t.match(createMeter({ maxToolCalls: 0 }).nextToolCall(), { code: 'budget_exceeded' });
});

t.test('the deadline aborts the run signal with RunTimeoutError; cleared, it never does', async (t) => {
  const outer = new AbortController();
  const started = Date.now();
  const { signal } = withDeadline(outer.signal, 50);
  // the deadline's timer holds no process open (a run's own work does): this test holds it with one of its own
  const keepAlive = setTimeout(() => {}, 5000);
  await new Promise((resolve) => signal.addEventListener('abort', resolve));
  clearTimeout(keepAlive);
  t.ok(Date.now() - started >= 45);
  t.type(signal.reason, RunTimeoutError);
  t.match(signal.reason, { code: 'timeout', exitCode: 4 });
  const cleared = withDeadline(outer.signal, 20);
  cleared.clear();
  await new Promise((resolve) => setTimeout(resolve, 60));
  t.notOk(cleared.signal.aborted);
  outer.abort(new Error('signal'));
  t.equal(cleared.signal.reason.message, 'signal', 'the run signal still ends it');
  t.equal(withDeadline(outer.signal, undefined).signal, outer.signal);
});
