import { InvalidOptionError } from "../core/errors.js";
import type {
  DecisionAnswers,
  DecisionQuestion,
  JudgeModel,
  JudgeRequest,
  JudgeSchema,
} from "../core/judge.js";
import type { JsonObject } from "../core/json.js";
import { decisionOptions } from "../core/decision.js";

/**
 * How a decision model's probability becomes a verdict: at or above `high` it passes, at or below
 * `low` it fails, in between the judge cannot tell. `calibrate` fits one on labelled cases.
 */
export interface DecisionBand {
  readonly low: number;
  readonly high: number;
}

/** The band until a calibration fits one: a quarter of the scale left undecided on each side of the middle. */
export const defaultDecisionBand: DecisionBand = { low: 0.25, high: 0.75 };

/** Whether a judge answers typed questions with probabilities rather than text. */
export function isDecisionModel(model: JudgeModel): boolean {
  return model.answers === "decisions";
}

/**
 * Throws: the judge is a decision model, and what asks it wants free text (faithfulness's claims,
 * a judged value's reason). Said once per metric, where it is made, when the metric knows.
 */
export function refuseDecisionModel(model: JudgeModel, metric?: string): never {
  throw new InvalidOptionError({
    option: "judge",
    value: `${model.provider}/${model.modelId}`,
    message: `${model.provider}/${model.modelId} is a decision model: it answers typed questions only, and ${metric ?? "this metric"} asks its judge for free text; give it a chat-model judge`,
  });
}

/** The `band` option of a judged metric (`[low, high]`), checked; the default when unset. */
export function decisionBandOption(option: string, value: unknown): DecisionBand {
  if (value === undefined) return defaultDecisionBand;
  const [low, high] = Array.isArray(value) ? (value as unknown[]) : [];
  const isShare = (n: unknown): n is number =>
    typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= 1;
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    !isShare(low) ||
    !isShare(high) ||
    low > high
  ) {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be [low, high] with 0 <= low <= high <= 1 (probabilities at or below low fail, at or above high pass), such as [0.25, 0.75]`,
    });
  }
  return { low, high };
}

/** A probability against a band: pass, fail, or cannot tell in between. */
export function bandVerdict(
  probability: number,
  band: DecisionBand,
): "pass" | "fail" | "cannot_tell" {
  if (probability >= band.high) return "pass";
  if (probability <= band.low) return "fail";
  return "cannot_tell";
}

/** A probability as reasons show it: two decimals. */
export function probabilityText(probability: number): string {
  return probability.toFixed(2);
}

/** The schema of a decision model's answers to `questions`. */
function answersSchema(questions: readonly DecisionQuestion[]): JudgeSchema {
  const distribution = (question: DecisionQuestion): JsonObject => {
    const options = decisionOptions(question);
    return {
      anyOf: [
        {
          type: "object",
          properties: Object.fromEntries(
            options.map((option) => [option, { type: "number", minimum: 0, maximum: 1 }]),
          ),
          required: options,
          additionalProperties: false,
        },
        { type: "null" },
      ],
    };
  };
  return {
    name: "decision_answers",
    description:
      "A probability for each option of each question, or null where the model declined.",
    schema: {
      type: "object",
      properties: {
        answers: {
          type: "object",
          properties: Object.fromEntries(
            questions.map((question) => [question.id, distribution(question)]),
          ),
          required: questions.map((question) => question.id),
          additionalProperties: false,
        },
      },
      required: ["answers"],
      additionalProperties: false,
    },
  };
}

/**
 * The decision form of a judge request: the case as the chat request shows it (its user
 * messages), the decision instructions in place of the chat instructions and the typed questions.
 */
export function decisionRequest(
  chat: JudgeRequest,
  instructions: string,
  questions: readonly DecisionQuestion[],
): JudgeRequest {
  return {
    messages: [
      { role: "system", content: instructions },
      ...chat.messages.filter((message) => message.role === "user"),
    ],
    schema: answersSchema(questions),
    decision: { questions },
  };
}

/** How far a distribution's sum may stray from 1: providers round their probabilities. */
const sumSlack = 0.02;

/**
 * Reads a schema-valid answer to decision questions: each question's distribution, or `null`
 * where the model declined; or what is wrong (a distribution that does not sum to 1).
 */
export function readDecisions(
  output: JsonObject,
): Readonly<Record<string, Readonly<Record<string, number>> | null>> | string {
  const answers = (output as unknown as DecisionAnswers).answers;
  for (const [id, distribution] of Object.entries(answers)) {
    if (distribution === null) continue;
    const sum = Object.values(distribution).reduce((total, p) => total + p, 0);
    if (Math.abs(sum - 1) > sumSlack) {
      return `the probabilities of ${id} sum to ${sum.toFixed(3)}, not 1`;
    }
  }
  return answers;
}

/** The probability that an answer falls among `passing` options. */
export function probabilityOf(
  distribution: Readonly<Record<string, number>>,
  passing: (option: string) => boolean,
): number {
  let total = 0;
  for (const [option, p] of Object.entries(distribution)) if (passing(option)) total += p;
  return Math.min(1, Math.max(0, total));
}
