import { InvalidInputError, MissingParamsError } from "../../core/errors.js";
import type { JudgeModel } from "../../core/judge.js";
import { toMetric } from "../../core/metric.js";
import type { ConvertsToMetric, Metric } from "../../core/metric.js";
import { toErroredResult } from "../../core/metric-result.js";
import type { MetricResult } from "../../core/metric-result.js";
import type { Content, ContentPart, TestCase, ToolSpec } from "../../core/test-case.js";
import type { ToolCallMatchDetails } from "../../core/explanation.js";
import { toToolCalls } from "../../core/tool-call.js";
import type { ToolCall as CoreToolCall } from "../../core/tool-call.js";
import {
  finalizeDeepevalScore,
  resolveDeepevalToolCorrectnessOptions,
  createDeepevalScorer,
} from "../../metrics/deepeval-tool-correctness.js";
import type {
  DeepevalScorer,
  DeepevalReasonKind,
  ResolvedDeepevalToolCorrectnessOptions,
} from "../../metrics/deepeval-tool-correctness.js";
import {
  booleanOption,
  modelOption,
  optionsObject,
  rejectUnknownOptions,
} from "../../core/options.js";
import type { MatchLimits } from "../../metrics/limits.js";
import { loadContentImages } from "../../node/load-content.js";
import type { ImageLoadOptions } from "../../node/load-image.js";
import type { JudgeModelSettings } from "../../providers/judge-models.js";
import { judgeSelection, judgeSettings, selectionJudge, toToolSpecs } from "./selection.js";
import type { SelectionDetails } from "./selection.js";
import { MLLMImage } from "./test-case.js";
import type {
  LLMTestCaseInit,
  MLLMTestCaseInit,
  ToolCallInit,
  ToolCallParams,
} from "./test-case.js";

/** The options of deepeval's `ToolCorrectnessMetric`, plus toolscore's `matching` and `limits`. */
export interface ToolCorrectnessMetricOptions {
  /** Minimum passing score. Default 0.5. */
  threshold?: number;
  /** Fields compared besides the name. Default `[]` (names only). */
  evaluationParams?: ToolCallParams[];
  /** Build a reason. Default true. */
  includeReason?: boolean;
  /** Binary score (1 or 0) and threshold 1. Default false. */
  strictMode?: boolean;
  /** Print the intermediate steps of each `measure`. Default false. */
  verboseMode?: boolean;
  /** Score the order of the calls. Default false. */
  shouldConsiderOrdering?: boolean;
  /** Require the exact sequence of calls. Default false. */
  shouldExactMatch?: boolean;
  /**
   * The tools the agent could choose from. When given (non-empty), an LLM judges tool selection
   * and the score is the lower of the tool-calling and the selection scores.
   */
  availableTools?: ToolCallInit[];
  /** Accepted for compatibility; toolscore shows no progress indicator. */
  showIndicator?: boolean;
  /**
   * The judge of tool selection: a model string (`"openai/gpt-4.1"`, the default, or
   * `"anthropic/claude-sonnet-4-5"`, `"ollama/llama3.2"`, ...) or a `JudgeModel` (a judge
   * session's model, `fromAiSdk(...)`). Used only with `availableTools`, as in deepeval.
   */
  model?: string | JudgeModel;
  /** toolscore: settings of a judge named by a model string (API key, base URL, timeouts). */
  modelSettings?: JudgeModelSettings;
  /**
   * toolscore: how images in `input` and `actualOutput` are loaded for the judge: allowed folders
   * (default the current directory), `allowAddresses` for internal hosts, size limits, ...
   */
  imageLoading?: ImageLoadOptions;
  /** toolscore: `"greedy"` (deepeval's numbers, default) or `"optimal"` pairing when unordered. */
  matching?: "greedy" | "optimal";
  /** toolscore: bounds for pathological inputs. */
  limits?: MatchLimits;
}

