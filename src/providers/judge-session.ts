import pLimit from "p-limit";
import pThrottle from "p-throttle";
import { InvalidOptionError, ProviderCallError } from "../core/errors.js";
import { integerOption } from "../core/options.js";
import { askingThrough } from "../core/judge.js";
import type {
  JudgeRunSummary,
  JudgeBatchRequest,
  JudgeCache,
  JudgeCallOptions,
  JudgeModel,
  JudgeRequest,
  JudgeResponse,
  JudgeUsage,
} from "../core/judge.js";
import { judgeCacheKey } from "./cache-key.js";
import { runJudgeBatch } from "./judge-batch.js";
import type { JudgeBatchOutcome, RunJudgeBatchOptions } from "./judge-batch.js";
import { costOf, defaultPrices, priceOf } from "../core/pricing.js";
import type { PriceTable } from "../core/pricing.js";

/** How the cache is used: read and write (`use`), write only (`refresh`), or not at all (`off`). */
export type JudgeCacheMode = "use" | "refresh" | "off";

export interface JudgeSessionOptions {
  /** Calls in flight at most, across everything that shares the session. Default 8. */
  concurrency?: number;
  /** Calls started per minute at most (a sliding window). Default: no limit. */
  requestsPerMinute?: number;
  /** The general form of `requestsPerMinute`: at most `limit` calls started in any `intervalMs`. */
  rateLimit?: { limit: number; intervalMs: number };
  /** Where answers are kept between runs (`createFileJudgeCache` in `toolscore/node`). */
  cache?: JudgeCache;
  /** Default `"use"`. */
  cacheMode?: JudgeCacheMode;
  /** Prices per million tokens, over the built-in list prices. */
  prices?: PriceTable;
  /**
   * Called once when the judge is taken for unreachable (no call has reached it, and the first
   * calls could not connect), with the first such error: a run stops there instead of failing
   * every case against it. Later calls fail at once with the same error.
   */
  onUnreachable?: (error: ProviderCallError) => void;
}

/**
 * A judge model shared by a whole run: one concurrency limit and one rate limit for every call,
 * a persistent cache in front, and the tokens, cost, hits and misses counted for the summary.
 */
export interface JudgeSession {
  /** The model to give metrics: limited, cached and counted. */
  readonly model: JudgeModel;
  summary(): JudgeRunSummary;
  /** Answers requests through the provider's batch API, the cache first (misses only are sent). */
  runBatch(
    requests: readonly JudgeBatchRequest[],
    options?: Omit<RunJudgeBatchOptions, "direct">,
  ): Promise<JudgeBatchOutcome>;
}

/** The default test of an answer worth keeping: it is JSON. */
const isJson = (response: JudgeResponse): boolean => response.output !== undefined;

