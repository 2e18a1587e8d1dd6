import { InvalidInputError, InvalidOptionError } from "../../core/errors.js";
import type { JudgeModel, JudgeResponse, JudgeUsage } from "../../core/judge.js";
import { isJsonObject } from "../../core/json.js";
import type { Content, ToolSpec } from "../../core/test-case.js";
import type { ToolCall as CoreToolCall } from "../../core/tool-call.js";
import { askJudge } from "../../judges/ask-judge.js";
import type { JudgeAnswer } from "../../judges/ask-judge.js";
import { readToolSelection, toolSelectionRequest } from "../../judges/tool-selection.js";
import type { ToolSelectionVerdict } from "../../judges/tool-selection.js";
import { resolveJudgeModel } from "../../providers/judge-models.js";
import type { JudgeModelSettings } from "../../providers/judge-models.js";

/** deepeval's default judge. */
export const defaultJudgeModel = "openai/gpt-4.1";

/** The judgement of tool selection behind a score, with what it took. */
export interface SelectionDetails extends ToolSelectionVerdict {
  readonly usage: JudgeUsage;
  readonly attempts: number;
  readonly cached: boolean;
  readonly costUsd?: number;
  readonly modelId: string;
}

const settingKeys = [
  "apiKey",
  "baseURL",
  "timeoutMs",
  "maxRetries",
  "structuredOutput",
  "supportsImages",
  "headers",
  "apiVersion",
  "env",
];

/** Judge settings from an options object (`modelSettings`, or deepeval's `modelConfig`). */
export function judgeSettings(option: string, value: unknown): JudgeModelSettings {
  if (value === undefined || value === null) return {};
  if (!isJsonObject(value) && !(typeof value === "object" && !Array.isArray(value))) {
    throw new InvalidOptionError({ option, value, message: `${option} must be an object` });
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !settingKeys.includes(key));
  if (unknown.length > 0) {
    throw new InvalidOptionError({
      option: `${option}.${unknown[0] ?? ""}`,
      value: record[unknown[0] ?? ""],
      message: `${option} takes ${settingKeys.join(", ")}; ${unknown.map((k) => JSON.stringify(k)).join(", ")} is not one of them`,
    });
  }
  return record;
}

/** The judge a metric names: a model string resolved now (a missing key fails here), or a model. */
export function selectionJudge(model: unknown, settings: JudgeModelSettings): JudgeModel {
  return resolveJudgeModel((model ?? defaultJudgeModel) as string | JudgeModel, settings);
}

/**
 * Available tools as tool definitions: deepeval's `ToolCall`s (`inputParameters` standing for the
 * parameters) or `{ name, description, parameters }` objects.
 */
export function toToolSpecs(value: unknown, field: string): ToolSpec[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    throw new InvalidInputError({ field, message: `${field} must be a list of tools` });
  }
  return value.map((item: unknown, index) => {
    const where = `${field}[${index}]`;
    if (!isJsonObject(item) && !(typeof item === "object" && item !== null)) {
      throw new InvalidInputError({
        field: where,
        message: `${where} must be a tool { name, description?, parameters? }`,
      });
    }
    const record = item as Record<string, unknown>;
    if (typeof record.name !== "string") {
      throw new InvalidInputError({
        field: `${where}.name`,
        message: `${where}.name must be a string`,
      });
    }
    const parameters = record.parameters ?? record.inputParameters ?? record.input_parameters;
    const description = record.description;
    return {
      name: record.name,
      ...(typeof description === "string" ? { description } : {}),
      ...(isJsonObject(parameters) ? { parameters: parameters } : {}),
    };
  });
}

function details(answer: JudgeAnswer<ToolSelectionVerdict>): SelectionDetails {
  return {
    ...answer.value,
    usage: answer.usage,
    attempts: answer.attempts,
    cached: answer.cached,
    modelId: answer.modelId,
    ...(answer.costUsd === undefined ? {} : { costUsd: answer.costUsd }),
  };
}

/**
 * Judges the tools chosen for one case. `first` is an answer already in hand from a provider
 * batch; an unusable one is asked again directly.
 */
export async function judgeSelection(
  model: JudgeModel,
  input: {
    input: Content;
    availableTools: readonly ToolSpec[];
    toolsCalled: readonly CoreToolCall[];
    output?: Content;
  },
  options: { signal?: AbortSignal; first?: JudgeResponse } = {},
): Promise<SelectionDetails> {
  const answer = await askJudge(
    model,
    toolSelectionRequest(input, { images: model.supportsImages }),
    {
      read: readToolSelection,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.first === undefined ? {} : { first: options.first }),
    },
  );
  return details(answer);
}
