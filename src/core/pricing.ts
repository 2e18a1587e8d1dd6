import type { JudgeUsage } from "./judge.js";

/** US dollars per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

/** Prices by `provider/model` or by model id; a dated id (`gpt-4.1-2025-04-14`) takes its base's. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

const price = (inputPerMillion: number, outputPerMillion: number): ModelPrice => ({
  inputPerMillion,
  outputPerMillion,
});

/**
 * List prices of common judge models, in US dollars per million tokens, as the providers
 * published them in 2025. Estimates only: pass your own table for negotiated or newer prices.
 * Local servers (Ollama, LM Studio, vLLM) are not priced.
 */
export const defaultPrices: PriceTable = {
  "gpt-4.1": price(2, 8),
  "gpt-4.1-mini": price(0.4, 1.6),
  "gpt-4.1-nano": price(0.1, 0.4),
  "gpt-4o": price(2.5, 10),
  "gpt-4o-mini": price(0.15, 0.6),
  "gpt-5": price(1.25, 10),
  "gpt-5-mini": price(0.25, 2),
  "gpt-5-nano": price(0.05, 0.4),
  o3: price(2, 8),
  "o4-mini": price(1.1, 4.4),
  "claude-opus-4-1": price(15, 75),
  "claude-opus-4": price(15, 75),
  "claude-sonnet-4-5": price(3, 15),
  "claude-sonnet-4": price(3, 15),
  "claude-haiku-4-5": price(1, 5),
  "claude-3-5-haiku": price(0.8, 4),
};

const priced: ReadonlySet<string> = new Set(["openai", "anthropic"]);

/** The price of a model: by `provider/model`, then by id, then by the longest id it extends. */
export function priceOf(
  table: PriceTable,
  provider: string,
  modelId: string,
): ModelPrice | undefined {
  const own = table[`${provider}/${modelId}`] as ModelPrice | undefined;
  if (own !== undefined) return own;
  // A bare-id entry stands for OpenAI's or Anthropic's model, not a local one of the same name.
  if (!priced.has(provider)) return undefined;
  const bare = table[modelId] as ModelPrice | undefined;
  if (bare !== undefined) return bare;
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (key.includes("/")) continue;
    if (modelId.startsWith(`${key}-`) && (best === undefined || key.length > best.length))
      best = key;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * The price of a model as a transcript names it: `provider/model`, or a bare id (the table's
 * bare ids are OpenAI's and Anthropic's models).
 */
export function priceOfModel(table: PriceTable, model: string): ModelPrice | undefined {
  const slash = model.indexOf("/");
  return slash > 0
    ? priceOf(table, model.slice(0, slash), model.slice(slash + 1))
    : priceOf(table, "openai", model);
}

/** The cost of one call's tokens; batch APIs bill half. */
export function costOf(
  price: ModelPrice,
  usage: JudgeUsage,
  options: { batch?: boolean } = {},
): number {
  const full =
    (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1e6;
  return options.batch === true ? full / 2 : full;
}
