import { InvalidOptionError } from "./errors.js";
import type { DecisionQuestion, JudgeRequest, JudgeResponse, JudgeUsage } from "./judge.js";

/**
 * What decision-model providers share: the options of a typed question as answers key them, an
 * answer read into a distribution, the state a request shows. Pure: providers do the I/O.
 */

/** The options of a question, as its answer keys them: `yes`/`no`, each choice, each level's index. */
export function decisionOptions(question: DecisionQuestion): string[] {
  if (question.type === "yes-no") return ["yes", "no"];
  if (question.type === "choice") return question.choices.map((choice) => choice.value);
  return question.levels.map((_, index) => String(index));
}

/**
 * A provider's answer to one question as a distribution over its options: a yes-no probability,
 * a choice's or a level's probabilities (a model that gives only its top answer counts it as
 * certain), or `null` when it declined.
 */
export function distributionOf(
  question: DecisionQuestion,
  answer:
    | { readonly probability: number }
    | { readonly probabilities: Readonly<Record<string, number>> }
    | { readonly top: string }
    | null,
): Record<string, number> | null {
  if (answer === null) return null;
  if ("probability" in answer) return { yes: answer.probability, no: 1 - answer.probability };
  const options = decisionOptions(question);
  const given: Readonly<Record<string, number>> =
    "probabilities" in answer ? answer.probabilities : { [answer.top]: 1 };
  return Object.fromEntries(options.map((option) => [option, given[option] ?? 0]));
}

/** The decision questions of a request, or an error naming the judge that cannot answer it. */
export function decisionQuestionsOf(
  request: JudgeRequest,
  judge: string,
): readonly DecisionQuestion[] {
  const questions = request.decision?.questions;
  if (questions === undefined || questions.length === 0) {
    throw new InvalidOptionError({
      option: "judge",
      value: judge,
      message: `${judge} is a decision model: it answers typed questions only, and this metric asks for free text (give the metric a chat-model judge)`,
    });
  }
  return questions;
}

/** The text of a request's messages, in order: what decision APIs that take one state are shown. */
export function decisionStateText(request: JudgeRequest): string {
  return request.messages
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : message.content
            .map((part) => (part.type === "text" ? part.text : "(an image)"))
            .join("\n"),
    )
    .join("\n\n");
}

/** A decision model's answers as a judge response: the distributions as its output and text. */
export function decisionResponse(
  answers: Record<string, Record<string, number> | null>,
  usage: JudgeUsage,
  modelId: string,
): JudgeResponse {
  const output = { answers };
  return { output, text: JSON.stringify(output), usage, modelId };
}
