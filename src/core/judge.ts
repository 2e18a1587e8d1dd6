import type { JsonObject, JsonValue } from "./json.js";
import type { ImagePart, TextPart } from "./test-case.js";

/**
 * The contract between toolscore's LLM-judged metrics and the models that judge. Version `v1`:
 * a new version adds a new interface, so a model written for `v1` keeps working.
 *
 * A judge sends messages of text and images and asks for JSON that fits a schema; the model
 * answers with that JSON (parsed, not yet validated: judges validate), the raw text, and the
 * tokens it used. Providers (`src/providers`) implement it over the official SDKs; anything else
 * that can answer structured questions can too.
 */
export interface JudgeModel {
  readonly specificationVersion: "v1";
  /** The provider's name as in model strings: `openai`, `anthropic`, `ollama`, ... */
  readonly provider: string;
  /** The model's id at the provider: `gpt-4.1`, `claude-sonnet-4-5`, ... */
  readonly modelId: string;
  /** Whether messages may carry images. */
  readonly supportsImages: boolean;
  /**
   * Where calls go, when known: the API's base URL (`https://api.openai.com/v1`). A run prints
   * it, and a judge cache keeps answers apart by it.
   */
  readonly endpoint?: string;
  /**
   * A fingerprint of the credentials calls are made with (a hash, never the key itself), when
   * known: a judge cache keeps answers apart by it, so answers written under another account (or
   * committed to a repository by someone without the key) are never read as this one's.
   */
  readonly account?: string;
  /** Asks one question. Rejects with a `ProviderCallError` when the call fails for good. */
  generate(request: JudgeRequest, options?: JudgeCallOptions): Promise<JudgeResponse>;
  /** The provider's batch API, when it has one. */
  readonly batch?: JudgeBatchApi;
  /**
   * `"decisions"` for a decision model: it answers only requests that carry `decision`
   * questions, with a probability for each option instead of text. Default `"text"`.
   */
  readonly answers?: "text" | "decisions";
}

/**
 * The same model, its questions asked through `generate` (a session's limits and cache, a run's
 * batches): everything else, its batch API included, is the model's.
 */
export function askingThrough(model: JudgeModel, generate: JudgeModel["generate"]): JudgeModel {
  return {
    specificationVersion: "v1",
    provider: model.provider,
    modelId: model.modelId,
    supportsImages: model.supportsImages,
    ...(model.endpoint === undefined ? {} : { endpoint: model.endpoint }),
    ...(model.account === undefined ? {} : { account: model.account }),
    generate,
    ...(model.batch === undefined ? {} : { batch: model.batch }),
    ...(model.answers === undefined ? {} : { answers: model.answers }),
  };
}

/** A judge message's content: text, or text and images in order. */
export type JudgeContent = string | readonly (TextPart | ImagePart)[];

export interface JudgeMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: JudgeContent;
}

/** The JSON Schema an answer must fit, with a name for providers that want one. */
export interface JudgeSchema {
  readonly name: string;
  readonly description?: string;
  readonly schema: JsonObject;
}

export interface JudgeRequest {
  readonly messages: readonly JudgeMessage[];
  readonly schema: JudgeSchema;
  /** Default 0 where the provider takes one: judgements should be as repeatable as it allows. */
  readonly temperature?: number;
  /** Longest answer, in tokens. Default 1,024. */
  readonly maxOutputTokens?: number;
  /**
   * Which of several answers to one question this asks for (0-based), when a metric samples its
   * judge: it keeps the answers apart in a judge cache. Never sent to the provider.
   */
  readonly sample?: number;
  /**
   * The question as typed questions, for decision models: the messages are the state they are
   * asked about. A decision model answers with `DecisionAnswers` as its `output`.
   */
  readonly decision?: { readonly questions: readonly DecisionQuestion[] };
}

/**
 * A typed question a decision model answers with probabilities: yes or no, one of several
 * choices, or a level of an ordered scale. `id` names its answer.
 */
export type DecisionQuestion =
  | { readonly type: "yes-no"; readonly id: string; readonly instructions: string }
  | {
      readonly type: "choice";
      readonly id: string;
      readonly instructions: string;
      readonly choices: readonly { readonly value: string; readonly description: string }[];
    }
  | {
      readonly type: "score";
      readonly id: string;
      readonly instructions: string;
      /** Each level's description, lowest first; answers key levels by index (`"0"`, `"1"`, ...). */
      readonly levels: readonly string[];
    };