const knownOptions = [
  "threshold",
  "evaluationParams",
  "includeReason",
  "strictMode",
  "verboseMode",
  "shouldConsiderOrdering",
  "shouldExactMatch",
  "availableTools",
  "showIndicator",
  "model",
  "modelSettings",
  "imageLoading",
  "matching",
  "limits",
];

const calledField = { field: "toolsCalled" };
const expectedField = { field: "expectedTools" };

/** The required fields a case lacks, or `undefined` (without allocating) when it has them all. */
function missingFields(
  record: Record<string, unknown>,
  required: readonly string[],
): string[] | undefined {
  let missing: string[] | undefined;
  for (const field of required) {
    if (record[field] === undefined || record[field] === null) (missing ??= []).push(field);
  }
  return missing;
}

const noSelectionReason = "No available tools were provided to assess tool selection criteria";

function joinFields(fields: readonly string[]): string {
  const quoted = fields.map((field) => `'${field}'`);
  if (quoted.length <= 2) return quoted.join(" and ");
  return `${quoted.slice(0, -1).join(", ")}, and ${quoted[quoted.length - 1]}`;
}

function renderCalls(calls: readonly CoreToolCall[]): string {
  return JSON.stringify(
    calls.map(({ name, inputParameters, output }) => ({ name, inputParameters, output })),
    null,
    2,
  );
}

/** A case's calls and their score: one object, which is also the scorer's input. */
class ScoredCalls {
  readonly result: ReturnType<DeepevalScorer>;

  constructor(
    readonly called: readonly CoreToolCall[],
    readonly expected: readonly CoreToolCall[],
    scorer: DeepevalScorer,
  ) {
    this.result = scorer(this);
  }
}

/** A test case's input as judge content: text, or deepeval's mix of strings and `MLLMImage`s. */
function toContent(input: unknown): Content {
  if (typeof input === "string") return input;
  if (!Array.isArray(input)) return String(input);
  return input.map((part: unknown, index): ContentPart => {
    if (typeof part === "string") return { type: "text", text: part };
    if (part instanceof MLLMImage) return part.toImagePart();
    if (typeof part === "object" && part !== null && ("url" in part || "dataBase64" in part)) {
      return new MLLMImage(part as ConstructorParameters<typeof MLLMImage>[0]).toImagePart();
    }
    throw new InvalidInputError({
      field: `input[${index}]`,
      message: `input[${index}] must be text or an MLLMImage`,
    });
  });
}

/** One case's outcome: the calls' score, the selection's when judged, and the final verdict. */
interface Outcome {
  readonly scored: ScoredCalls;
  readonly selection: SelectionDetails | undefined;
  readonly score: number;
  readonly threshold: number;
  readonly success: boolean;
}

/** Shared by the text and multimodal metrics, which differ only in name and required fields. */
abstract class DeepevalToolCorrectnessBase implements ConvertsToMetric {
  threshold: number;
  readonly strictMode: boolean;
  readonly verboseMode: boolean;
  readonly includeReason: boolean;
  readonly evaluationParams: readonly ToolCallParams[];
  readonly shouldExactMatch: boolean;
  readonly shouldConsiderOrdering: boolean;
  /** The score of the last `measure`. */
  score?: number;
  /** Whether the last `measure` reached the threshold. */
  success?: boolean;
  /** The error message of the last `measure`, when it threw. */
  error?: string;
  /** toolscore: which reason template the last score selected. */
  reasonKind?: DeepevalReasonKind;
  /** toolscore: the LLM judgement of tool selection behind the last score, when there was one. */
  selection?: SelectionDetails;
  /**
   * What the last `measure` computed. The reason, the details and the verbose steps are worked
   * out from it when first read: most runs read none of them, and they cost more than the score.
   */
  private last?: ScoredCalls;
  private lastReason?: string;
  /** toolscore: the tools available to the agent, as the judge is shown them. */
  readonly availableTools: readonly ToolSpec[];
  /** toolscore: the judge of tool selection (only with `availableTools`). */
  readonly judge?: JudgeModel;
  private readonly imageLoading: ImageLoadOptions;
  protected readonly resolved: ResolvedDeepevalToolCorrectnessOptions;
  private readonly scorer: DeepevalScorer;

