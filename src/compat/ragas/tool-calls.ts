import { InvalidInputError, MissingParamsError } from "../../core/errors.js";
import { toMetric } from "../../core/metric.js";
import type { ConvertsToMetric, Metric } from "../../core/metric.js";
import { ragasMetric } from "../../metrics/definitions.js";
import { toToolCalls } from "../../core/tool-call.js";
import type { ToolCall as CoreToolCall } from "../../core/tool-call.js";
import { optionsObject, rejectUnknownOptions } from "../../core/options.js";
import { comparePythonStrings } from "../../metrics/python-text.js";
import {
  resolveRagasToolCallAccuracyOptions,
  resolveRagasToolCallF1Options,
  scoreRagasToolCallAccuracy,
  scoreRagasToolCallF1,
} from "../../metrics/ragas-tool-call.js";
import type {
  RagasToolCallAccuracyOptions,
  RagasToolCallF1Options,
  RagasToolCallScore,
  ResolvedRagasToolCallOptions,
} from "../../metrics/ragas-tool-call.js";

/** A tool call as ragas writes it: a name and its arguments (`args`). */
export class ToolCall {
  name: string;
  args: Record<string, unknown>;
  constructor(fields: { name: string; args?: Record<string, unknown> }) {
    this.name = fields.name;
    this.args = fields.args ?? {};
  }
}

/** ragas' message classes: only an `AIMessage`'s tool calls are read. */
export class HumanMessage {
  readonly type = "human";
  content: string;
  constructor(fields: { content: string }) {
    this.content = fields.content;
  }
}

export class AIMessage {
  readonly type = "ai";
  content: string;
  toolCalls?: ToolCall[] | undefined;
  constructor(fields: { content: string; toolCalls?: ToolCall[] }) {
    this.content = fields.content;
    this.toolCalls = fields.toolCalls;
  }
}

export class ToolMessage {
  readonly type = "tool";
  content: string;
  constructor(fields: { content: string }) {
    this.content = fields.content;
  }
}

type Message = HumanMessage | AIMessage | ToolMessage;

/** ragas' multi-turn sample: the conversation and the reference tool calls. */
export class MultiTurnSample {
  userInput: Message[];
  referenceToolCalls?: ToolCall[] | undefined;
  reference?: string | undefined;
  constructor(fields: {
    userInput: Message[];
    referenceToolCalls?: ToolCall[];
    reference?: string;
  }) {
    this.userInput = fields.userInput;
    this.referenceToolCalls = fields.referenceToolCalls;
    this.reference = fields.reference;
  }
}

/** A sample's calls: those of its AI messages, in order, and the reference's. */
function callsOf(
  metric: string,
  sample: unknown,
): { called: CoreToolCall[]; expected: CoreToolCall[] } {
  if (typeof sample !== "object" || sample === null) {
    throw new InvalidInputError({
      field: "sample",
      message: `${metric} scores a MultiTurnSample ({ userInput, referenceToolCalls })`,
    });
  }
  const { userInput, referenceToolCalls } = sample as Record<string, unknown>;
  if (referenceToolCalls === undefined || referenceToolCalls === null) {
    throw new MissingParamsError({
      fields: ["referenceToolCalls"],
      message: `${metric} needs the sample's referenceToolCalls (an empty list means no calls)`,
    });
  }
  if (!Array.isArray(userInput)) {
    throw new InvalidInputError({
      field: "userInput",
      message: `${metric}: userInput must be the conversation, a list of messages`,
    });
  }
  const made: unknown[] = [];
  userInput.forEach((message: unknown, index) => {
    if (typeof message !== "object" || message === null) {
      throw new InvalidInputError({
        field: `userInput[${index}]`,
        message: `userInput[${index}] must be a message (HumanMessage, AIMessage or ToolMessage)`,
      });
    }
    const { type, toolCalls } = message as { type?: unknown; toolCalls?: unknown };
    if (type !== "ai" || toolCalls === undefined || toolCalls === null) return;
    if (!Array.isArray(toolCalls)) {
      throw new InvalidInputError({
        field: `userInput[${index}].toolCalls`,
        message: `userInput[${index}].toolCalls must be a list of ToolCall`,
      });
    }
    made.push(...(toolCalls as unknown[]));
  });
  const asCalls = (list: readonly unknown[], field: string) =>
    toToolCalls(
      list.map((item) =>
        typeof item === "object" && item !== null && "args" in item
          ? { name: (item as ToolCall).name, arguments: (item as ToolCall).args }
          : item,
      ),
      { field },
    );
  if (!Array.isArray(referenceToolCalls)) {
    throw new InvalidInputError({
      field: "referenceToolCalls",
      message: "referenceToolCalls must be a list of ToolCall",
    });
  }
  return {
    called: asCalls(made, "userInput"),
    expected: asCalls(referenceToolCalls as unknown[], "referenceToolCalls"),
  };
}