/** Creates the session. The options are checked here, before any call. */
export function createJudgeSession(
  model: JudgeModel,
  options: JudgeSessionOptions = {},
): JudgeSession {
  const { concurrency, rate, mode } = sessionLimits(options);
  const cache = mode === "off" ? undefined : options.cache;
  const prices: PriceTable = { ...defaultPrices, ...options.prices };
  const price = priceOf(prices, model.provider, model.modelId);
  const limit = pLimit(concurrency);
  const throttle = rate === undefined ? undefined : pThrottle({ ...rate, strict: true });

  const counts = newCounts();
  const account = (response: JudgeResponse, batch: boolean): JudgeResponse => {
    counts.inputTokens += response.usage.inputTokens;
    counts.outputTokens += response.usage.outputTokens;
    if (price === undefined) return response;
    const cost = costOf(price, response.usage, { batch });
    counts.cost += cost;
    return { ...response, costUsd: cost };
  };

  const { lookUp, store } = cacheUse(cache, mode, counts);
  const call = guardedCalls(model, counts, options.onUnreachable);
  // One throttled function for the session: its window is shared by every call.
  const paced = throttle ? throttle(call) : call;
  const limited = (request: JudgeRequest, signal: AbortSignal | undefined) =>
    limit(() => paced(request, signal));

  // The same request asked again while its answer is on its way waits for that answer: a run
  // never pays twice for one question (cases that share a judged value, say).
  const inFlight = new Map<string, Promise<JudgeResponse>>();

  const generate = async (
    request: JudgeRequest,
    callOptions: JudgeCallOptions = {},
  ): Promise<JudgeResponse> => {
    const accept = callOptions.accept ?? isJson;
    const flight = judgeCacheKey(model, request);
    const shared = inFlight.get(flight);
    if (shared !== undefined) {
      try {
        const response = await shared;
        counts.cacheHits++;
        return { ...response, cached: true, costUsd: 0 };
      } catch (error) {
        // The first asker's failure or stop is its own: this one asks for itself.
        if (callOptions.signal?.aborted === true) throw error;
      }
    }
    const own = (async () => {
      const { key, hit } = await lookUp(flight, accept);
      if (hit !== undefined) return hit;
      const response = account(await limited(request, callOptions.signal), false);
      await store(key, response, accept);
      return response;
    })();
    inFlight.set(flight, own);
    try {
      return await own;
    } finally {
      if (inFlight.get(flight) === own) inFlight.delete(flight);
    }
  };

  const session: JudgeSession = {
    model: askingThrough(model, generate),
    summary() {
      const unpriced = price === undefined && counts.calls + counts.batchedRequests > 0;
      return {
        calls: counts.calls,
        batchedRequests: counts.batchedRequests,
        cacheHits: counts.cacheHits,
        cacheMisses: counts.cacheMisses,
        failures: counts.failures,
        inputTokens: counts.inputTokens,
        outputTokens: counts.outputTokens,
        estimatedCostUsd: unpriced ? undefined : counts.cost,
        unpricedModels: unpriced ? [`${model.provider}/${model.modelId}`] : [],
      };
    },
    async runBatch(requests, batchOptions = {}) {
      const outcome: JudgeBatchOutcome = new Map();
      const keys = new Map<string, string | undefined>();
      const pending: JudgeBatchRequest[] = [];
      for (const entry of requests) {
        const { key, hit } = await lookUp(
          judgeCacheKey(model, entry.request),
          entry.accept ?? isJson,
        );
        if (hit === undefined) {
          keys.set(entry.customId, key);
          pending.push(entry);
        } else {
          outcome.set(entry.customId, hit);
        }
      }
      const direct = new Set<string>();
      const results = await runJudgeBatch(model, pending, {
        ...batchOptions,
        // Requests asked again on their own go through the limits and the accounting.
        direct: (entry) => {
          direct.add(entry.customId);
          return limited(entry.request, batchOptions.signal);
        },
      });
      for (const entry of pending) {
        const result = results.get(entry.customId);
        if (result === undefined) continue;
        if (!direct.has(entry.customId)) counts.batchedRequests++;
        if (result instanceof Error) {
          if (!direct.has(entry.customId)) counts.failures++;
          outcome.set(entry.customId, result);
          continue;
        }
        const answer = account(result, !direct.has(entry.customId));
        await store(keys.get(entry.customId), answer, entry.accept ?? isJson);
        outcome.set(entry.customId, answer);
      }
      return outcome;
    },
  };
  return session;
}

type Counts = ReturnType<typeof newCounts>;

/** What the session counts for the summary. */
function newCounts() {
  return {
    calls: 0,
    batchedRequests: 0,
    cacheHits: 0,
    cacheMisses: 0,
    failures: 0,
    inputTokens: 0,
    outputTokens: 0,
    cost: 0,
  };
}

