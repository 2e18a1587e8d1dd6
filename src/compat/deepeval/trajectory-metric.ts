import { createNameNormalizer } from "../../core/normalize-tool-name.js";
import type { NameNormalizationOptions } from "../../core/normalize-tool-name.js";
import { parseTrajectory } from "../../adapters/parse-trajectory.js";
import pLimit from "p-limit";
import {
  InvalidInputError,
  InvalidOptionError,
  MissingParamsError,
  ToolscoreError,
  UnknownFormatError,
} from "../../core/errors.js";
import type { ErrorCode } from "../../core/errors.js";
import type { JudgeBatchStore, JudgeModel, JudgeResponse } from "../../core/judge.js";
import { toMetric } from "../../core/metric.js";
import type { ConvertsToMetric, Metric } from "../../core/metric.js";
import { toErroredResult } from "../../core/metric-result.js";
import type { ToolSpec } from "../../core/test-case.js";
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
  defaultConcurrency,
  modelOption,
  numberOption,
  optionsObject,
  rejectUnknownOptions,
} from "../../core/options.js";
import { readToolSelection, toolSelectionRequest } from "../../judges/tool-selection.js";
import { usableBy } from "../../judges/ask-judge.js";
import { runJudgeBatch } from "../../providers/judge-batch.js";
import type { JudgeSession } from "../../providers/judge-session.js";
import type { JudgeModelSettings } from "../../providers/judge-models.js";
import { judgeSelection, judgeSettings, selectionJudge, toToolSpecs } from "./selection.js";
import type { SelectionDetails } from "./selection.js";
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
  /**
   * The judge of tool selection: a model string (default `"openai/gpt-4.1"`, or
   * `"anthropic/claude-sonnet-4-5"`, `"ollama/llama3.2"`, ...) or a `JudgeModel`. Used only when a
   * case has available tools.
   */
  model?: string | JudgeModel;
  /** The judge's API key, when `model` is a string (else the provider's environment variable). */
  modelCredentials?: string;
  /** Settings of the judge: `baseURL`, `timeoutMs`, `maxRetries`, `structuredOutput`, ... */
  modelConfig?: JudgeModelSettings;
  /** Build a reason. Default true. */
  includeReason?: boolean;
  /** Binary score (1 or 0) and threshold 1. Default false. */
  strictMode?: boolean;
  /** Require the exact sequence of calls. Default false. */
  shouldExactMatch?: boolean;
  /** Score the order of the calls. Default false. */
  shouldConsiderOrdering?: boolean;
  /** Tools the agent could choose from; when given, an LLM judges tool selection too. */
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
  /** Tools available for this case (over the metric's); when given, an LLM judges selection. */
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
  /** toolscore: the LLM judgement of tool selection, when the case had available tools. */
  readonly selection?: SelectionDetails;
}

/** One case of `measureMany`: its result, or the error that kept it from one. */
export type DeepEvalToolCorrectnessOutcome =
  | { readonly status: "scored"; readonly result: DeepEvalToolCorrectnessResult }
  | {
      readonly status: "error";
      readonly error: {
        readonly code: ErrorCode;
        readonly message: string;
        readonly field?: string;
      };
    };

export interface MeasureManyOptions {
  /**
   * Send the selection judgements through the provider's batch API (OpenAI Batch API, Anthropic
   * Message Batches), polling every `batchStatusCheckInterval` seconds up to `batchMaxIterations`
   * times. Default false: judge case by case, `concurrency` at a time.
   */
  batch?: boolean;
  /** Remembers a submitted batch, so that a restarted run resumes it (`createFileBatchStore`). */
  batchStore?: JudgeBatchStore;
  /** A judge session (shared limits, cache, cost): its model judges, and batches use its cache. */
  session?: JudgeSession;
  /** Judgements in flight at most without batch mode (a session's own limit also applies). Default 8. */
  concurrency?: number;
  signal?: AbortSignal;
}

interface PreparedCase {
  readonly actual: { calls: CoreToolCall[]; warnings: readonly TrajectoryWarning[] };
  readonly expected: { calls: CoreToolCall[]; warnings: readonly TrajectoryWarning[] };
  readonly called: CoreToolCall[];
  readonly result: ReturnType<typeof scoreDeepevalToolCorrectness>;
  readonly mapping: Map<string, string>;
  readonly tools: readonly ToolSpec[];
  readonly query: string;
}