/**
 * A decision model's answers, by question id: each a probability for every option (`yes` and
 * `no`, each choice's value, each level's index), or `null` where the model declined to answer.
 */
export interface DecisionAnswers {
  readonly answers: Readonly<Record<string, Readonly<Record<string, number>> | null>>;
}

export interface JudgeCallOptions {
  /** Abandons the call; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Whether an answer is usable (valid JSON that fits the schema, a score in range): only usable
   * answers are kept in a judge cache, and a cached one that is not is asked again. Default: any
   * answer that is JSON.
   */
  readonly accept?: (response: JudgeResponse) => boolean;
}

/** Tokens a call used, as the provider reported them. */
export interface JudgeUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface JudgeResponse {
  /** The answer parsed as JSON; `undefined` when the text was not JSON. */
  readonly output: JsonValue | undefined;
  /** The answer as the model wrote it. */
  readonly text: string;
  readonly usage: JudgeUsage;
  /** The model that answered, as the provider named it. */
  readonly modelId: string;
  /** Set when the answer came from a cache: its tokens were spent on an earlier run. */
  readonly cached?: boolean;
  /** What the call cost in US dollars, estimated from a price table, when one has the model. */
  readonly costUsd?: number;
}

/** One request of a batch, with the id that maps its answer back. */
export interface JudgeBatchRequest {
  readonly customId: string;
  readonly request: JudgeRequest;
  /** Whether an answer is usable, as `JudgeCallOptions.accept` says. */
  readonly accept?: (response: JudgeResponse) => boolean;
}

/** Where a submitted batch stands. */
export interface JudgeBatchStatus {
  readonly id: string;
  /** `ended` once results can be read (some requests may still have failed). */
  readonly state: "in_progress" | "ended" | "failed";
  readonly counts: { readonly total: number; readonly succeeded: number; readonly failed: number };
  /** Why the whole batch failed, when it did. */
  readonly message?: string;
}

/** The answer to one request of a batch, or why it has none. */
export type JudgeBatchResult =
  | { readonly customId: string; readonly status: "succeeded"; readonly response: JudgeResponse }
  | {
      readonly customId: string;
      readonly status: "failed";
      readonly message: string;
      /** Whether sending the request again may succeed (a rate limit, an expiry, a server error). */
      readonly retryable: boolean;
    };

/** A provider's asynchronous batch API: submit, poll, read. */
export interface JudgeBatchApi {
  submit(requests: readonly JudgeBatchRequest[], options?: JudgeCallOptions): Promise<string>;
  status(batchId: string, options?: JudgeCallOptions): Promise<JudgeBatchStatus>;
  results(batchId: string, options?: JudgeCallOptions): Promise<JudgeBatchResult[]>;
}

/**
 * Stored judge answers, by key (a hash of everything that determines the answer). `src/node`
 * has one on disk; anything with `get` and `set` works.
 */
export interface JudgeCache {
  get(key: string): Promise<JudgeResponse | undefined>;
  set(key: string, response: JudgeResponse): Promise<void>;
}

/**
 * Where submitted batches are remembered, so that a restarted run polls the batch it already
 * paid for instead of submitting another. `src/node` has one on disk.
 */
export interface JudgeBatchStore {
  load(key: string): Promise<string | undefined>;
  save(key: string, batchId: string): Promise<void>;
  clear(key: string): Promise<void>;
}

/** What a session's judging took, for the run summary. */
export interface JudgeRunSummary {
  /** Calls sent to the model API (each with the SDK's own retries), batches not included. */
  readonly calls: number;
  /** Requests answered through a provider batch. */
  readonly batchedRequests: number;
  readonly cacheHits: number;
  readonly cacheMisses: number;
  /** Calls and batched requests that ended in an error. */
  readonly failures: number;
  /** Tokens spent in this run (cached answers spent theirs earlier). */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Estimated US dollars, or undefined when a model used has no price. */
  readonly estimatedCostUsd: number | undefined;
  /** Models without a price entry (`provider/model`). */
  readonly unpricedModels: readonly string[];
}
