import { textOf } from "../../adapters/read.js";
import type { PreparedContext } from "../../core/context.js";
import { InvalidInputError, InvalidOptionError, MediaLoadError } from "../../core/errors.js";
import type { JudgeModel, JudgeUsage } from "../../core/judge.js";
import { toMetric } from "../../core/metric.js";
import { thresholdOption } from "../../core/options.js";
import type { ConvertsToMetric, Metric } from "../../core/metric.js";
import { toErroredResult } from "../../core/metric-result.js";
import type { ImageSource, TestCase } from "../../core/test-case.js";
import type { JudgeAnswer } from "../../judges/ask-judge.js";
import {
  judgeFaithfulness,
  judgeRelevance,
  unjudgeableContexts,
} from "../../judges/faithfulness.js";
import type { BinaryVerdict } from "../../judges/faithfulness.js";
import {
  contextStatus,
  gradedFaithfulness,
  notJudgeable,
} from "../../judges/graded-faithfulness.js";
import type {
  ContextStatus,
  GradedMultimodalFaithfulnessCase,
  GradedMultimodalFaithfulnessDetails,
} from "../../judges/graded-faithfulness.js";
import { assertImageCodecsInstalled } from "../../node/image-codec.js";
import { prepareContexts } from "../../node/prepare-contexts.js";
import type { PrepareContextsOptions } from "../../node/prepare-contexts.js";
import { resolveJudgeModel } from "../../providers/judge-models.js";
import type { JudgeModelSettings } from "../../providers/judge-models.js";

/** ragas' default is a vision model; so is toolscore's. */
export const defaultVisionModel = "openai/gpt-4o";

export interface MultiModalMetricOptions {
  /** The judge: a model string (default `"openai/gpt-4o"`) or a `JudgeModel`. */
  llm?: string | JudgeModel;
  /** Settings of a judge named by a model string: key, base URL, timeouts. */
  modelSettings?: JudgeModelSettings;
  /**
   * How image contexts are loaded: `allowedRoots` / `baseDirectory` for files, `allowAddresses`
   * to fetch from internal hosts, `maxBytes`, `downscale`, `timeoutMs`, ...
   */
  imageLoading?: PrepareContextsOptions;
  /**
   * A context meant as an image that fails to load: the case is not judgeable and says why
   * (`"report"`, default), or `ascore` rejects with the `MediaLoadError` (`"fail"`).
   */
  onImageError?: "report" | "fail";
}

/** ragas' metric result (`value`, `reason`), with what toolscore adds. */
export interface MultiModalResult {
  /** 1 or 0; NaN when the case could not be judged. */
  readonly value: number;
  readonly reason: string;
  /** False when an image context failed to load: the judge was not asked. */
  readonly judgeable: boolean;
  readonly contexts: readonly ContextStatus[];
  readonly usage?: JudgeUsage;
  readonly costUsd?: number;
}

/** ragas' legacy sample. */
export class SingleTurnSample {
  userInput?: string;
  response?: string;
  retrievedContexts?: string[];
  reference?: string;
  referenceContexts?: string[];

  constructor(
    fields: {
      userInput?: string;
      response?: string;
      retrievedContexts?: string[];
      reference?: string;
      referenceContexts?: string[];
    } = {},
  ) {
    Object.assign(this, fields);
  }
}

/** toolscore's test case field that stands for a ragas sample field, when the sample's is absent. */
const testCaseFields: Readonly<Partial<Record<string, string>>> = {
  response: "actualOutput",
  userInput: "input",
};

/**
 * Reads a field given in camelCase or ragas' snake_case; a toolscore test case's `actualOutput`
 * stands for `response` and its `input` for `userInput`, so that the metrics run on datasets too.
 */
function field(input: Record<string, unknown>, camel: string, snake: string): unknown {
  const own = input[camel] ?? input[snake];
  const other = testCaseFields[camel];
  return own === undefined && other !== undefined ? textOf(input[other]) : own;
}

function contextsOf(input: Record<string, unknown>): (string | ImageSource)[] {
  const value = field(input, "retrievedContexts", "retrieved_contexts");
  if (!Array.isArray(value) || value.length === 0) {
    throw new InvalidInputError({
      field: "retrievedContexts",
      message:
        "retrievedContexts must be a non-empty list of texts, image paths, image URLs or data URIs",
    });
  }
  return value.map((item: unknown, index) => {
    if (typeof item === "string") return item;
    if (typeof item === "object" && item !== null && "kind" in item) return item as ImageSource;
    throw new InvalidInputError({
      field: `retrievedContexts[${index}]`,
      message: `retrievedContexts[${index}] must be a string (a text, an image path, an image URL or a data URI)`,
    });
  });
}

