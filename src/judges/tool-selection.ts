import type { JudgeModel, JudgeRequest } from "../core/judge.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type {
  ConversationPlace,
  Content,
  ImagePart,
  TextPart,
  ToolSpec,
} from "../core/test-case.js";
import { conversationSoFar } from "./argument-correctness.js";
import { askJudge, unitScore } from "./ask-judge.js";
import { askSamples, medianScore } from "./samples.js";
import type { JudgeCallOptions, SamplingOptions } from "./samples.js";
import { describeTools, shownContent } from "./case-content.js";
import { fenced } from "./fence.js";
import type { JudgeAnswer } from "./ask-judge.js";
import {
  toolSelectionDecisionInstructions,
  toolSelectionInstructions,
  toolSelectionQuestion,
  toolSelectionSchema,
} from "./prompts/tool-selection.js";
import { bandVerdict, decisionRequest, probabilityText, readDecisions } from "./decisions.js";

/** A call as the judge sees it: which tool, with which arguments. */
export interface SelectedCall {
  readonly name: string;
  readonly inputParameters?: JsonObject;
}

export interface ToolSelectionInput {
  /** The user's request: text, or text and images. */
  readonly input: Content;
  /** Every tool the agent could call. */
  readonly availableTools: readonly ToolSpec[];
  /** The calls the agent made, in order. */
  readonly toolsCalled: readonly SelectedCall[];
  /** The agent's answer, text and images, when the judge should see it. */
  readonly output?: Content;
  /** Where the case sits in a conversation, when it is one turn of one. */
  readonly conversation?: ConversationPlace | undefined;
}

/** The judge's verdict on the tools chosen. */
export interface ToolSelectionVerdict {
  /** In [0, 1], on the anchored scale of the instructions. */
  readonly score: number;
  readonly reason: string;
  readonly overSelected: readonly string[];
  readonly underSelected: readonly string[];
  readonly misSelected: readonly string[];
}

function describeCalls(calls: readonly SelectedCall[]): string {
  return calls
    .map(
      (call, index) => `${index + 1}. ${call.name}(${JSON.stringify(call.inputParameters ?? {})})`,
    )
    .join("\n");
}

/**
 * The judge request for one case. Images in the user's request are sent when the model takes
 * images; otherwise the judge is told how many it cannot see.
 */
export function toolSelectionRequest(
  input: ToolSelectionInput,
  options: { images: boolean },
): JudgeRequest {
  const images = options.images;
  const content: (TextPart | ImagePart)[] = [
    ...conversationSoFar(input.conversation),
    ...shownContent("## The user's request", input.input, { images, what: "request" }),
  ];
  if (input.output !== undefined) {
    content.push(
      ...shownContent("## The agent's answer", input.output, { images, what: "answer" }),
    );
  }
  content.push({
    type: "text",
    text: [
      "## Available tools",
      describeTools(input.availableTools),
      "## Calls the agent made, in order",
      input.toolsCalled.length === 0 ? "(no calls)" : fenced(describeCalls(input.toolsCalled)),
    ].join("\n"),
  });
  return {
    messages: [
      { role: "system", content: toolSelectionInstructions },
      { role: "user", content },
    ],
    schema: toolSelectionSchema,
  };
}

const stringList = (value: JsonValue | undefined): readonly string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];

/** A schema-valid answer as a verdict, or what is wrong with it (a score outside [0, 1]). */
export function readToolSelection(output: JsonObject): ToolSelectionVerdict | string {
  const score = unitScore(output.score);
  if (typeof score === "string") return score;
  return {
    score,
    reason: typeof output.reason === "string" ? output.reason.trim() : "",
    overSelected: stringList(output.overSelected),
    underSelected: stringList(output.underSelected),
    misSelected: stringList(output.misSelected),
  };
}

/**
 * Asks a judge whether the agent chose the right tools: over-, under- and mis-selection, with a
 * short reason and an anchored score in [0, 1]. Unusable answers are asked again (see
 * `askJudge`); then the case gets a `JudgeResponseError`.
 */
export function judgeToolSelection(
  model: JudgeModel,
  input: ToolSelectionInput,
  options: { signal?: AbortSignal; attempts?: number } = {},
): Promise<JudgeAnswer<ToolSelectionVerdict>> {
  return askJudge(model, toolSelectionRequest(input, { images: model.supportsImages }), {
    read: readToolSelection,
    ...options,
  });
}

