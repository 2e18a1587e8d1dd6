import type { JudgeModel, JudgeRequest, JudgeUsage } from "../core/judge.js";
import { InvalidOptionError } from "../core/errors.js";
import { integerOption, numberOption } from "../core/options.js";
import type { JsonObject } from "../core/json.js";
import { askJudge } from "./ask-judge.js";
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
}

/** The sampling options of a judged metric's options object (`samples`, `temperature`, `minAgreement`). */
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
  return { samples, temperature, minAgreement };
}

/** The option names `samplingOptions` reads. */
export const samplingOptionNames = ["samples", "temperature", "minAgreement"] as const;

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
 * sample number), at the sampling temperature; every answer is validated as `askJudge` does.
 */
export async function askSamples<T>(
  model: JudgeModel,
  request: JudgeRequest,
  sampling: Pick<SamplingOptions, "samples" | "temperature">,
  options: AskJudgeOptions<T>,
): Promise<SampledAnswers<T>> {
  const answers: JudgeAnswer<T>[] = await Promise.all(
    Array.from({ length: sampling.samples }, (_, sample) =>
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

/** A verdict of several samples: the most frequent one (the first seen, on a tie), and its share. */
export function majority<T extends string>(
  verdicts: readonly T[],
): { readonly value: T; readonly agreement: number } {
  if (verdicts.length === 0) {
    throw new InvalidOptionError({ option: "samples", value: 0, message: "no samples to combine" });
  }
  const counts = new Map<T, number>();
  for (const verdict of verdicts) counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
  let value = verdicts[0];
  for (const [verdict, count] of counts) if (count > (counts.get(value) ?? 0)) value = verdict;
  return { value, agreement: (counts.get(value) ?? 0) / verdicts.length };
}

/** A score of several samples: their median, and 1 minus their spread (max - min) as agreement. */
export function medianScore(scores: readonly number[]): {
  readonly value: number;
  readonly agreement: number;
} {
  if (scores.length === 0) {
    throw new InvalidOptionError({ option: "samples", value: 0, message: "no samples to combine" });
  }
  const sorted = scores.toSorted((a, b) => a - b);
  const middle = sorted.length >> 1;
  const value =
    sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { value, agreement: 1 - (sorted[sorted.length - 1] - sorted[0]) };
}

/** Why samples that agreed too little decide nothing: `the judge's 3 answers disagreed (right 1, wrong 2)`, verdicts in `order`. */
export function disagreement<T extends string>(
  verdicts: readonly T[],
  order: readonly T[],
): string {
  const tally = order
    .map((verdict) => [verdict, verdicts.filter((given) => given === verdict).length] as const)
    .filter(([, count]) => count > 0)
    .map(([verdict, count]) => `${verdict} ${count}`)
    .join(", ");
  return `the judge's ${verdicts.length} answers disagreed (${tally})`;
}