function stringField(input: Record<string, unknown>, camel: string, snake: string): string {
  const value = field(input, camel, snake);
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidInputError({ field: camel, message: `${camel} must be a non-empty string` });
  }
  return value;
}

/** Checks the image options once, with the metric: scaling down needs the image codecs installed. */
function checkImageOptions(options: MultiModalMetricOptions): void {
  if (options.imageLoading?.downscale === true) assertImageCodecsInstalled();
  const onImageError: unknown = options.onImageError ?? "report";
  if (onImageError !== "report" && onImageError !== "fail") {
    throw new InvalidOptionError({
      option: "onImageError",
      value: onImageError,
      message: 'onImageError must be "report" or "fail"',
    });
  }
}

/** Loads contexts for a judge; a failed image makes them unjudgeable, or rejects with `"fail"`. */
async function loadContexts(
  judge: JudgeModel,
  options: MultiModalMetricOptions,
  values: readonly (string | ImageSource)[],
  signal: AbortSignal | undefined,
): Promise<PreparedContext[]> {
  const contexts = await prepareContexts(values, {
    ...options.imageLoading,
    provider: options.imageLoading?.provider ?? judge.provider,
    ...(signal === undefined ? {} : { signal }),
  });
  const failed = unjudgeableContexts(contexts);
  const first = failed.at(0);
  if (first?.kind === "image" && first.status === "failed" && options.onImageError === "fail") {
    throw new MediaLoadError({
      source: first.origin,
      reason: first.error.reason === "unknown" ? "network" : first.error.reason,
      message: first.error.message,
    });
  }
  return contexts;
}

/** What the multimodal ragas metrics share: the judge, image loading, the not-judgeable path. */
abstract class MultiModalMetric implements ConvertsToMetric {
  abstract readonly name: string;
  /** The judge, set up with the metric: a model string without its key fails here. */
  readonly judge: JudgeModel;
  protected readonly options: MultiModalMetricOptions;

  constructor(options: MultiModalMetricOptions = {}) {
    if (typeof (options as unknown) !== "object" || (options as unknown) === null) {
      throw new InvalidOptionError({
        option: "options",
        value: options,
        message: "the metric takes one options object",
      });
    }
    checkImageOptions(options);
    this.options = options;
    this.judge = resolveJudgeModel(options.llm ?? defaultVisionModel, options.modelSettings ?? {});
  }

  /**
   * Loads the contexts and asks the judge; a failed image makes the case not judgeable (or
   * rejects, by option) and the judge is not asked.
   */
  protected async judged(
    input: Record<string, unknown>,
    signal: AbortSignal | undefined,
    ask: (contexts: PreparedContext[]) => Promise<JudgeAnswer<BinaryVerdict>>,
  ): Promise<MultiModalResult> {
    const contexts = await loadContexts(this.judge, this.options, contextsOf(input), signal);
    const failed = unjudgeableContexts(contexts);
    return this.result(contexts, failed, failed.length > 0 ? undefined : await ask(contexts));
  }

  protected result(
    contexts: readonly PreparedContext[],
    failed: readonly PreparedContext[],
    answer: JudgeAnswer<BinaryVerdict> | undefined,
  ): MultiModalResult {
    const statuses = contexts.map(contextStatus);
    if (answer === undefined) {
      return {
        value: Number.NaN,
        reason: notJudgeable(failed),
        judgeable: false,
        contexts: statuses,
      };
    }
    return {
      value: answer.value.verdict ? 1 : 0,
      reason: answer.value.reason,
      judgeable: true,
      contexts: statuses,
      usage: answer.usage,
      ...(answer.costUsd === undefined ? {} : { costUsd: answer.costUsd }),
    };
  }

  /** ragas' legacy API: scores a `SingleTurnSample`, returning the value (NaN if not judgeable). */
  async singleTurnAscore(
    sample: SingleTurnSample | Record<string, unknown>,
    options: { signal?: AbortSignal } = {},
  ): Promise<number> {
    return (await this.ascore(sample as never, options)).value;
  }

  abstract ascore(input: never, options?: { signal?: AbortSignal }): Promise<MultiModalResult>;