  /** Whether `actualOutput` is required besides input, toolsCalled and expectedTools. */
  protected abstract readonly requiresOutput: boolean;
  abstract get name(): string;

  constructor(options: ToolCorrectnessMetricOptions | undefined, metricName: string) {
    const given = optionsObject(metricName, options);
    rejectUnknownOptions(metricName, given, knownOptions);
    const {
      verboseMode,
      availableTools,
      showIndicator,
      model,
      modelSettings,
      imageLoading,
      ...scoring
    } = given;
    this.imageLoading = imageLoading ?? {};
    modelOption("model", model);
    const settings = judgeSettings("modelSettings", modelSettings);
    this.resolved = resolveDeepevalToolCorrectnessOptions(scoring);
    this.scorer = createDeepevalScorer(this.resolved);
    booleanOption("showIndicator", showIndicator, false);
    this.verboseMode = booleanOption("verboseMode", verboseMode, false);
    this.availableTools = toToolSpecs(availableTools, "availableTools");
    // As in deepeval, the judge is asked only when there are tools to choose from; its model is
    // set up now, so that a missing key fails before any case runs.
    if (this.availableTools.length > 0) this.judge = selectionJudge(model, settings);
    this.strictMode = this.resolved.strictMode;
    this.threshold = this.resolved.strictMode ? 1 : this.resolved.threshold;
    this.includeReason = this.resolved.includeReason;
    this.evaluationParams = this.resolved.evaluationParams;
    this.shouldExactMatch = this.resolved.shouldExactMatch;
    this.shouldConsiderOrdering = this.resolved.shouldConsiderOrdering;
  }

  /**
   * Scores one test case, sets `score`, `reason`, `success` and `details`, and returns the score.
   * With `availableTools`, an LLM judges the selection too and the lower score wins.
   */
  async measure(
    testCase: LLMTestCaseInit | MLLMTestCaseInit,
    options?: { signal?: AbortSignal },
  ): Promise<number> {
    this.score = undefined;
    this.success = undefined;
    this.error = undefined;
    this.reasonKind = undefined;
    this.selection = undefined;
    this.last = undefined;
    this.lastReason = undefined;
    try {
      // Without a judge nothing is awaited: no promise of its own per case.
      const outcome =
        this.judge === undefined
          ? this.conclude(this.scoreCalls(testCase), undefined)
          : await this.outcomeOf(testCase, options?.signal);
      this.score = outcome.score;
      this.threshold = outcome.threshold;
      this.success = outcome.success;
      this.reasonKind = outcome.scored.result.reasonKind;
      this.last = outcome.scored;
      if (outcome.selection !== undefined) this.selection = outcome.selection;
      if (this.verboseMode) this.printVerbose(outcome);
      return outcome.score;
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
      throw error instanceof Error ? error : new Error(String(error));
    }
  }

  /** One case's outcome, without touching the metric's state: what `measure` and `evaluate` share. */
  private async outcomeOf(testCase: unknown, signal: AbortSignal | undefined): Promise<Outcome> {
    const scored = this.scoreCalls(testCase);
    const selection =
      this.judge === undefined
        ? undefined
        : await judgeSelection(
            this.judge,
            {
              ...(await this.judgeContent(testCase, signal)),
              availableTools: this.availableTools,
              toolsCalled: scored.called,
            },
            signal === undefined ? {} : { signal },
          );
    return this.conclude(scored, selection);
  }

