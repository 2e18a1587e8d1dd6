import { createNameNormalizer } from "../../adapters/normalize-tool-name.js";
import type { NameNormalizationOptions } from "../../adapters/normalize-tool-name.js";
import { parseTrajectory } from "../../adapters/parse-trajectory.js";
import {
  InvalidInputError,
  InvalidOptionError,
  JudgeRequiredError,
  MissingParamsError,
  UnknownFormatError,
} from "../../core/errors.js";
import type { ToolCallMatchDetails } from "../../core/explanation.js";
import { toToolCalls } from "../../core/tool-call.js";
import type { ToolCall as CoreToolCall } from "../../core/tool-call.js";
import { trajectoryFormats } from "../../core/trajectory.js";
import type { NameMapping, TrajectoryFormat, TrajectoryWarning } from "../../core/trajectory.js";
import {
  finalizeDeepevalScore,
  resolveDeepevalToolCorrectnessOptions,
  scoreDeepevalToolCorrectness,
} from "../../metrics/deepeval-tool-correctness.js";
import type {
  DeepevalToolCorrectnessOptions,
  ResolvedDeepevalToolCorrectnessOptions,
} from "../../metrics/deepeval-tool-correctness.js";
import type { MatchLimits } from "../../metrics/limits.js";
import {
  modelOption,
  numberOption,
  optionsObject,
  rejectUnknownOptions,
} from "../../metrics/options.js";
import { ToolCall } from "./test-case.js";
import type { ToolCallParams } from "./test-case.js";

/** A tool call as the trajectory metric takes it: a name, its arguments, optionally its output. */
export interface TrajectoryToolCall {
  name: string;
  args?: Record<string, unknown> | null;
  output?: unknown;
}

/** An available tool: its name, what it does, and its parameters as JSON Schema. */
export interface AvailableTool {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

export interface DeepEvalToolCorrectnessMetricOptions {
  /** Minimum passing score. Default 0.5. */
  threshold?: number;
  /** The judge model for tool selection (`"openai/gpt-4.1"` by default once judging exists). */
  model?: string | object;
  /** The judge's credentials, when `model` is a name. */
  modelCredentials?: string;
  /** Settings for the judge model. */
  modelConfig?: Record<string, unknown>;
  /** Build a reason. Default true. */
  includeReason?: boolean;
  /** Binary score (1 or 0) and threshold 1. Default false. */
  strictMode?: boolean;
  /** Require the exact sequence of calls. Default false. */
  shouldExactMatch?: boolean;
  /** Score the order of the calls. Default false. */
  shouldConsiderOrdering?: boolean;
  /** Tools the agent could choose from, for a judgement of tool selection; needs a judge. */
  availableTools?: AvailableTool[];
  /** Fields compared besides the name. Default both input parameters and output. */
  evaluationParams?: ToolCallParams[];
  /** Seconds between status checks of a provider batch. Default 30. */
  batchStatusCheckInterval?: number;
  /** Status checks of a provider batch at most. Default 120. */
  batchMaxIterations?: number;
  /**
   * toolscore: how tool names are normalized on both sides before comparison. Default true
   * (random-looking suffixes such as `_xg7c` removed, as the original's parser does); false
   * compares names as they are.
   */
  normalizeNames?: boolean | NameNormalizationOptions;
  /** toolscore: the format of the trajectories, when detection should not decide. */
  trajectoryFormat?: TrajectoryFormat;
  /** toolscore: `"greedy"` (default) or `"optimal"` pairing when unordered. */
  matching?: "greedy" | "optimal";
  /** toolscore: bounds for pathological inputs. */
  limits?: MatchLimits;
}

/** What one measurement of the trajectory metric needs. */
export interface DeepEvalToolCorrectnessInput {
  /** The user's request. */
  query: string;
  generatedResponse?: string;
  expectedResponse?: string;
  /** The calls the agent made; wins over `agentTrajectory`. */
  toolsCalled?: TrajectoryToolCall[];
  /** The calls expected; wins over `expectedAgentTrajectory`. */
  expectedTools?: TrajectoryToolCall[];
  /** The agent's transcript, in any format `parseTrajectory` reads. */
  agentTrajectory?: unknown;
  /** The expected transcript, in any format `parseTrajectory` reads. */
  expectedAgentTrajectory?: unknown;
  /** Tools available for this case; needs a judge. */
  availableTools?: AvailableTool[];
}

export interface DeepEvalToolCorrectnessResult {
  readonly score: number;
  readonly reason?: string;
  readonly success: boolean;
  readonly threshold: number;
  readonly strictMode: boolean;
  readonly higherIsBetter: true;
  /** toolscore: the alignment behind the score. */
  readonly details: ToolCallMatchDetails;
  /** toolscore: what parsing the trajectories found odd, per side. */
  readonly warnings: {
    readonly actual: readonly TrajectoryWarning[];
    readonly expected: readonly TrajectoryWarning[];
  };
  /** toolscore: the tool names normalization changed, on either side. */
  readonly nameMapping: readonly NameMapping[];
}

const knownOptions = [
  "threshold",
  "model",
  "modelCredentials",
  "modelConfig",
  "includeReason",
  "strictMode",
  "shouldExactMatch",
  "shouldConsiderOrdering",
  "availableTools",
  "evaluationParams",
  "batchStatusCheckInterval",
  "batchMaxIterations",
  "normalizeNames",
  "trajectoryFormat",
  "matching",
  "limits",
];

const noSelectionReason = "No available tools were provided to assess tool selection criteria";

function requireNoJudge(availableTools: unknown, where: string): void {
  if (availableTools === undefined || availableTools === null) return;
  if (!Array.isArray(availableTools)) {
    throw new InvalidInputError({
      field: where,
      message: `${where} must be an array of tool definitions`,
    });
  }
  if (availableTools.length > 0) {
    throw new JudgeRequiredError({
      option: where,
      message: `DeepEvalToolCorrectnessMetric: ${where} asks an LLM judge to score tool selection, and this version of toolscore has no judge yet; leave it out (or pass []) to score the calls alone`,
    });
  }
}

/**
 * The trajectory-based tool correctness metric: deepeval's scoring on calls given as `{name, args,
 * output}` lists or read from agent transcripts in any supported format, with tool names
 * normalized on both sides. Defaults differ from deepeval's metric: input parameters and outputs
 * are both compared.
 *
 * @example
 * const metric = new DeepEvalToolCorrectnessMetric();
 * const { score, reason } = await metric.measure({ query, agentTrajectory, expectedAgentTrajectory });
 */
export class DeepEvalToolCorrectnessMetric {
  readonly threshold: number;
  readonly strictMode: boolean;
  readonly includeReason: boolean;
  readonly model: string | object;
  readonly batchStatusCheckInterval: number;
  readonly batchMaxIterations: number;
  private readonly resolved: ResolvedDeepevalToolCorrectnessOptions;
  private readonly normalize: ((name: string) => string) | undefined;
  private readonly trajectoryFormat: TrajectoryFormat | undefined;

