import type { JudgeModel, JudgeRequest } from "../core/judge.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { Content, ImagePart, TextPart, ToolSpec } from "../core/test-case.js";
import { askJudge, unitScore } from "./ask-judge.js";
import { fenced } from "./fence.js";
import type { JudgeAnswer } from "./ask-judge.js";
import { toolSelectionInstructions, toolSelectionSchema } from "./prompts/tool-selection.js";

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

function describeTool(tool: ToolSpec): string {
  const parts = [`- ${tool.name}`];
  if (tool.description) parts.push(`: ${tool.description}`);
  if (tool.parameters) parts.push(`\n  parameters: ${JSON.stringify(tool.parameters)}`);
  return parts.join("");
}

function describeCalls(calls: readonly SelectedCall[]): string {
  return calls
    .map(
      (call, index) => `${index + 1}. ${call.name}(${JSON.stringify(call.inputParameters ?? {})})`,
    )
    .join("\n");
}

/** Content from the case: each text part fenced (see `fenced`), images as they are. */
function fencedParts(parts: readonly (TextPart | ImagePart)[]): (TextPart | ImagePart)[] {
  return parts.map((part) =>
    part.type === "text" ? { type: "text", text: fenced(part.text) } : part,
  );
}

/**
 * The judge request for one case. Images in the user's request are sent when the model takes
 * images; otherwise the judge is told how many it cannot see.
 */
export function toolSelectionRequest(
  input: ToolSelectionInput,
  options: { images: boolean },
): JudgeRequest {
  const request: (TextPart | ImagePart)[] = [];
  const parts: readonly (TextPart | ImagePart)[] =
    typeof input.input === "string" ? [{ type: "text", text: input.input }] : input.input;
  let hidden = 0;
  for (const part of parts) {
    if (part.type === "text") request.push(part);
    else if (options.images) request.push(part);
    else hidden++;
  }
  const content: (TextPart | ImagePart)[] = [
    { type: "text", text: "## The user's request" },
    ...fencedParts(request),
  ];
  if (hidden > 0) {
    content.push({
      type: "text",
      text: `(The request also holds ${hidden} image${hidden === 1 ? "" : "s"} that you cannot see.)`,
    });
  }
  if (input.output !== undefined) {
    content.push({ type: "text", text: "## The agent's answer" });
    const answer: readonly (TextPart | ImagePart)[] =
      typeof input.output === "string" ? [{ type: "text", text: input.output }] : input.output;
    let unseen = 0;
    for (const part of answer) {
      if (part.type === "text" || options.images) content.push(...fencedParts([part]));
      else unseen++;
    }
    if (unseen > 0) {
      content.push({
        type: "text",
        text: `(The answer also holds ${unseen} image${unseen === 1 ? "" : "s"} that you cannot see.)`,
      });
    }
  }
  content.push({
    type: "text",
    text: [
      "## Available tools",
      input.availableTools.length === 0
        ? "(none)"
        : fenced(input.availableTools.map(describeTool).join("\n")),
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
