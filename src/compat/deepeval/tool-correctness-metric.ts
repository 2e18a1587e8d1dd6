import { InvalidInputError, JudgeRequiredError, MissingParamsError } from "../../core/errors.js";
import type { ToolCallMatchDetails } from "../../core/explanation.js";
import { toToolCalls } from "../../core/tool-call.js";
import type { ToolCall as CoreToolCall } from "../../core/tool-call.js";
import {
  finalizeDeepevalScore,
  resolveDeepevalToolCorrectnessOptions,
  scoreDeepevalToolCorrectness,
} from "../../metrics/deepeval-tool-correctness.js";
import type {
  DeepevalReasonKind,
  ResolvedDeepevalToolCorrectnessOptions,
} from "../../metrics/deepeval-tool-correctness.js";
import {
  booleanOption,
  modelOption,
  optionsObject,
  rejectUnknownOptions,
} from "../../metrics/options.js";
import type { MatchLimits } from "../../metrics/limits.js";
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
   * The tools the agent could choose from, for an LLM judgement of tool selection. Needs an LLM
   * judge, which this version does not have: a non-empty list is a `JudgeRequiredError`.
   */
  availableTools?: ToolCallInit[];
  /** Accepted for compatibility; toolscore shows no progress indicator. */
  showIndicator?: boolean;
  /**
   * The judge model for tool selection, as deepeval names it. Only `availableTools` uses it, and
   * judging is not available yet, so for now it is validated and otherwise unused (deepeval, too,
   * ignores it without `availableTools`).
   */
  model?: string | object;
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
  "matching",
  "limits",
];

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

/** Shared by the text and multimodal metrics, which differ only in name and required fields. */
abstract class DeepevalToolCorrectnessBase {
  threshold: number;
  readonly strictMode: boolean;
  readonly verboseMode: boolean;
  readonly includeReason: boolean;
  readonly evaluationParams: readonly ToolCallParams[];
  readonly shouldExactMatch: boolean;
  readonly shouldConsiderOrdering: boolean;
  /** The score of the last `measure`. */
  score?: number;
  /** The reason of the last `measure` (unless `includeReason` is false). */
  reason?: string;
  /** Whether the last `measure` reached the threshold. */
  success?: boolean;
  /** The error message of the last `measure`, when it threw. */
  error?: string;
  private renderSteps?: () => string;
  /** toolscore: the alignment behind the last score: pairs, verdicts, missing and extra calls. */
  details?: ToolCallMatchDetails;
  /** toolscore: which reason template the last score selected. */
  reasonKind?: DeepevalReasonKind;
  protected readonly resolved: ResolvedDeepevalToolCorrectnessOptions;

  protected abstract readonly requiredFields: readonly string[];
  abstract get name(): string;

  constructor(options: ToolCorrectnessMetricOptions | undefined, metricName: string) {
    const given = optionsObject(metricName, options);
    rejectUnknownOptions(metricName, given, knownOptions);
    const { verboseMode, availableTools, showIndicator, model, ...scoring } = given;
    modelOption("model", model);
    this.resolved = resolveDeepevalToolCorrectnessOptions(scoring);
    booleanOption("showIndicator", showIndicator, false);
    this.verboseMode = booleanOption("verboseMode", verboseMode, false);
    if (availableTools !== undefined && availableTools !== null) {
      if (!Array.isArray(availableTools)) {
        throw new InvalidInputError({
          field: "availableTools",
          message: "availableTools must be an array of tool calls",
        });
      }
      if (availableTools.length > 0) {
        throw new JudgeRequiredError({
          option: "availableTools",
          message: `${metricName}: availableTools asks an LLM judge to score tool selection, and this version of toolscore has no judge yet; remove availableTools (or pass []) to score the calls alone`,
        });
      }
    }
    this.strictMode = this.resolved.strictMode;
    this.threshold = this.resolved.strictMode ? 1 : this.resolved.threshold;
    this.includeReason = this.resolved.includeReason;
    this.evaluationParams = this.resolved.evaluationParams;
    this.shouldExactMatch = this.resolved.shouldExactMatch;
    this.shouldConsiderOrdering = this.resolved.shouldConsiderOrdering;
  }

