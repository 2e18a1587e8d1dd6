import type { PreparedContext } from "../core/context.js";
import { InvalidInputError } from "../core/errors.js";
import type { JudgeModel, JudgeUsage } from "../core/judge.js";
import type { MeasureOptions, Metric } from "../core/metric.js";
import { scoredResult, toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import type { ImageSource } from "../core/test-case.js";
import { claimsRequest, claimsScore, readClaims, unjudgeableContexts } from "./faithfulness.js";
import { askSamples, medianScore } from "./samples.js";
import type { SamplingOptions } from "./samples.js";
import type { ClaimVerdict } from "./faithfulness.js";

/** How one context was read: text, or an image with how its loading went. */
export type ContextStatus =
  | { readonly index: number; readonly kind: "text" }
  | {
      readonly index: number;
      readonly kind: "image";
      readonly origin: string;
      readonly status: "loaded";
      readonly mediaType: string;
      readonly width: number;
      readonly height: number;
    }
  | Extract<PreparedContext, { status: "failed" }>;

/** A context's status, without its bytes. */
export function contextStatus(context: PreparedContext): ContextStatus {
  if (context.kind === "text") return { index: context.index, kind: "text" };
  if (context.status === "failed") {
    return {
      index: context.index,
      kind: "image",
      origin: context.origin,
      status: "failed",
      error: context.error,
    };
  }
  return {
    index: context.index,
    kind: "image",
    origin: context.origin,
    status: "loaded",
    mediaType: context.image.mediaType,
    width: context.image.width,
    height: context.image.height,
  };
}

/** Why contexts could not be judged: every image that did not load, and what went wrong. */
export function notJudgeable(failed: readonly PreparedContext[]): string {
  const why = failed
    .map((context) =>
      context.kind === "image" && context.status === "failed"
        ? `context ${context.index + 1} (${context.origin}) did not load: ${context.error.message}`
        : "",
    )
    .join("; ");
  return `Not judgeable: ${why}. An image that fails to load is never judged as text.`;
}

/** What the graded metric reads from a case. */
export interface GradedMultimodalFaithfulnessCase {
  readonly response: string;
  /** Texts, image paths, image URLs and data URIs, in order (or image sources). */
  readonly retrievedContexts: readonly (string | ImageSource)[];
}

/** The graded metric's evidence: every claim with its verdict and the contexts it rests on. */
export interface GradedMultimodalFaithfulnessDetails {
  readonly claims: readonly ClaimVerdict[];
  readonly contexts: readonly ContextStatus[];
  readonly usage: JudgeUsage;
  readonly attempts: number;
  readonly costUsd?: number;
}

const quote = (claim: ClaimVerdict) =>
  `${JSON.stringify(claim.claim)}${
    claim.contexts.length === 0
      ? ""
      : ` (context ${claim.contexts.map((c) => `${c.index + 1}, ${c.kind}`).join("; ")})`
  }`;

function claimsReason(claims: readonly ClaimVerdict[]): string {
  if (claims.length === 0) return "The response makes no factual claims.";
  const supported = claims.filter((c) => c.verdict === "supported").length;
  const parts = [`${supported} of ${claims.length} claims supported by the contexts.`];
  const contradicted = claims.filter((c) => c.verdict === "contradicted");
  const unsupported = claims.filter((c) => c.verdict === "unsupported");
  if (contradicted.length > 0) parts.push(`Contradicted: ${contradicted.map(quote).join("; ")}.`);
  if (unsupported.length > 0) parts.push(`Unsupported: ${unsupported.map(quote).join("; ")}.`);
  return parts.join(" ");
}

/** What graded faithfulness is made with; image loading arrives as a function. */
export interface GradedFaithfulnessSettings<TCase> {
  readonly name: string;
  readonly threshold: number;
  readonly judge: JudgeModel;
  /** How many gradings to ask for, and how far they must agree. Default: one. */
  readonly sampling?: SamplingOptions;
  /** The case's response and contexts; throws `InvalidInputError` for a case that lacks them. */
  readonly read: (testCase: TCase) => {
    readonly response: string;
    readonly contexts: readonly (string | ImageSource)[];
  };
  /** Reads the contexts for the judge, an image that did not load marked failed. */
  readonly load: (
    values: readonly (string | ImageSource)[],
    signal: AbortSignal | undefined,
  ) => Promise<PreparedContext[]>;
}

/**
 * Graded multimodal faithfulness: the judge lists the response's claims and judges each against
 * the contexts (texts and images); the score is supported claims over all claims. A case whose
 * image contexts did not load is skipped with the reason, the judge not asked.
 */
export function gradedFaithfulness<TCase>(
  settings: GradedFaithfulnessSettings<TCase>,
): Metric<TCase, GradedMultimodalFaithfulnessDetails> {
  const { name, threshold, judge } = settings;
  return {
    name,
    async measure(
      testCase: TCase,
      measureOptions: MeasureOptions = {},
    ): Promise<MetricResult<GradedMultimodalFaithfulnessDetails>> {
      const signal = measureOptions.signal;
      try {
        const { response, contexts: values } = settings.read(testCase);
        if (response.trim() === "") {
          throw new InvalidInputError({
            field: "response",
            message: "response must be a non-empty string",
          });
        }
        const contexts = await settings.load(values, signal);
        const failed = unjudgeableContexts(contexts);
        if (failed.length > 0)
          return { status: "skipped", metric: name, reason: notJudgeable(failed) };
        const sampling = settings.sampling ?? { samples: 1, temperature: 0, minAgreement: 0 };
        const answers = await askSamples(judge, claimsRequest(response, contexts), sampling, {
          read: readClaims(contexts),
          signal,
        });
        const scores = answers.values.map(claimsScore);
        // The claims of the sample whose score is nearest the median.
        // A share of claims has no scale of its own: a tenth is one step.
        const { value: score, agreement, nearest } = medianScore(scores, 0.1);
        const claims = answers.values[nearest];
        const details = {
          claims,
          contexts: contexts.map(contextStatus),
          usage: answers.usage,
          attempts: answers.attempts,
          costUsd: answers.costUsd,
          ...(scores.length === 1 ? {} : { agreement, scores }),
        };
        if (agreement < sampling.minAgreement) {
          const reason = `the judge's ${scores.length} gradings disagreed (${scores.map((value) => value.toFixed(2)).join(", ")})`;
          return { status: "not-evaluable", metric: name, reason, details };
        }
        return scoredResult(name, { score, threshold, reason: claimsReason(claims), details });
      } catch (error) {
        if (signal?.aborted === true) throw error;
        return toErroredResult(name, error);
      }
    },
  };
}
