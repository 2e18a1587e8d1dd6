export { createOpenAIJudge } from "./openai.js";
export type { OpenAIClient, OpenAIJudgeOptions, OpenAIStructuredOutput } from "./openai.js";
export { createAnthropicJudge } from "./anthropic.js";
export type {
  AnthropicClient,
  AnthropicJudgeOptions,
  AnthropicStructuredOutput,
} from "./anthropic.js";
export { fromAiSdk } from "./ai-sdk.js";
export type { AiSdkJudgeOptions, AiSdkLanguageModel } from "./ai-sdk.js";
export { judgeProviders, parseModelString, resolveJudgeModel } from "./registry.js";
export type { JudgeModelSettings } from "./registry.js";
export { createJudgeSession } from "./judge-session.js";
export type { JudgeCacheMode, JudgeSession, JudgeSessionOptions } from "./judge-session.js";
export { batchRunKey, runJudgeBatch } from "./judge-batch.js";
export type { JudgeBatchOutcome, RunJudgeBatchOptions } from "./judge-batch.js";
export { judgeCacheKey } from "./cache-key.js";
export { costOf, defaultPrices, priceOf } from "./pricing.js";
export type { ModelPrice, PriceTable } from "./pricing.js";
