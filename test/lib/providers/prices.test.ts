import t from 'tap';
import { costOf, tablePrice } from '../../../lib/providers/prices.js';

t.test('a model is priced by its id, its dated aliases, a gateway prefix and Anthropic dotted names', async (t) => {
  const gpt41 = { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 };
  t.same(tablePrice('gpt-4.1'), gpt41);
  t.same(tablePrice('gpt-4.1-2025-04-14'), gpt41);
  t.same(tablePrice('openai/gpt-4.1'), gpt41);
  t.same(tablePrice('claude-sonnet-4-5-20250929'), tablePrice('claude-sonnet-4-5'));
  t.same(tablePrice('claude-sonnet-4.5'), tablePrice('claude-sonnet-4-5'));
  t.same(tablePrice('claude-3-5-haiku-latest'), tablePrice('claude-3-5-haiku'));
  // a snapshot with a price of its own keeps it
  t.same(tablePrice('gpt-4o-2024-05-13'), { inputPerMTok: 5, outputPerMTok: 15 });
});

t.test('a model the table does not know has no price, never a near guess', async (t) => {
  for (const model of ['llama3.1', 'gpt-4.1-turbo', 'my-gpt-4.1', 'custom-model', '']) t.equal(tablePrice(model), undefined, model);
});

t.test('a cost: uncached input, cached input and output (reasoning is counted in it) at their prices, to the nanodollar', async (t) => {
  const price = { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 };
  t.equal(costOf(price, { promptTokens: 1000, completionTokens: 500, cachedTokens: 200 }), 0.0057);
  t.equal(costOf(price, { promptTokens: 1_000_000 }), 2);
  t.equal(costOf({ inputPerMTok: 3, outputPerMTok: 15 }, { promptTokens: 100, cachedTokens: 100, completionTokens: 1 }), 0.000315);
  t.equal(costOf({ inputPerMTok: 0, outputPerMTok: 0 }, { promptTokens: 5, completionTokens: 5 }), 0);
  t.equal(costOf(price, {}), 0);
});
