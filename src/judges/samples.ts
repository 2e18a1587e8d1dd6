import type { JudgeModel, JudgeRequest, JudgeUsage } from "../core/judge.js";
import { InvalidOptionError } from "../core/errors.js";
import { integerOption, numberOption } from "../core/options.js";
import type { JsonObject } from "../core/json.js";
import { askJudge } from "./ask-judge.js";
import { decisionBandOption, isDecisionModel } from "./decisions.js";
import type { DecisionBand } from "./decisions.js";
import type { AskJudgeOptions, JudgeAnswer } from "./ask-judge.js";

/** How a judged metric asks its judge: how many answers, at what temperature, how agreed. */
export interface SamplingOptions {
  /** Answers asked for each question. Default 1. */
  readonly samples: number;
  /** The judge's temperature. Default 0 for one sample, 0.7 for several (else they agree by rote). */
  readonly temperature: number;
  /**
   * The least share of samples that must agree with the majority (or, for scores, 1 minus their
   * spread) for a verdict to stand; below it the case is not evaluable. Default 0.6.
   */
  readonly minAgreement: number;
  /** How a decision model's probabilities become verdicts (see `DecisionBand`); chat judges ignore it. */
  readonly band: DecisionBand;
}

/** What a judge function takes besides its question and sampling: a signal that stops it. */
export interface JudgeCallOptions {
  readonly signal?: AbortSignal | undefined;
}

/**
 * The sampling options of a judged metric's options object (`samples`, `temperature`,
 * `minAgreement`, and `band` for decision-model judges).
 */
export function samplingOptions(id: string, options: JsonObject): SamplingOptions {
  const samples = integerOption(`${id}.samples`, options.samples, 1, {
    min: 1,
    max: 25,
    unit: "answers",
  });
  const temperature = numberOption(
    `${id}.temperature`,
    options.temperature,
    samples === 1 ? 0 : 0.7,
    { min: 0, max: 2 },
  );
  const minAgreement = numberOption(`${id}.minAgreement`, options.minAgreement, 0.6, {
    min: 0,
    max: 1,
  });
  const band = decisionBandOption(`${id}.band`, options.band);
  return { samples, temperature, minAgreement, band };
}

/** The option names `samplingOptions` reads. */
export const samplingOptionNames = ["samples", "temperature", "minAgreement", "band"] as const;

/** Every answer of a sampled question, and what they cost together. */
export interface SampledAnswers<T> {
  readonly values: readonly T[];
  readonly usage: JudgeUsage;
  /** Attempts over every sample (an unusable answer is asked again). */
  readonly attempts: number;
  readonly cached: boolean;
  readonly costUsd?: number;
}

/**
 * Asks one question `sampling.samples` times (each answer kept apart in a judge cache by its
 * sample number), at the sampling temperature; every answer is validated as `askJudge` does. A
 * decision model is asked once: its answer is a distribution already.
 */
export async function askSamples<T>(
  model: JudgeModel,
  request: JudgeRequest,
  sampling: Pick<SamplingOptions, "samples" | "temperature">,
  options: AskJudgeOptions<T>,
): Promise<SampledAnswers<T>> {
  // A decision model's answer is a distribution already: asking it again would repeat it.
  const count = isDecisionModel(model) ? 1 : sampling.samples;
  const answers: JudgeAnswer<T>[] = await Promise.all(
    Array.from({ length: count }, (_, sample) =>
      askJudge(model, { ...request, temperature: sampling.temperature, sample }, options),
    ),
  );
  let cost: number | undefined;
  for (const answer of answers) {
    if (answer.costUsd !== undefined) cost = (cost ?? 0) + answer.costUsd;
  }
  return {
    values: answers.map((answer) => answer.value),
    usage: {
      inputTokens: answers.reduce((sum, answer) => sum + answer.usage.inputTokens, 0),
      outputTokens: answers.reduce((sum, answer) => sum + answer.usage.outputTokens, 0),
    },
    attempts: answers.reduce((sum, answer) => sum + answer.attempts, 0),
    cached: answers.every((answer) => answer.cached),
    costUsd: cost,
  };
}