  /**
   * toolscore's metric for this class, for `evaluate` and the CLI: the same score, success and
   * reason as `measure`, as a `MetricResult`, without the class's per-call state (so cases may
   * run at once). Synchronous too when no judge is set up.
   */
  [toMetric](): Metric<TestCase, ToolCallMatchDetails> {
    const name = this.name;
    const resultOf = (outcome: Outcome): MetricResult<ToolCallMatchDetails> => {
      if (this.verboseMode) this.printVerbose(outcome);
      const toolCallingReason = outcome.scored.result.reason;
      return {
        status: "scored",
        metric: name,
        score: outcome.score,
        threshold: outcome.threshold,
        success: outcome.success,
        ...(toolCallingReason === undefined
          ? {}
          : { reason: this.composeReason(toolCallingReason, outcome.selection) }),
        details: outcome.scored.result.details,
      };
    };
    const metric: Metric<TestCase, ToolCallMatchDetails> = {
      name,
      measure: async (testCase, options = {}) => {
        try {
          return resultOf(await this.outcomeOf(testCase, options.signal));
        } catch (error) {
          if (options.signal?.aborted === true) throw error;
          return toErroredResult(name, error);
        }
      },
    };
    if (this.judge !== undefined) return metric;
    return {
      ...metric,
      measureSync: (testCase) => {
        try {
          return resultOf(this.conclude(this.scoreCalls(testCase), undefined));
        } catch (error) {
          return toErroredResult(name, error);
        }
      },
    };
  }

  /**
   * The case's input and answer as the judge sees them, every image loaded safely (files under
   * `imageLoading.allowedRoots`, public URLs only unless allowed) and sent as checked bytes.
   */
  private async judgeContent(
    testCase: unknown,
    signal: AbortSignal | undefined,
  ): Promise<{ input: Content; output?: Content }> {
    const record = testCase as { input: unknown; actualOutput?: unknown };
    const loading = {
      ...this.imageLoading,
      provider: this.imageLoading.provider ?? this.judge?.provider,
      ...(signal === undefined ? {} : { signal }),
    };
    const input = await loadContentImages(toContent(record.input), loading);
    if (record.actualOutput === undefined || record.actualOutput === null) return { input };
    return { input, output: await loadContentImages(toContent(record.actualOutput), loading) };
  }

  /** The deterministic part: validate the case and score the calls. */
  private scoreCalls(testCase: unknown): ScoredCalls {
    if (typeof testCase !== "object" || testCase === null) {
      throw new InvalidInputError({
        field: "testCase",
        message: `${this.name} measures a test case object, got ${testCase === null ? "null" : typeof testCase}`,
      });
    }
    const record = testCase as Record<string, unknown>;
    // Named reads first (fast); the list of what is missing only when something is.
    const complete =
      record.input != null &&
      record.toolsCalled != null &&
      record.expectedTools != null &&
      (!this.requiresOutput || record.actualOutput != null);
    const missing = complete
      ? undefined
      : missingFields(record, [
          "input",
          ...(this.requiresOutput ? ["actualOutput"] : []),
          "toolsCalled",
          "expectedTools",
        ]);
    if (missing !== undefined) {
      throw new MissingParamsError({
        fields: missing,
        message: `${joinFields(missing)} cannot be None for the '${this.name}' metric; set ${missing.length === 1 ? "it" : "them"} on the test case (an empty list means no tool calls)`,
      });
    }
    const called = toToolCalls(record.toolsCalled, calledField);
    const expected = toToolCalls(record.expectedTools, expectedField);
    return new ScoredCalls(called, expected, this.scorer);
  }

  /** Combines the scores (the lower wins) and applies strict mode. */
  private conclude(scored: ScoredCalls, selection: SelectionDetails | undefined): Outcome {
    const { result } = scored;
    const combined =
      selection === undefined ? result.score : Math.min(result.score, selection.score);
    const final = finalizeDeepevalScore({
      score: combined,
      strictMode: this.resolved.strictMode,
      threshold: this.resolved.threshold,
    });
    return { scored, selection, ...final };
  }

  private printVerbose(outcome: Outcome): void {
    const rule = "=".repeat(70);
    console.log(`\n${rule}\n${this.name} Verbose Logs\n${rule}\n${this.verboseText(outcome)}\n`);
  }

  /** The reason of the last `measure` (unless `includeReason` is false). */
  get reason(): string | undefined {
    const toolCallingReason = this.last?.result.reason;
    if (toolCallingReason === undefined) return undefined;
    return (this.lastReason ??= this.composeReason(toolCallingReason, this.selection));
  }