/** What the two classes share: options, `multiTurnAscore`, and the toolscore metric. */
abstract class RagasToolCallMetric implements ConvertsToMetric {
  abstract readonly name: string;
  readonly options: ResolvedRagasToolCallOptions;

  protected constructor(options: ResolvedRagasToolCallOptions) {
    this.options = options;
  }

  protected abstract scoreCalls(calls: {
    called: CoreToolCall[];
    expected: CoreToolCall[];
  }): RagasToolCallScore;

  /** ragas' score of one sample (its number only, as ragas returns). */
  multiTurnAscore(sample: MultiTurnSample): Promise<number> {
    try {
      return Promise.resolve(this.scoreCalls(callsOf(this.name, sample)).score);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** The score with toolscore's reason and details. */
  explain(sample: MultiTurnSample): RagasToolCallScore {
    return this.scoreCalls(callsOf(this.name, sample));
  }

  /** The registry's metric of the same id, for `evaluate` and the CLI (reads toolsCalled, expectedTools). */
  protected abstract readonly id: "ragas-tool-call-accuracy" | "ragas-tool-call-f1";

  [toMetric](): Metric {
    const { strictOrder, threshold } = this.options;
    return ragasMetric(this.id, {
      name: this.name,
      threshold,
      ...(this.id === "ragas-tool-call-accuracy" ? { strictOrder } : {}),
    });
  }
}

/**
 * ragas' `ToolCallAccuracy`: 0 unless the names called are the reference's in sequence (in order
 * under `strictOrder`, the default; as a sorted list otherwise), then the mean over the reference's
 * calls of the share of its arguments equal as Python's `str()`.
 *
 * @example
 * const metric = new ToolCallAccuracy({ strictOrder: false });
 * await metric.multiTurnAscore(new MultiTurnSample({ userInput, referenceToolCalls }));
 */
export class ToolCallAccuracy extends RagasToolCallMetric {
  readonly name = "tool_call_accuracy";
  protected readonly id = "ragas-tool-call-accuracy";

  constructor(options?: RagasToolCallAccuracyOptions) {
    const given = optionsObject("ToolCallAccuracy", options);
    rejectUnknownOptions("ToolCallAccuracy", given, ["strictOrder", "threshold"]);
    super(resolveRagasToolCallAccuracyOptions(given));
  }

  get strictOrder(): boolean {
    return this.options.strictOrder;
  }

  /** ragas' sequence gate: the names equal in order, or as sorted lists without `strictOrder`. */
  isSequenceAligned(predicted: readonly string[], reference: readonly string[]): boolean {
    const [a, b] = this.options.strictOrder
      ? [predicted, reference]
      : [[...predicted].sort(comparePythonStrings), [...reference].sort(comparePythonStrings)];
    return a.length === b.length && a.every((name, at) => name === b[at]);
  }

  protected scoreCalls(calls: { called: CoreToolCall[]; expected: CoreToolCall[] }) {
    return scoreRagasToolCallAccuracy(calls, this.options);
  }
}

/**
 * ragas' `ToolCallF1`: F1 over the sets of calls (a call is its name and arguments; a repeated call
 * counts once), rounded to 4 digits.
 */
export class ToolCallF1 extends RagasToolCallMetric {
  readonly name = "tool_call_f1";
  protected readonly id = "ragas-tool-call-f1";

  constructor(options?: RagasToolCallF1Options) {
    const given = optionsObject("ToolCallF1", options);
    rejectUnknownOptions("ToolCallF1", given, ["threshold"]);
    super(resolveRagasToolCallF1Options(given));
  }

  protected scoreCalls(calls: { called: CoreToolCall[]; expected: CoreToolCall[] }) {
    return scoreRagasToolCallF1(calls);
  }
}
