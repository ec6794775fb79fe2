/** What a model costs, in US dollars per million tokens; a profile's `pricing` has this shape too. */
export type Price = {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Prompt tokens read from the provider's cache; without it they cost as input. */
  cachedInputPerMTok?: number;
};

/** A turn's token counts as the providers report them: `cachedTokens` are part of `promptTokens`. */
export type TokenCounts = { promptTokens?: number; completionTokens?: number; cachedTokens?: number };

const price = (inputPerMTok: number, cachedInputPerMTok: number | undefined, outputPerMTok: number): Price => ({
  inputPerMTok,
  outputPerMTok,
  ...(cachedInputPerMTok === undefined ? {} : { cachedInputPerMTok }),
});

/**
 * List prices of the models people use through the built-in providers and the hosted presets of the catalog
 * (lib/providers/catalog.ts), by model id. A model whose price depends on the prompt's length (Gemini, Qwen) or
 * that the sources below do not list is left out: no price is better than a wrong one. Each source is dated with
 * the day its price is as of; a change of price is a new line with its own source and date.
 */
const TABLE: Record<string, Price> = {
  // https://openai.com/api/pricing (as of 2025-08-07, the GPT-5 launch; o3 after its 2025-06-10 cut)
  'gpt-5': price(1.25, 0.125, 10),
  'gpt-5-mini': price(0.25, 0.025, 2),
  'gpt-5-nano': price(0.05, 0.005, 0.4),
  'gpt-4.1': price(2, 0.5, 8),
  'gpt-4.1-mini': price(0.4, 0.1, 1.6),
  'gpt-4.1-nano': price(0.1, 0.025, 0.4),
  'gpt-4o': price(2.5, 1.25, 10),
  // the first gpt-4o snapshot kept its launch price (same page, as of 2025-08-07)
  'gpt-4o-2024-05-13': price(5, undefined, 15),
  'gpt-4o-mini': price(0.15, 0.075, 0.6),
  o3: price(2, 0.5, 8),
  'o4-mini': price(1.1, 0.275, 4.4),
  // https://www.anthropic.com/pricing#api and docs.anthropic.com/en/docs/about-claude/pricing (as of 2025-10-15): cache reads at 10% of input
  'claude-opus-4-1': price(15, 1.5, 75),
  'claude-opus-4': price(15, 1.5, 75),
  'claude-sonnet-4-5': price(3, 0.3, 15),
  'claude-sonnet-4': price(3, 0.3, 15),
  'claude-3-7-sonnet': price(3, 0.3, 15),
  'claude-haiku-4-5': price(1, 0.1, 5),
  'claude-3-5-haiku': price(0.8, 0.08, 4),
  // https://api-docs.deepseek.com/quick_start/pricing (DeepSeek-V3.2-Exp prices from 2025-09-29)
  'deepseek-chat': price(0.28, 0.028, 0.42),
  'deepseek-reasoner': price(0.28, 0.028, 0.42),
  // https://groq.com/pricing (as of 2025-08-01)
  'llama-3.3-70b-versatile': price(0.59, undefined, 0.79),
  // https://docs.x.ai/docs/models (as of 2025-08-01)
  'grok-4': price(3, 0.75, 15),
  // https://docs.z.ai/guides/overview/pricing (as of 2025-08-01)
  'glm-4.5': price(0.6, 0.11, 2.2),
  // https://platform.moonshot.ai/docs/pricing/chat (kimi-k2-0905-preview, as of 2025-09-10)
  'kimi-k2-0905-preview': price(0.6, 0.15, 2.5),
};

/** The vendor prefix a gateway puts before a model id (OpenRouter, GitHub Models, KiloCode: `openai/gpt-4.1`). */
const VENDOR_PREFIX = /^(openai|anthropic)\//;
/** A dated snapshot of a model: `gpt-4.1-2025-04-14`, `claude-sonnet-4-5-20250929`; or Anthropic's `-latest`. */
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/**
 * The table's price of a model, matched by its id, else by the id of the model its dated alias names (an
 * alias with a price of its own, such as `gpt-4o-2024-05-13`, is in the table). Anthropic's dotted names
 * (`claude-sonnet-4.5`, as Zero's catalog writes them) are its dashed ones. Undefined when the table has none.
 */
export function tablePrice(model: string): Price | undefined {
  const id = model.trim().toLowerCase().replace(VENDOR_PREFIX, '');
  const dashed = id.startsWith('claude-') ? id.replace(/(\d)\.(\d)/g, '$1-$2') : id;
  return TABLE[dashed] ?? TABLE[dashed.replace(SNAPSHOT_SUFFIX, '')];
}

/** A turn's cost in US dollars, to the nanodollar (so that sums of prices stay the numbers people write). */
export function costOf(price: Price, counts: TokenCounts): number {
  const prompt = counts.promptTokens ?? 0;
  const cached = Math.min(counts.cachedTokens ?? 0, prompt);
  const micro = (prompt - cached) * price.inputPerMTok + cached * (price.cachedInputPerMTok ?? price.inputPerMTok) + (counts.completionTokens ?? 0) * price.outputPerMTok;
  return Math.round(micro * 1000) / 1e9;
}