/** The most frequent of several verdicts (the first seen, on a tie), and its share. */
function majority<T extends string>(verdicts: readonly T[]): { value: T; agreement: number } {
  if (verdicts.length === 0) {
    throw new InvalidOptionError({ option: "samples", value: 0, message: "no samples to combine" });
  }
  const counts = new Map<T, number>();
  for (const verdict of verdicts) counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
  let value = verdicts[0];
  for (const [verdict, count] of counts) if (count > (counts.get(value) ?? 0)) value = verdict;
  return { value, agreement: (counts.get(value) ?? 0) / verdicts.length };
}

/** A sampled answer that gives a verdict with its reason. */
export interface SampledVerdict<V extends string> {
  readonly verdict: V;
  readonly reason: string;
}

/**
 * The verdict of several samples: the majority, with the first sample that gave it (its reason);
 * when they agree less than `minAgreement`, `undecided`, saying how they split
 * (`the judge's 3 answers disagreed (right 1, wrong 2)`, verdicts in `order`).
 */
export function majorityVerdict<V extends string, S extends SampledVerdict<V>>(
  samples: readonly S[],
  options: { readonly order: readonly V[]; readonly undecided: V; readonly minAgreement: number },
): {
  readonly verdict: V;
  readonly reason: string;
  /** The sample behind the verdict; undefined when the samples disagreed. */
  readonly chosen: S | undefined;
  readonly agreement: number;
  readonly verdicts: V[];
} {
  const verdicts = samples.map((sample) => sample.verdict);
  const { value, agreement } = majority(verdicts);
  if (agreement < options.minAgreement) {
    const tally = options.order
      .map((verdict) => [verdict, verdicts.filter((given) => given === verdict).length] as const)
      .filter(([, count]) => count > 0)
      .map(([verdict, count]) => `${verdict} ${count}`)
      .join(", ");
    const reason = `the judge's ${verdicts.length} answers disagreed (${tally})`;
    return { verdict: options.undecided, reason, chosen: undefined, agreement, verdicts };
  }
  const chosen = samples.find((sample) => sample.verdict === value);
  return { verdict: value, reason: chosen?.reason ?? "", chosen, agreement, verdicts };
}

/**
 * A score of several samples: their median, as agreement the share of samples within one step of
 * the judge's scale from it (one dissenting sample in 25 leaves 96%, where the spread would leave
 * nothing), and which sample is nearest the median (the first, on a tie).
 */
export function medianScore(
  scores: readonly number[],
  step: number,
): {
  readonly value: number;
  readonly agreement: number;
  readonly nearest: number;
} {
  if (scores.length === 0) {
    throw new InvalidOptionError({ option: "samples", value: 0, message: "no samples to combine" });
  }
  const sorted = scores.toSorted((a, b) => a - b);
  const middle = sorted.length >> 1;
  const value =
    sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  const nearest = scores.reduce(
    (best, score, index) =>
      Math.abs(score - value) < Math.abs(scores[best] - value) ? index : best,
    0,
  );
  // A hair of slack: 0.75 - 0.5 is one step of 0.25 however the floats round.
  const near = scores.filter((score) => Math.abs(score - value) <= step + 1e-9).length;
  return { value, agreement: near / scores.length, nearest };
}

/**
 * How many samples gave a decided verdict, for its reason: " (2 of 3 samples)" when they split,
 * nothing for one sample or a unanimous verdict; so a split verdict never reads as unanimous.
 */
export function sampleShare(agreement: number, samples: number): string {
  if (samples <= 1 || agreement >= 1) return "";
  return ` (${Math.round(agreement * samples)} of ${samples} samples)`;
}