  constructor(options?: DeepEvalToolCorrectnessMetricOptions) {
    const given = optionsObject("DeepEvalToolCorrectnessMetric", options);
    rejectUnknownOptions("DeepEvalToolCorrectnessMetric", given, knownOptions);
    const {
      model,
      modelCredentials,
      modelConfig,
      availableTools,
      batchStatusCheckInterval,
      batchMaxIterations,
      normalizeNames,
      trajectoryFormat,
      ...scoring
    } = given;
    this.resolved = resolveDeepevalToolCorrectnessOptions({
      evaluationParams: ["inputParameters", "output"],
      ...(scoring as DeepevalToolCorrectnessOptions),
    });
    this.model = modelOption("model", model) ?? "openai/gpt-4.1";
    this.model = model ?? "openai/gpt-4.1";
    if (modelCredentials !== undefined && typeof modelCredentials !== "string") {
      throw new InvalidOptionError({
        option: "modelCredentials",
        value: "(hidden)",
        message: "modelCredentials must be a string",
      });
    }
    if (
      modelConfig !== undefined &&
      (typeof modelConfig !== "object" || modelConfig === null || Array.isArray(modelConfig))
    ) {
      throw new InvalidOptionError({
        option: "modelConfig",
        value: modelConfig,
        message: "modelConfig must be an object",
      });
    }
    this.batchStatusCheckInterval = numberOption(
      "batchStatusCheckInterval",
      batchStatusCheckInterval,
      30,
      { min: 0.001, max: Number.MAX_SAFE_INTEGER },
    );
    this.batchMaxIterations = numberOption("batchMaxIterations", batchMaxIterations, 120, {
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
    });
    if (!Number.isInteger(this.batchMaxIterations)) {
      throw new InvalidOptionError({
        option: "batchMaxIterations",
        value: batchMaxIterations,
        message: "batchMaxIterations must be a whole number",
      });
    }
    if (
      trajectoryFormat !== undefined &&
      !trajectoryFormats.includes(trajectoryFormat as TrajectoryFormat)
    ) {
      throw new InvalidOptionError({
        option: "trajectoryFormat",
        value: trajectoryFormat,
        message: `trajectoryFormat must be one of ${trajectoryFormats.join(", ")}`,
      });
    }
    this.trajectoryFormat = trajectoryFormat as TrajectoryFormat | undefined;
    const normalizeOption: unknown = normalizeNames ?? true;
    if (typeof normalizeOption === "boolean") {
      this.normalize = normalizeOption ? createNameNormalizer() : undefined;
    } else if (typeof normalizeOption === "object" && normalizeOption !== null) {
      this.normalize = createNameNormalizer(normalizeOption);
    } else {
      throw new InvalidOptionError({
        option: "normalizeNames",
        value: normalizeOption,
        message: "normalizeNames must be true, false, or name normalization options",
      });
    }
    requireNoJudge(availableTools, "availableTools");
    this.strictMode = this.resolved.strictMode;
    this.threshold = this.resolved.strictMode ? 1 : this.resolved.threshold;
    this.includeReason = this.resolved.includeReason;
  }