  /** toolscore: the alignment behind the last score: pairs, verdicts, missing and extra calls. */
  get details(): ToolCallMatchDetails | undefined {
    return this.last?.result.details;
  }

  /** The intermediate steps of the last `measure`, as `verboseMode` prints them. */
  get verboseLogs(): string | undefined {
    const last = this.last;
    const score = this.score;
    if (last === undefined || score === undefined) return undefined;
    return this.verboseText({
      scored: last,
      selection: this.selection,
      score,
      threshold: this.threshold,
      success: this.success === true,
    });
  }

  private verboseText(outcome: Outcome): string {
    const { scored, selection, score } = outcome;
    const { called, expected, result } = scored;
    const { details } = result;
    const reason =
      result.reason === undefined ? undefined : this.composeReason(result.reason, selection);
    return [
      `Expected Tools:\n${renderCalls(expected)}`,
      `Tools Called:\n${renderCalls(called)}`,
      `Pairing (${details.algorithm}):\n${
        details.pairs
          .map(
            (p) =>
              `  expected[${p.expectedIndex}] ${p.name} <-> called[${p.calledIndex}]: ${p.score}`,
          )
          .join("\n") || "  (none)"
      }`,
      `Missing: ${JSON.stringify(details.missing.map((m) => m.name))}; out of order: ${JSON.stringify(
        details.outOfOrder.map((m) => m.name),
      )}; unexpected: ${JSON.stringify(details.unexpected.map((m) => m.name))}`,
      `Tool Calling Score: ${result.score}`,
      ...(selection === undefined
        ? []
        : [
            `Tool Selection Score: ${selection.score} (${selection.modelId}, ${selection.attempts} attempt(s))`,
          ]),
      `Final Score: ${score}\nFinal Reason: ${reason ?? "(includeReason is false)"}`,
    ].join("\n\n");
  }

  protected composeReason(
    toolCallingReason: string,
    selection: SelectionDetails | undefined,
  ): string {
    return selection === undefined
      ? toolCallingReason
      : `Tool Calling Reason: ${toolCallingReason}\nTool Selection Reason: ${selection.reason}`;
  }

  /** Whether the last `measure` passed; false after an error. */
  isSuccessful(): boolean {
    return this.error === undefined && this.success === true;
  }
}

/**
 * deepeval's `ToolCorrectnessMetric`: did the agent call the expected tools (by name, and
 * optionally input parameters and output), unordered, in order, or exactly.
 *
 * @example
 * const metric = new ToolCorrectnessMetric({ evaluationParams: [ToolCallParams.INPUT_PARAMETERS] });
 * await metric.measure(new LLMTestCase({ input: "...", actualOutput: "...", toolsCalled, expectedTools }));
 * metric.score; metric.reason; metric.isSuccessful();
 */
export class ToolCorrectnessMetric extends DeepevalToolCorrectnessBase {
  protected readonly requiresOutput = false;

  constructor(options?: ToolCorrectnessMetricOptions) {
    super(options, "ToolCorrectnessMetric");
  }

  get name(): string {
    return "Tool Correctness";
  }

  protected override composeReason(
    toolCallingReason: string,
    selection: SelectionDetails | undefined,
  ): string {
    return `Tool Calling Reason: ${toolCallingReason}\nTool Selection Reason: ${selection?.reason ?? noSelectionReason}`;
  }
}

/**
 * deepeval's `MultimodalToolCorrectnessMetric`: the same scoring for test cases whose input and
 * output mix text and images (`MLLMTestCase`); `actualOutput` is required. Unlike deepeval's own
 * copy, it scores exactly like the text metric (docs/reference/semantics.md §1.8).
 */
export class MultimodalToolCorrectnessMetric extends DeepevalToolCorrectnessBase {
  protected readonly requiresOutput = true;

  constructor(options?: ToolCorrectnessMetricOptions) {
    super(options, "MultimodalToolCorrectnessMetric");
  }

  get name(): string {
    return "Multimodal Tool Correctness";
  }
}