  /** Scores one test case, sets `score`, `reason`, `success` and `details`, and returns the score. */
  measure(testCase: LLMTestCaseInit | MLLMTestCaseInit): Promise<number> {
    this.score = undefined;
    this.reason = undefined;
    this.success = undefined;
    this.error = undefined;
    this.details = undefined;
    this.reasonKind = undefined;
    this.renderSteps = undefined;
    try {
      return Promise.resolve(this.measureNow(testCase));
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private measureNow(testCase: unknown): number {
    if (typeof testCase !== "object" || testCase === null) {
      throw new InvalidInputError({
        field: "testCase",
        message: `${this.name} measures a test case object, got ${testCase === null ? "null" : typeof testCase}`,
      });
    }
    const record = testCase as Record<string, unknown>;
    const missing = this.requiredFields.filter(
      (field) => record[field] === undefined || record[field] === null,
    );
    if (missing.length > 0) {
      throw new MissingParamsError({
        fields: missing,
        message: `${joinFields(missing)} cannot be None for the '${this.name}' metric; set ${missing.length === 1 ? "it" : "them"} on the test case (an empty list means no tool calls)`,
      });
    }
    const called = toToolCalls(record.toolsCalled, { field: "toolsCalled" });
    const expected = toToolCalls(record.expectedTools, { field: "expectedTools" });
    const result = scoreDeepevalToolCorrectness({ expected, called }, this.resolved);
    const final = finalizeDeepevalScore({
      score: result.score,
      strictMode: this.resolved.strictMode,
      threshold: this.resolved.threshold,
    });
    this.score = final.score;
    this.threshold = final.threshold;
    this.success = final.success;
    this.details = result.details;
    this.reasonKind = result.reasonKind;
    if (result.reason !== undefined) this.reason = this.composeReason(result.reason);

    // Rendered on demand: most runs never read the steps, and rendering costs more than scoring.
    const reason = this.reason;
    this.renderSteps = () =>
      [
        `Expected Tools:\n${renderCalls(expected)}`,
        `Tools Called:\n${renderCalls(called)}`,
        `Pairing (${result.details.algorithm}):\n${
          result.details.pairs
            .map(
              (p) =>
                `  expected[${p.expectedIndex}] ${p.name} <-> called[${p.calledIndex}]: ${p.score}`,
            )
            .join("\n") || "  (none)"
        }`,
        `Missing: ${JSON.stringify(result.details.missing.map((m) => m.name))}; out of order: ${JSON.stringify(
          result.details.outOfOrder.map((m) => m.name),
        )}; unexpected: ${JSON.stringify(result.details.unexpected.map((m) => m.name))}`,
        `Tool Calling Score: ${result.score}`,
        `Final Score: ${final.score}\nFinal Reason: ${reason ?? "(includeReason is false)"}`,
      ].join("\n\n");
    if (this.verboseMode) {
      const rule = "=".repeat(70);
      console.log(`\n${rule}\n${this.name} Verbose Logs\n${rule}\n${this.renderSteps()}\n`);
    }
    return final.score;
  }

  /** The intermediate steps of the last `measure`, as `verboseMode` prints them. */
  get verboseLogs(): string | undefined {
    return this.renderSteps?.();
  }

  protected composeReason(toolCallingReason: string): string {
    return toolCallingReason;
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
  protected readonly requiredFields = ["input", "toolsCalled", "expectedTools"];

  constructor(options?: ToolCorrectnessMetricOptions) {
    super(options, "ToolCorrectnessMetric");
  }

  get name(): string {
    return "Tool Correctness";
  }

  protected override composeReason(toolCallingReason: string): string {
    return `Tool Calling Reason: ${toolCallingReason}\nTool Selection Reason: ${noSelectionReason}`;
  }
}

/**
 * deepeval's `MultimodalToolCorrectnessMetric`: the same scoring for test cases whose input and
 * output mix text and images (`MLLMTestCase`); `actualOutput` is required. Unlike deepeval's own
 * copy, it scores exactly like the text metric (semantics.md §1.8).
 */
export class MultimodalToolCorrectnessMetric extends DeepevalToolCorrectnessBase {
  protected readonly requiredFields = ["input", "actualOutput", "toolsCalled", "expectedTools"];

  constructor(options?: ToolCorrectnessMetricOptions) {
    super(options, "MultimodalToolCorrectnessMetric");
  }

  get name(): string {
    return "Multimodal Tool Correctness";
  }
}