  /**
   * toolscore's metric for this class, for `evaluate` and the CLI: `ascore`'s value as the score
   * (1 passes), its reason, and a case that could not be judged skipped with the reason.
   */
  [toMetric](): Metric<TestCase, MultiModalResult> {
    const name = this.name;
    return {
      name,
      measure: async (testCase, options = {}) => {
        try {
          const result = await this.ascore(testCase as never, options);
          if (!result.judgeable) return { status: "skipped", metric: name, reason: result.reason };
          return {
            status: "scored",
            metric: name,
            score: result.value,
            threshold: 1,
            success: result.value >= 1,
            reason: result.reason,
            details: result,
          };
        } catch (error) {
          if (options.signal?.aborted === true) throw error;
          return toErroredResult(name, error);
        }
      },
    };
  }
}

/**
 * ragas' `MultiModalFaithfulness`: is every claim of the response supported by the retrieved
 * contexts, texts and images alike? 1 or 0, with the judge's reason. Images are loaded safely
 * (never sent as their name when they fail) and shown to the judge in its provider's own format.
 *
 * @example
 * const metric = new MultiModalFaithfulness({ llm: "openai/gpt-4o" });
 * const { value, reason } = await metric.ascore({ response, retrievedContexts: ["tesla.jpg", "Tesla makes EVs."] });
 */
export class MultiModalFaithfulness extends MultiModalMetric {
  readonly name = "multi_modal_faithfulness";

  async ascore(
    input: { response: string; retrievedContexts: string[] } | Record<string, unknown>,
    options: { signal?: AbortSignal } = {},
  ): Promise<MultiModalResult> {
    const record = input as Record<string, unknown>;
    const response = stringField(record, "response", "response");
    return this.judged(record, options.signal, (contexts) =>
      judgeFaithfulness(this.judge, { response, contexts }, options),
    );
  }
}

/**
 * ragas' `MultiModalRelevance`: does the response address the user's question, in line with the
 * retrieved contexts (texts and images)? 1 or 0, with the judge's reason.
 */
export class MultiModalRelevance extends MultiModalMetric {
  readonly name = "multi_modal_relevance";

  async ascore(
    input:
      | { userInput: string; response: string; retrievedContexts: string[] }
      | Record<string, unknown>,
    options: { signal?: AbortSignal } = {},
  ): Promise<MultiModalResult> {
    const record = input as Record<string, unknown>;
    const question = stringField(record, "userInput", "user_input");
    const response = stringField(record, "response", "response");
    return this.judged(record, options.signal, (contexts) =>
      judgeRelevance(this.judge, { question, response, contexts }, options),
    );
  }
}

export interface GradedMultimodalFaithfulnessOptions extends MultiModalMetricOptions {
  /** Default "Multimodal Faithfulness". */
  name?: string;
  /** Minimum passing score. Default 0.5. */
  threshold?: number;
}

/**
 * Graded multimodal faithfulness, beyond ragas' yes/no: the judge lists the response's claims
 * and judges each against the contexts (texts and images), pointing at the contexts that support
 * or contradict it; the score is supported claims over all claims. A case whose image contexts
 * fail to load is skipped with the reason (or an error, with `onImageError: "fail"`).
 *
 * @example
 * const metric = gradedMultimodalFaithfulness({ llm: "anthropic/claude-sonnet-4-5" });
 * const result = await metric.measure({ response, retrievedContexts: ["chart.png", "Q3 revenue rose 8%."] });
 * if (result.status === "scored") result.details.claims; // each with verdict and contexts
 */
export function gradedMultimodalFaithfulness(
  options: GradedMultimodalFaithfulnessOptions = {},
): Metric<GradedMultimodalFaithfulnessCase, GradedMultimodalFaithfulnessDetails> {
  const { name = "Multimodal Faithfulness", threshold: given, ...metricOptions } = options;
  const threshold = thresholdOption("gradedMultimodalFaithfulness", given, 0.5);
  checkImageOptions(metricOptions);
  const judge = resolveJudgeModel(
    metricOptions.llm ?? defaultVisionModel,
    metricOptions.modelSettings ?? {},
  );
  return gradedFaithfulness({
    name,
    threshold,
    judge,
    read: (testCase: GradedMultimodalFaithfulnessCase) => {
      const record = testCase as unknown as Record<string, unknown>;
      return {
        response: stringField(record, "response", "response"),
        contexts: contextsOf(record),
      };
    },
    load: (values, signal) => loadContexts(judge, metricOptions, values, signal),
  });
}