/** The session's limits, checked before any call. */
function sessionLimits(options: JudgeSessionOptions): {
  concurrency: number;
  rate: { limit: number; interval: number } | undefined;
  mode: JudgeCacheMode;
} {
  const concurrency = integerOption("concurrency", options.concurrency, 8, { min: 1 });
  const rate =
    options.rateLimit !== undefined
      ? {
          limit: integerOption("rateLimit.limit", options.rateLimit.limit, 1, { min: 1 }),
          interval: integerOption("rateLimit.intervalMs", options.rateLimit.intervalMs, 1, {
            min: 1,
          }),
        }
      : options.requestsPerMinute !== undefined
        ? {
            limit: integerOption("requestsPerMinute", options.requestsPerMinute, 1, { min: 1 }),
            interval: 60_000,
          }
        : undefined;
  const mode = options.cacheMode ?? "use";
  if (!["use", "refresh", "off"].includes(mode)) {
    throw new InvalidOptionError({
      option: "cacheMode",
      value: mode,
      message: 'cacheMode must be "use", "refresh" or "off"',
    });
  }
  return { concurrency, rate, mode };
}

/** The cache in front of the judge, as `mode` says, its hits and misses counted. */
function cacheUse(cache: JudgeCache | undefined, mode: JudgeCacheMode, counts: Counts) {
  const lookUp = async (
    key: string,
    accept: (response: JudgeResponse) => boolean,
  ): Promise<{ key?: string; hit?: JudgeResponse }> => {
    if (cache === undefined) return {};
    if (mode === "use") {
      const hit = await cache.get(key);
      // An unusable answer kept by an older version is asked again, and replaced.
      if (hit !== undefined && accept(hit)) {
        counts.cacheHits++;
        return { key, hit: { ...hit, cached: true, costUsd: 0 } };
      }
    }
    counts.cacheMisses++;
    return { key };
  };

  const store = async (
    key: string | undefined,
    response: JudgeResponse,
    accept: (response: JudgeResponse) => boolean,
  ): Promise<void> => {
    // Only usable answers are kept: a failed one would fail every later run without a call.
    if (cache === undefined || key === undefined || !accept(response)) return;
    // Stored without this run's annotations.
    const { cached, costUsd, ...answer } = response;
    await cache.set(key, answer);
  };

  return { lookUp, store };
}

/**
 * Calls of the judge, counted; a judge no call has reached yet is not asked again once the
 * first calls could not connect (`onUnreachable` is told once).
 */
function guardedCalls(
  model: JudgeModel,
  counts: Counts,
  onUnreachable: ((error: ProviderCallError) => void) | undefined,
): (request: JudgeRequest, signal: AbortSignal | undefined) => Promise<JudgeResponse> {
  // A judge no call has reached yet, after this many calls in a row could not connect (each
  // after the SDK's own retries), is not asked again: the run's other calls fail at once.
  const unreachableAfter = 3;
  const reach = { answered: false, refused: 0, first: undefined as ProviderCallError | undefined };
  return async (request: JudgeRequest, signal: AbortSignal | undefined): Promise<JudgeResponse> => {
    if (signal?.aborted === true) throw signal.reason;
    if (!reach.answered && reach.refused >= unreachableAfter && reach.first !== undefined) {
      counts.failures++;
      // The same words as the calls that failed to connect: a run lists them as one error.
      throw new ProviderCallError({
        provider: reach.first.provider,
        retryable: true,
        unreachable: true,
        message: reach.first.message,
      });
    }
    counts.calls++;
    try {
      const response = await model.generate(request, signal === undefined ? {} : { signal });
      reach.answered = true;
      return response;
    } catch (error) {
      counts.failures++;
      if (ProviderCallError.isInstance(error) && error.unreachable) {
        reach.refused++;
        reach.first ??= error;
        if (!reach.answered && reach.refused === unreachableAfter) {
          onUnreachable?.(reach.first);
        }
      } else reach.refused = 0;
      throw error;
    }
  };
}

/** Adds usages together. */
export function addUsage(a: JudgeUsage, b: JudgeUsage): JudgeUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
}
