import { createHash } from "node:crypto";
import { ProviderCallError, ProviderConfigError } from "../core/errors.js";
import type {
  JudgeBatchRequest,
  JudgeBatchResult,
  JudgeBatchStore,
  JudgeModel,
  JudgeResponse,
} from "../core/judge.js";
import { judgeCacheKey } from "./cache-key.js";

export interface RunJudgeBatchOptions {
  /** Seconds between status checks. Default 30. */
  intervalSeconds?: number;
  /** Status checks at most before giving up (the batch id stays saved for a resume). Default 120. */
  maxIterations?: number;
  /** Remembers the submitted batch, so that a restarted run polls it instead of resubmitting. */
  store?: JudgeBatchStore;
  signal?: AbortSignal;
  /**
   * What to do with requests that failed retryably inside the batch (rate limits, server errors,
   * expiry): ask them again one by one (`"direct"`, default) or report them.
   */
  retryFailed?: "direct" | "report";
  /** Runs a direct call; the session passes its limiter here. Default: `model.generate`. */
  direct?: (request: JudgeBatchRequest) => Promise<JudgeResponse>;
}

/** Each request's answer, or the error that kept it from having one. */
export type JudgeBatchOutcome = Map<string, JudgeResponse | ProviderCallError>;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A key for the whole set of requests: the same run, restarted, finds its batch again. */
export function batchRunKey(model: JudgeModel, requests: readonly JudgeBatchRequest[]): string {
  const hash = createHash("sha256");
  hash.update(`${model.provider}\u0000${model.modelId}`);
  for (const entry of requests)
    hash.update(`\u0000${entry.customId}\u0000${judgeCacheKey(model, entry.request)}`);
  return hash.digest("hex");
}

/**
 * Sends judge requests through the provider's batch API: submit once (or find the batch a
 * previous run submitted, by `store`), poll every `intervalSeconds` up to `maxIterations` times,
 * and map every result back by its custom id. Requests that failed retryably are asked again
 * directly; the rest are reported per request.
 */
export async function runJudgeBatch(
  model: JudgeModel,
  requests: readonly JudgeBatchRequest[],
  options: RunJudgeBatchOptions = {},
): Promise<JudgeBatchOutcome> {
  const api = model.batch;
  if (api === undefined) {
    throw new ProviderConfigError({
      provider: model.provider,
      message: `${model.provider} has no batch API that toolscore knows; run without batch mode`,
    });
  }
  const outcome: JudgeBatchOutcome = new Map();
  if (requests.length === 0) return outcome;
  const ids = new Set(requests.map((entry) => entry.customId));
  if (ids.size !== requests.length) {
    throw new ProviderConfigError({
      provider: model.provider,
      message: "every request of a batch needs its own customId",
    });
  }
  const intervalMs = (options.intervalSeconds ?? 30) * 1000;
  const maxIterations = options.maxIterations ?? 120;
  const signal = options.signal;
  const key = batchRunKey(model, requests);

  let batchId = await options.store?.load(key);
  if (batchId === undefined) {
    batchId = await api.submit(requests, { signal });
    await options.store?.save(key, batchId);
  }

  let ended = false;
  for (let check = 1; check <= maxIterations; check++) {
    const status = await api.status(batchId, { signal });
    if (status.state === "failed") {
      await options.store?.clear(key);
      throw new ProviderCallError({
        provider: model.provider,
        retryable: true,
        message: `${model.provider}: batch ${batchId} failed: ${status.message ?? "no reason given"}`,
      });
    }
    if (status.state === "ended") {
      ended = true;
      break;
    }
    if (check < maxIterations) await sleep(intervalMs, signal);
  }
  if (!ended) {
    throw new ProviderCallError({
      provider: model.provider,
      retryable: true,
      message: `${model.provider}: batch ${batchId} had not finished after ${maxIterations} status checks, ${options.intervalSeconds ?? 30} s apart; run again to resume it${options.store ? " (its id is saved)" : ""}, or raise batchMaxIterations`,
    });
  }

  const results: JudgeBatchResult[] = await api.results(batchId, { signal });
  const byId = new Map(results.map((result) => [result.customId, result]));
  const retry: JudgeBatchRequest[] = [];
  for (const entry of requests) {
    const result = byId.get(entry.customId);
    if (result?.status === "succeeded") {
      outcome.set(entry.customId, result.response);
      continue;
    }
    const message = result?.message ?? "the batch returned no result for it";
    const retryable = result?.retryable ?? true;
    if (retryable && options.retryFailed !== "report") {
      retry.push(entry);
      continue;
    }
    outcome.set(
      entry.customId,
      new ProviderCallError({
        provider: model.provider,
        retryable,
        message: `${model.provider}: request ${entry.customId} of batch ${batchId} failed: ${message}`,
      }),
    );
  }
  const direct =
    options.direct ?? ((entry: JudgeBatchRequest) => model.generate(entry.request, { signal }));
  await Promise.all(
    retry.map(async (entry) => {
      try {
        outcome.set(entry.customId, await direct(entry));
      } catch (error) {
        if (signal?.aborted === true) throw error;
        outcome.set(
          entry.customId,
          ProviderCallError.isInstance(error)
            ? error
            : new ProviderCallError({
                provider: model.provider,
                retryable: false,
                message: `${model.provider}: request ${entry.customId} failed in the batch and again on its own: ${error instanceof Error ? error.message : String(error)}`,
                cause: error,
              }),
        );
      }
    }),
  );
  await options.store?.clear(key);
  return outcome;
}