function errorOutcome(error: unknown): DeepEvalToolCorrectnessOutcome {
  if (ToolscoreError.isInstance(error)) {
    const field = (error as { field?: unknown }).field;
    return {
      status: "error",
      error: {
        code: error.code,
        message: error.message,
        ...(typeof field === "string" ? { field } : {}),
      },
    };
  }
  return {
    status: "error",
    error: {
      code: "METRIC_FAILED",
      message: error instanceof Error ? error.message : String(error),
    },
  };
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
export class DeepEvalToolCorrectnessMetric implements ConvertsToMetric<DeepEvalToolCorrectnessInput> {
  readonly threshold: number;
  readonly strictMode: boolean;
  readonly includeReason: boolean;
  readonly model: string | JudgeModel;
  readonly batchStatusCheckInterval: number;
  /** toolscore: the metric's available tools, as the judge is shown them. */
  readonly availableTools: readonly ToolSpec[];
  private judgeModel: JudgeModel | undefined;
  private readonly judgeSettings: JudgeModelSettings;
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
    this.model =
      (modelOption("model", model) as string | JudgeModel | undefined) ?? "openai/gpt-4.1";
    if (modelCredentials !== undefined && typeof modelCredentials !== "string") {
      throw new InvalidOptionError({
        option: "modelCredentials",
        value: "(hidden)",
        message: "modelCredentials must be a string (the judge's API key)",
      });
    }
    const config = judgeSettings("modelConfig", modelConfig);
    this.judgeSettings =
      modelCredentials === undefined ? config : { ...config, apiKey: modelCredentials };
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
    this.availableTools = toToolSpecs(availableTools, "availableTools");
    // With tools to choose from, the judge is set up now: a missing key fails before any case.
    if (this.availableTools.length > 0) this.judge();
    this.strictMode = this.resolved.strictMode;
    this.threshold = this.resolved.strictMode ? 1 : this.resolved.threshold;
    this.includeReason = this.resolved.includeReason;
  }

  /** The judge of tool selection, set up on first need. */
  private judge(): JudgeModel {
    this.judgeModel ??= selectionJudge(this.model, this.judgeSettings);
    return this.judgeModel;
  }

  /**
   * Scores one case: the calls, and with available tools (the metric's or the case's) the
   * selection, judged by an LLM; the lower score wins. Rejects with a typed error when the case
   * is not usable or the judge fails.
   */
  async measure(
    input: DeepEvalToolCorrectnessInput,
    options: { signal?: AbortSignal } = {},
  ): Promise<DeepEvalToolCorrectnessResult> {
    const prepared = this.prepare(input);
    const selection =
      prepared.tools.length === 0
        ? undefined
        : await judgeSelection(this.judge(), this.selectionInput(prepared), options);
    return this.conclude(prepared, selection);
  }

  /**
   * toolscore's metric for this class, for `evaluate` and the CLI: `measure`'s score, success and
   * reason as a `MetricResult` (cases shaped as `measure` takes them).
   */
  [toMetric](): Metric<DeepEvalToolCorrectnessInput, DeepEvalToolCorrectnessResult> {
    const name = "Tool Correctness";
    return {
      name,
      measure: async (testCase, options = {}) => {
        try {
          const result = await this.measure(testCase, options);
          return {
            status: "scored",
            metric: name,
            score: result.score,
            threshold: result.threshold,
            success: result.success,
            ...(result.reason === undefined ? {} : { reason: result.reason }),
            details: result,
          };
        } catch (error) {
          if (options.signal?.aborted === true) throw error;
          return toErroredResult(name, error);
        }
      },
    };
  }

  /**
   * Scores many cases; one bad case never stops the others. Selection judgements go case by
   * case (`concurrency` at a time) or, with `batch`, through the provider's batch API, resumable
   * with a `batchStore`.
   */
  async measureMany(
    inputs: readonly DeepEvalToolCorrectnessInput[],
    options: MeasureManyOptions = {},
  ): Promise<DeepEvalToolCorrectnessOutcome[]> {
    const signal = options.signal;
    const prepared = inputs.map((input): PreparedCase | DeepEvalToolCorrectnessOutcome => {
      try {
        return this.prepare(input);
      } catch (error) {
        return errorOutcome(error);
      }
    });
    const isPrepared = (
      entry: PreparedCase | DeepEvalToolCorrectnessOutcome,
    ): entry is PreparedCase => !("status" in entry);
    const judged = prepared
      .map((entry, index) => ({ entry, index }))
      .filter(
        (item): item is { entry: PreparedCase; index: number } =>
          isPrepared(item.entry) && item.entry.tools.length > 0,
      );
    const outcomes: DeepEvalToolCorrectnessOutcome[] = prepared.map((entry) =>
      isPrepared(entry) ? { status: "scored", result: this.conclude(entry, undefined) } : entry,
    );
    if (judged.length === 0) return outcomes;

    let judge: JudgeModel;
    try {
      judge = options.session?.model ?? this.judge();
    } catch (error) {
      for (const { index } of judged) outcomes[index] = errorOutcome(error);
      return outcomes;
    }
    const settle = async (index: number, entry: PreparedCase, first?: JudgeResponse) => {
      try {
        const selection = await judgeSelection(judge, this.selectionInput(entry), {
          ...(signal === undefined ? {} : { signal }),
          ...(first === undefined ? {} : { first }),
        });
        outcomes[index] = { status: "scored", result: this.conclude(entry, selection) };
      } catch (error) {
        if (signal?.aborted === true) throw error;
        outcomes[index] = errorOutcome(error);
      }
    };

    if (options.batch !== true) {
      const limit = pLimit(options.concurrency ?? defaultConcurrency);
      await Promise.all(judged.map(({ index, entry }) => limit(() => settle(index, entry))));
      return outcomes;
    }
    const requests = judged.map(({ index, entry }) => {
      const request = toolSelectionRequest(this.selectionInput(entry), {
        images: judge.supportsImages,
      });
      return { customId: `case-${index}`, request, accept: usableBy(request, readToolSelection) };
    });
    const batchOptions = {
      intervalSeconds: this.batchStatusCheckInterval,
      maxIterations: this.batchMaxIterations,
      ...(options.batchStore === undefined ? {} : { store: options.batchStore }),
      ...(signal === undefined ? {} : { signal }),
    };
    let answers: Map<string, JudgeResponse | Error>;
    try {
      answers = options.session
        ? await options.session.runBatch(requests, batchOptions)
        : await runJudgeBatch(judge, requests, batchOptions);
    } catch (error) {
      if (signal?.aborted === true) throw error;
      for (const { index } of judged) outcomes[index] = errorOutcome(error);
      return outcomes;
    }
    await Promise.all(
      judged.map(async ({ index, entry }) => {
        const answer = answers.get(`case-${index}`);
        if (answer instanceof Error || answer === undefined) {
          outcomes[index] = errorOutcome(answer ?? new Error("the batch returned no answer"));
          return;
        }
        // A batch answer counts as the first attempt; an unusable one is asked again directly.
        await settle(index, entry, answer);
      }),
    );
    return outcomes;
  }

  private selectionInput(prepared: PreparedCase) {
    return { input: prepared.query, availableTools: prepared.tools, toolsCalled: prepared.called };
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

  /** Validates a case and scores its calls; the judge comes after. */
  private prepare(input: DeepEvalToolCorrectnessInput): PreparedCase {
    const record: unknown = input;
    if (typeof record !== "object" || record === null) {
      throw new InvalidInputError({
        field: "input",
        message:
          "DeepEvalToolCorrectnessMetric measures an object with query and tool calls or trajectories",
      });
    }
    const caseTools = toToolSpecs(input.availableTools, "input.availableTools");
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
    return {
      actual,
      expected,
      called,
      result,
      mapping,
      tools: caseTools.length > 0 ? caseTools : this.availableTools,
      query: input.query,
    };
  }

  /** The final result: the lower of the two scores, then strict mode. */
  private conclude(
    prepared: PreparedCase,
    selection: SelectionDetails | undefined,
  ): DeepEvalToolCorrectnessResult {
    const { result, actual, expected, mapping } = prepared;
    const final = finalizeDeepevalScore({
      score: selection === undefined ? result.score : Math.min(result.score, selection.score),
      strictMode: this.strictMode,
      threshold: this.resolved.threshold,
    });
    return {
      score: final.score,
      ...(result.reason === undefined
        ? {}
        : {
            reason: `Tool Calling Reason: ${result.reason}\nTool Selection Reason: ${selection?.reason ?? noSelectionReason}`,
          }),
      success: final.success,
      threshold: final.threshold,
      strictMode: this.strictMode,
      higherIsBetter: true,
      details: result.details,
      warnings: { actual: actual.warnings, expected: expected.warnings },
      nameMapping: [...mapping].map(([original, normalized]) => ({ original, normalized })),
      ...(selection === undefined ? {} : { selection }),
    };
  }
}
