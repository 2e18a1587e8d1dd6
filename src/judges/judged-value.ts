import type { JudgeModel, JudgeRequest, JudgeUsage } from "../core/judge.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { Content, ImagePart, TextPart, ToolSpec } from "../core/test-case.js";
import { describeTool, shownContent } from "./case-content.js";
import { fenced } from "./fence.js";
import {
  judgedValueDecisionInstructions,
  judgedValueInstructions,
  judgedValueQuestion,
  judgedValueSchema,
} from "./prompts/judged-value.js";
import {
  bandVerdict,
  decisionRequest,
  isDecisionModel,
  probabilityText,
  readDecisions,
} from "./decisions.js";
import type { DecisionBand } from "./decisions.js";
import { askSamples, majorityVerdict } from "./samples.js";
import type { JudgeCallOptions, SamplingOptions } from "./samples.js";

/** A judge's verdict on one value against its criterion. */
export type JudgedValueVerdict = "meets" | "fails" | "cannot_tell";

/**
 * One question: a value the agent passed, where it sits, and the criterion it must meet. The
 * question names only what its answer is kept for: a value of an expected call's place is asked
 * with that place and tool; a path rule's value with the rule's paths, once for every call the
 * rule covers (so it names no call's tool but the rule's own).
 */
export interface JudgedValueQuestion {
  readonly criterion: string;
  readonly value: JsonValue;
  /**
   * Where the value sits: `$.body` in an expected call's arguments (`output.summary` in its
   * output), or for a path rule, the paths it covers (`arguments at $.amount`).
   */
  readonly path: string;
  /** The tool of the expected call, or of the rule (`toolRules.<tool>`); none for every tool. */
  readonly toolName?: string;
  /** Whether the value comes from a path rule of the run rather than an expected call. */
  readonly rule?: boolean;
  /** The tool's definition, when the case lists it. */
  readonly tool?: ToolSpec;
  /** The user's request. */
  readonly request: Content;
}

/** Where a value sits, as the judge is told it: fenced, since paths and names come from data. */
function placeOf(question: JudgedValueQuestion): string {
  const tool = question.toolName === undefined ? "any tool" : question.toolName;
  return question.rule === true
    ? `${question.path}, in a call to ${tool} (a rule of the run: this answer holds for every such call)`
    : `${question.path} of the call to ${tool}`;
}

/** The judge request for one value. */
export function judgedValueRequest(
  question: JudgedValueQuestion,
  options: { readonly images: boolean },
): JudgeRequest {
  const content: (TextPart | ImagePart)[] = [
    ...shownContent("## The user's request", question.request, { ...options, what: "request" }),
    {
      type: "text",
      text: [
        ...(question.toolName === undefined
          ? []
          : [
              "## The tool",
              fenced(
                question.tool === undefined
                  ? `- ${question.toolName}`
                  : describeTool(question.tool),
              ),
            ]),
        "## Where it sits",
        fenced(placeOf(question)),
        "## The criterion",
        fenced(question.criterion),
        "## The value",
        fenced(
          typeof question.value === "string" ? question.value : JSON.stringify(question.value),
        ),
      ].join("\n"),
    },
  ];
  return {
    messages: [
      { role: "system", content: judgedValueInstructions },
      { role: "user", content },
    ],
    schema: judgedValueSchema,
  };
}

/** The verdict on one value over every sample, and what asking cost. */
export interface JudgedValueAnswer {
  readonly verdict: JudgedValueVerdict;
  readonly reason: string;
  readonly agreement: number;
  readonly usage: JudgeUsage;
}

const readVerdict = (output: JsonObject) => ({
  verdict: output.verdict as JudgedValueVerdict,
  reason: (output.reason as string).trim(),
});

const valueVerdicts = { pass: "meets", fail: "fails", cannot_tell: "cannot_tell" } as const;

/** Reads a decision model's answer: the value's verdict from P(meets) and the band. */
function readValueDecision(band: DecisionBand) {
  return (output: JsonObject): { verdict: JudgedValueVerdict; reason: string } | string => {
    const answers = readDecisions(output);
    if (typeof answers === "string") return answers;
    const distribution = answers.meets;
    if (distribution === null) {
      return { verdict: "cannot_tell", reason: "the decision model declined to answer" };
    }
    return {
      verdict: valueVerdicts[bandVerdict(distribution.yes, band)],
      reason: `P(meets) ${probabilityText(distribution.yes)}, band [${band.low}, ${band.high}]`,
    };
  };
}

/**
 * Asks whether a value meets its criterion, `sampling.samples` times; the majority stands when
 * the samples agree enough, else the judge cannot tell.
 */
export async function judgeValue(
  model: JudgeModel,
  question: JudgedValueQuestion,
  sampling: SamplingOptions,
  options: JudgeCallOptions = {},
): Promise<JudgedValueAnswer> {
  const chat = judgedValueRequest(question, { images: model.supportsImages });
  const decides = isDecisionModel(model);
  const request = decides
    ? decisionRequest(chat, judgedValueDecisionInstructions, [
        { type: "yes-no", id: "meets", instructions: judgedValueQuestion },
      ])
    : chat;
  const answers = await askSamples(model, request, sampling, {
    read: decides ? readValueDecision(sampling.band) : readVerdict,
    ...options,
  });
  const { verdict, reason, agreement } = majorityVerdict(answers.values, {
    order: ["meets", "fails", "cannot_tell"],
    undecided: "cannot_tell",
    minAgreement: sampling.minAgreement,
  });
  return { verdict, reason, agreement, usage: answers.usage };
}
