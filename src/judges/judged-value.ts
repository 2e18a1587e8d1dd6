import type { JudgeModel, JudgeRequest, JudgeUsage } from "../core/judge.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { Content, ImagePart, TextPart, ToolSpec } from "../core/test-case.js";
import { describeTool, shownContent } from "./case-content.js";
import { fenced } from "./fence.js";
import { judgedValueInstructions, judgedValueSchema } from "./prompts/judged-value.js";
import { askSamples, majorityVerdict } from "./samples.js";
import type { SamplingOptions } from "./samples.js";

/** A judge's verdict on one value against its criterion. */
export type JudgedValueVerdict = "meets" | "fails" | "cannot_tell";

/** One question: a value the agent passed, where it sits, and the criterion it must meet. */
export interface JudgedValueQuestion {
  readonly criterion: string;
  readonly value: JsonValue;
  /** Where the value sits in the call's arguments: `$.body`. */
  readonly path: string;
  readonly toolName: string;
  /** The tool's definition, when the case lists it. */
  readonly tool?: ToolSpec;
  /** The user's request. */
  readonly request: Content;
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
        "## The tool",
        fenced(
          question.tool === undefined ? `- ${question.toolName}` : describeTool(question.tool),
        ),
        `## Where it sits: ${question.path} of the call to ${question.toolName}`,
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

/**
 * Asks whether a value meets its criterion, `sampling.samples` times; the majority stands when
 * the samples agree enough, else the judge cannot tell.
 */
export async function judgeValue(
  model: JudgeModel,
  question: JudgedValueQuestion,
  sampling: SamplingOptions,
  options: { readonly signal?: AbortSignal | undefined } = {},
): Promise<JudgedValueAnswer> {
  const request = judgedValueRequest(question, { images: model.supportsImages });
  const answers = await askSamples(model, request, sampling, {
    read: readVerdict,
    signal: options.signal,
  });
  const { verdict, reason, agreement } = majorityVerdict(answers.values, {
    order: ["meets", "fails", "cannot_tell"],
    undecided: "cannot_tell",
    minAgreement: sampling.minAgreement,
  });
  return { verdict, reason, agreement, usage: answers.usage };
}