  /** Scores one case. Rejects with a typed error when the case is not usable. */
  measure(input: DeepEvalToolCorrectnessInput): Promise<DeepEvalToolCorrectnessResult> {
    try {
      return Promise.resolve(this.measureNow(input));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private calls(
    list: unknown,
    trajectory: unknown,
    listField: string,
    trajectoryField: string,
  ): { calls: CoreToolCall[]; warnings: readonly TrajectoryWarning[] } | undefined {
    if (list !== undefined && list !== null)
      return { calls: toToolCalls(list, { field: listField }), warnings: [] };
    if (trajectory === undefined || trajectory === null) return undefined;
    try {
      const parsed = parseTrajectory(
        trajectory,
        this.trajectoryFormat ? { format: this.trajectoryFormat } : {},
      );
      return { calls: [...parsed.calls], warnings: parsed.warnings };
    } catch (error) {
      if (InvalidInputError.isInstance(error)) {
        throw new InvalidInputError({
          field: `${trajectoryField}${error.field.replace(/^\$/, "")}`,
          message: `${trajectoryField}: ${error.message}`,
          cause: error,
        });
      }
      if (UnknownFormatError.isInstance(error)) {
        throw new UnknownFormatError({
          message: `${trajectoryField}: ${error.message}`,
          cause: error,
        });
      }
      throw error;
    }
  }

  private measureNow(input: DeepEvalToolCorrectnessInput): DeepEvalToolCorrectnessResult {
    const record: unknown = input;
    if (typeof record !== "object" || record === null) {
      throw new InvalidInputError({
        field: "input",
        message:
          "DeepEvalToolCorrectnessMetric measures an object with query and tool calls or trajectories",
      });
    }
    requireNoJudge(input.availableTools, "input.availableTools");
    const actual = this.calls(
      input.toolsCalled,
      input.agentTrajectory,
      "toolsCalled",
      "agentTrajectory",
    );
    const expected = this.calls(
      input.expectedTools,
      input.expectedAgentTrajectory,
      "expectedTools",
      "expectedAgentTrajectory",
    );
    const missing = [
      ...(typeof input.query === "string" ? [] : ["query"]),
      ...(actual ? [] : ["toolsCalled or agentTrajectory"]),
      ...(expected ? [] : ["expectedTools or expectedAgentTrajectory"]),
    ];
    if (missing.length > 0 || !actual || !expected) {
      throw new MissingParamsError({
        fields: missing,
        message: `DeepEvalToolCorrectnessMetric needs ${missing.map((m) => `'${m}'`).join(" and ")}`,
      });
    }

    const mapping = new Map<string, string>();
    const normalize = this.normalize;
    // The original builds its calls from name, arguments and output alone: a tool reached over
    // MCP and the same tool called as a function are one tool here.
    const rename = (calls: CoreToolCall[]): CoreToolCall[] =>
      calls.map((call) => {
        const name = normalize ? normalize(call.name) : call.name;
        if (name !== call.name) mapping.set(call.name, name);
        return name === call.name && call.type === "FUNCTION"
          ? call
          : { ...call, name, type: "FUNCTION" };
      });
    const called = rename(actual.calls);
    const expectedCalls = rename(expected.calls);

    const result = scoreDeepevalToolCorrectness({ expected: expectedCalls, called }, this.resolved);
    const final = finalizeDeepevalScore({
      score: result.score,
      strictMode: this.strictMode,
      threshold: this.resolved.threshold,
    });
    return {
      score: final.score,
      ...(result.reason === undefined
        ? {}
        : {
            reason: `Tool Calling Reason: ${result.reason}\nTool Selection Reason: ${noSelectionReason}`,
          }),
      success: final.success,
      threshold: final.threshold,
      strictMode: this.strictMode,
      higherIsBetter: true,
      details: result.details,
      warnings: { actual: actual.warnings, expected: expected.warnings },
      nameMapping: [...mapping].map(([original, normalized]) => ({ original, normalized })),
    };
  }
}

/** One step of a trajectory, as the original's parser flattens it. */
export interface ToolStep {
  toolCallId: string | undefined;
  kind: "tool_call" | "tool_result";
  name: string;
  args: Record<string, unknown>;
  output?: unknown;
}

/** The original's trajectory parser: a transcript into a flat list of call and result steps. */
export class TrajectoryParser {
  /**
   * One `tool_call` step per call and, when it has a result, one `tool_result` step with the
   * output; the two share the call's `toolCallId`. Results follow the calls of their step.
   */
  convertTrajectoryToSteps(trajectory: unknown): ToolStep[] {
    const parsed = parseTrajectory(trajectory);
    const steps: ToolStep[] = [];
    for (const step of parsed.steps) {
      const calls = step.calls.map((index) => parsed.calls[index]);
      for (const call of calls) {
        steps.push({
          toolCallId: call.id,
          kind: "tool_call",
          name: call.name,
          args: { ...call.inputParameters },
        });
      }
      for (const call of calls) {
        if (call.output === null && call.isError !== true) continue;
        steps.push({
          toolCallId: call.id,
          kind: "tool_result",
          name: call.name,
          args: { ...call.inputParameters },
          output: call.output,
        });
      }
    }
    return steps;
  }

  parse(trajectory: unknown): ToolStep[] {
    return this.convertTrajectoryToSteps(trajectory);
  }
}

/** The original's tool-call parser: steps or `{name, args, output}` dicts into tool calls. */
export class ToolCallParser {
  /**
   * Tool calls from steps: steps sharing a `toolCallId` are one call (the output from its result
   * step); names normalized unless `normalizeNames` is false; outputs left out when
   * `includeOutput` is false.
   */
  createToolCallObject(
    steps: readonly Partial<ToolStep>[],
    options: { normalizeNames?: boolean; includeOutput?: boolean } = {},
  ): ToolCall[] {
    const normalize =
      options.normalizeNames === false ? (name: string) => name : createNameNormalizer();
    const includeOutput = options.includeOutput ?? true;
    const byId = new Map<string, ToolCall>();
    const calls: ToolCall[] = [];
    steps.forEach((step, index) => {
      if (typeof step.name !== "string") {
        throw new InvalidInputError({
          field: `steps[${index}].name`,
          message: `steps[${index}].name must be a string`,
        });
      }
      const existing = step.toolCallId === undefined ? undefined : byId.get(step.toolCallId);
      if (existing) {
        if (includeOutput && step.output !== undefined) existing.output = step.output;
        return;
      }
      const call = new ToolCall({
        name: normalize(step.name),
        inputParameters: step.args ?? {},
        ...(includeOutput && step.output !== undefined ? { output: step.output } : {}),
      });
      calls.push(call);
      if (step.toolCallId !== undefined) byId.set(step.toolCallId, call);
    });
    return calls;
  }

  /** Steps from `{name, args, output}` dicts, one `tool_call` step each. */
  parse(toolCalls: readonly TrajectoryToolCall[]): ToolStep[] {
    return toolCalls.map((call, index) => {
      if (typeof call.name !== "string") {
        throw new InvalidInputError({
          field: `toolCalls[${index}].name`,
          message: `toolCalls[${index}].name must be a string`,
        });
      }
      return {
        toolCallId: undefined,
        kind: "tool_call",
        name: call.name,
        args: { ...(call.args ?? {}) },
        ...(call.output === undefined ? {} : { output: call.output }),
      };
    });
  }
}
