/**
 * Batch mode for a run: the judge questions its cases will ask are gathered first (a pass of the
 * same engine whose judge only takes note), sent through the provider's batch API, and the run
 * then scores every case as it would without batches, its judge answering from those answers.
 * The results are the run's own, whatever the mode: only where the answers come from differs.
 */
import { InvalidOptionError, ProviderCallError } from "../core/errors.js";
import { integerOption, numberOption } from "../core/options.js";
import { askingThrough } from "../core/judge.js";
import type {
  JudgeBatchRequest,
  JudgeBatchStore,
  JudgeCallOptions,
  JudgeModel,
  JudgeRequest,
  JudgeResponse,
} from "../core/judge.js";
import { judgeCacheKey } from "../providers/cache-key.js";
import { runJudgeBatch } from "../providers/judge-batch.js";
import type { JudgeBatchOutcome, RunJudgeBatchOptions } from "../providers/judge-batch.js";

/** How a run sends its judge questions through the provider's batch API. */
export interface RunBatchOptions {
  /**
   * Sends a batch: a `JudgeSession` (its cache answers first, only misses are sent, and its
   * summary counts them) whose model is the run's `judge`. Default: the judge's own batch API,
   * without cache.
   */
  readonly session?: {
    runBatch(
      requests: readonly JudgeBatchRequest[],
      options?: Omit<RunJudgeBatchOptions, "direct">,
    ): Promise<JudgeBatchOutcome>;
  };
  /** Seconds between status checks of a batch. Default 30. */
  readonly intervalSeconds?: number;
  /** Status checks of a batch at most, before the run gives up (resumable with `store`). Default 120. */
  readonly maxChecks?: number;
  /** Remembers submitted batches, so that a restarted run polls them instead of paying again. */
  readonly store?: JudgeBatchStore;
  /**
   * Batches at most, one after another: a question that depends on an earlier answer (an answer
   * asked again because it did not fit its schema) goes in the next one. Then the rest is asked
   * directly. Default 3.
   */
  readonly rounds?: number;
  /** Told when a batch is sent. */
  readonly onSubmit?: (event: { readonly round: number; readonly requests: number }) => void;
}

/** What a gathering judge throws in place of an answer: the case's scoring is thrown away. */
class Gathered extends Error {}

/** The run's batch settings, checked before anything runs. */
export function checkBatchOptions(
  batch: RunBatchOptions,
): Required<Pick<RunBatchOptions, "intervalSeconds" | "maxChecks" | "rounds">> {
  if (typeof batch !== "object" || (batch as unknown) === null) {
    throw new InvalidOptionError({
      option: "batch",
      value: batch,
      message: "batch takes { session?, intervalSeconds?, maxChecks?, store?, rounds? }",
    });
  }
  return {
    intervalSeconds: numberOption("batch.intervalSeconds", batch.intervalSeconds, 30, {
      min: 0,
      max: 86_400,
    }),
    maxChecks: integerOption("batch.maxChecks", batch.maxChecks, 120, { min: 1 }),
    rounds: integerOption("batch.rounds", batch.rounds, 3, { min: 1, max: 10 }),
  };
}

/**
 * A judge that answers from a run's batches: while gathering it notes each question it has no
 * answer for and throws; otherwise it gives the batch's answer (the first asker with its cost,
 * later ones as cached), and asks the model directly what no batch answered.
 */
export function createBatchedJudge(base: () => JudgeModel) {
  let inner: JudgeModel | undefined;
  const model = (): JudgeModel => (inner ??= base());
  const answers = new Map<string, JudgeResponse | Error>();
  const given = new Set<string>();
  let gathering: Map<string, Omit<JudgeBatchRequest, "customId">> | undefined;

  const generate = async (
    request: JudgeRequest,
    options: JudgeCallOptions = {},
  ): Promise<JudgeResponse> => {
    const judge = model();
    const key = judgeCacheKey(judge, request);
    const answer = answers.get(key);
    if (answer instanceof Error) throw answer;
    if (answer !== undefined) {
      if (gathering !== undefined || !given.has(key)) {
        if (gathering === undefined) given.add(key);
        return answer;
      }
      return { ...answer, cached: true, costUsd: 0 };
    }
    if (gathering !== undefined) {
      if (!gathering.has(key)) {
        gathering.set(
          key,
          options.accept === undefined ? { request } : { request, accept: options.accept },
        );
      }
      throw new Gathered("gathered for a batch");
    }
    return judge.generate(request, options);
  };

  const judge = (): JudgeModel => askingThrough(model(), generate);

  /**
   * Runs `pass` (the run's cases, results thrown away) while gathering, sends what it asked as a
   * batch, and again until a pass asks nothing new or the rounds are spent. Returns what ended
   * it early (a failed batch, a stop), or undefined.
   */
  const gatherAndSend = async (input: {
    readonly pass: () => Promise<unknown>;
    readonly batch: RunBatchOptions;
    readonly signal?: AbortSignal | undefined;
  }): Promise<unknown> => {
    const { intervalSeconds, maxChecks, rounds } = checkBatchOptions(input.batch);
    for (let round = 1; round <= rounds; round++) {
      const asked = new Map<string, Omit<JudgeBatchRequest, "customId">>();
      gathering = asked;
      let failure: unknown;
      try {
        failure = await input.pass();
      } finally {
        gathering = undefined;
      }
      if (failure !== undefined) return failure;
      if (asked.size === 0) return undefined;
      // Ordered by key, so that a restarted run sends the same batch and finds it in the store.
      const keys = [...asked.keys()].sort();
      const requests = keys.map((key, at) => ({
        ...(asked.get(key) as Omit<JudgeBatchRequest, "customId">),
        customId: `request-${at + 1}`,
      }));
      input.batch.onSubmit?.({ round, requests: requests.length });
      const settings = {
        intervalSeconds,
        maxIterations: maxChecks,
        ...(input.batch.store === undefined ? {} : { store: input.batch.store }),
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      };
      let outcome: JudgeBatchOutcome;
      try {
        outcome =
          input.batch.session === undefined
            ? await runJudgeBatch(model(), requests, settings)
            : await input.batch.session.runBatch(requests, settings);
      } catch (error) {
        return error;
      }
      keys.forEach((key, at) => {
        const answer = outcome.get(`request-${at + 1}`);
        answers.set(
          key,
          answer ??
            new ProviderCallError({
              provider: model().provider,
              retryable: true,
              message: `${model().provider}: the batch returned no answer to a judge request`,
            }),
        );
      });
    }
    return undefined;
  };

  return { judge, gatherAndSend };
}