/** One step of the anchored scale: 0, 0.25, 0.5, 0.75, 1. */
const toolSelectionStep = 0.25;

/** A tool-selection verdict over samples: the median score, the sample nearest it, the spread. */
export interface SampledToolSelection {
  /** The verdict of the sample nearest the median, with the median as its score. */
  readonly value: ToolSelectionVerdict;
  /** The share of samples within one step of the scale (0.25) of the median. */
  readonly agreement: number;
  readonly scores: readonly number[];
}

/**
 * Asks for the tool-selection verdict `sampling.samples` times (see `askSamples`): the median
 * score, and the reason of the sample nearest it.
 */
export async function judgeToolSelectionSampled(
  model: JudgeModel,
  input: ToolSelectionInput,
  sampling: SamplingOptions,
  options: JudgeCallOptions = {},
): Promise<SampledToolSelection> {
  const request = toolSelectionRequest(input, { images: model.supportsImages });
  const answers = await askSamples(model, request, sampling, {
    read: readToolSelection,
    ...options,
  });
  const scores = answers.values.map((verdict) => verdict.score);
  const { value: median, agreement, nearest } = medianScore(scores, toolSelectionStep);
  return { value: { ...answers.values[nearest], score: median }, agreement, scores };
}

/** A decision model's rating of the tools chosen: a score, or not evaluable, with the probability. */
export type ToolSelectionDecision = {
  readonly kind: "scored" | "not-evaluable";
  readonly score: number;
  readonly reason: string;
  /** The probability that the score reaches the threshold. */
  readonly probability: number;
  /** Each level's probability, lowest first. */
  readonly levels: readonly number[];
};

/**
 * Asks a decision model to rate the tools chosen on the scale: the probability that the rating
 * reaches `threshold` decides, against the band (pass, fail, or not evaluable in between); the
 * score is the expected rating on the side decided, so it sits on that side of the threshold.
 */
export async function judgeToolSelectionDecision(
  model: JudgeModel,
  input: ToolSelectionInput,
  sampling: SamplingOptions,
  threshold: number,
  options: JudgeCallOptions = {},
): Promise<ToolSelectionDecision> {
  const request = decisionRequest(
    toolSelectionRequest(input, { images: model.supportsImages }),
    toolSelectionDecisionInstructions,
    [
      {
        type: "score",
        id: "selection",
        instructions: toolSelectionQuestion.instructions,
        levels: toolSelectionQuestion.levels.map((level) => level.description),
      },
    ],
  );
  const answer = await askJudge(model, request, { read: readDecisions, ...options });
  const distribution = answer.value.selection;
  if (distribution === null) {
    return {
      kind: "not-evaluable",
      score: 0,
      reason: "the decision model declined to answer",
      probability: 0,
      levels: [],
    };
  }
  const levels = toolSelectionQuestion.levels.map((_, index) => distribution[String(index)] ?? 0);
  const scores = toolSelectionQuestion.levels.map((level) => level.score);
  const passing = (index: number) => scores[index] >= threshold;
  const probability = levels.reduce((sum, p, index) => (passing(index) ? sum + p : sum), 0);
  const side = bandVerdict(probability, sampling.band);
  const shown = levels.map((p, index) => `${scores[index]}: ${probabilityText(p)}`).join(", ");
  const reason = `P(score >= ${threshold}) ${probabilityText(probability)}, band [${sampling.band.low}, ${sampling.band.high}] (levels ${shown})`;
  if (side === "cannot_tell")
    return { kind: "not-evaluable", score: 0, reason, probability, levels };
  // The expected rating among the levels on the side decided.
  const onSide = (index: number) => passing(index) === (side === "pass");
  const mass = levels.reduce((sum, p, index) => (onSide(index) ? sum + p : sum), 0);
  const expected =
    mass === 0
      ? side === "pass"
        ? 1
        : 0
      : levels.reduce((sum, p, index) => (onSide(index) ? sum + p * scores[index] : sum), 0) / mass;
  return { kind: "scored", score: expected, reason, probability, levels };
}
