import { MissingParamsError } from "../../core/errors.js";
import type { JudgeModel } from "../../core/judge.js";
import { toMetric } from "../../core/metric.js";
import type { ConvertsToMetric, Metric } from "../../core/metric.js";
import { toErroredResult } from "../../core/metric-result.js";
import type { MetricResult } from "../../core/metric-result.js";
import {
  booleanOption,
  modelOption,
  optionsObject,
  rejectUnknownOptions,
  thresholdOption,
} from "../../core/options.js";
import type { Content, ToolSpec } from "../../core/test-case.js";
import { toToolCalls } from "../../core/tool-call.js";
import type { ToolCall as CoreToolCall } from "../../core/tool-call.js";
import { judgeArguments } from "../../judges/argument-correctness.js";
import type { CallArgumentsVerdict } from "../../judges/argument-correctness.js";
import { judgeTaskCompletion, taskVerdictScore } from "../../judges/task-completion.js";
import type { TaskCompletionAnswer } from "../../judges/task-completion.js";
import type { JudgeModelSettings } from "../../providers/judge-models.js";
import { judgeSettings, selectionJudge } from "./selection.js";
import type { LLMTestCaseInit } from "./test-case.js";
import { defaultDecisionBand } from "../../judges/decisions.js";

/** The options deepeval's judged agent metrics share. */
export interface DeepevalJudgedMetricOptions {
  /** Minimum passing score. Default 0.5. */
  threshold?: number;
  /** The judge: a model string (default `"openai/gpt-4.1"`) or a `JudgeModel`. */
  model?: string | JudgeModel;
  /** toolscore: settings of a judge named by a model string (API key, base URL, timeouts). */
  modelSettings?: JudgeModelSettings;
  /** Build a reason. Default true. */
  includeReason?: boolean;
  /** Threshold 1, and a score under it counts 0. Default false. */
  strictMode?: boolean;
  /** Accepted for compatibility: measure is always asynchronous. */
  asyncMode?: boolean;
  /** Print the verdicts and the score of each `measure`. Default false. */
  verboseMode?: boolean;
}

export interface TaskCompletionMetricOptions extends DeepevalJudgedMetricOptions {
  /** The task to judge the run against, instead of the one the case's input states. */
  task?: string;
}

const sharedOptions = [
  "threshold",
  "model",
  "modelSettings",
  "includeReason",
  "strictMode",
  "asyncMode",
  "verboseMode",
];

/** What one judged case came to: deepeval's score, or nothing when the judge could not tell. */
interface JudgedCase<TDetails> {
  readonly score: number | undefined;
  readonly reason: string;
  readonly details: TDetails;
}

/** What deepeval's judged agent metrics share: options, the judge, `measure`'s state, the metric. */
abstract class DeepevalJudgedMetric<TDetails> implements ConvertsToMetric {
  abstract readonly name: string;
  readonly threshold: number;
  readonly strictMode: boolean;
  readonly includeReason: boolean;
  readonly verboseMode: boolean;
  /** The judge, set up with the metric: a model string without its key fails here. */
  readonly judge: JudgeModel;
  /** The score of the last `measure`; undefined when the judge could not tell. */
  score?: number;
  reason?: string;
  success?: boolean;
  /** The error message of the last `measure`, when it threw. */
  error?: string;
  /** toolscore: the last case could not be judged (the judge could not tell): no score. */
  notEvaluable?: boolean;
  /** toolscore: what the judge answered for the last case. */
  details?: TDetails;

  protected constructor(metricName: string, options: unknown, extra: readonly string[]) {
    const given = optionsObject(metricName, options);
    rejectUnknownOptions(metricName, given, [...sharedOptions, ...extra]);
    this.strictMode = booleanOption("strictMode", given.strictMode, false);
    this.threshold = this.strictMode
      ? 1
      : thresholdOption(metricName, given.threshold, 0.5, "threshold");
    this.includeReason = booleanOption("includeReason", given.includeReason, true);
    booleanOption("asyncMode", given.asyncMode, true);
    this.verboseMode = booleanOption("verboseMode", given.verboseMode, false);
    modelOption("model", given.model);
    this.judge = selectionJudge(given.model, judgeSettings("modelSettings", given.modelSettings));
  }

  /** Judges one case without touching the metric's state. */
  protected abstract judgeCase(
    testCase: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<JudgedCase<TDetails>>;

  /** deepeval's strict mode: a score under the threshold counts 0. */
  protected strict(score: number): number {
    return this.strictMode && score < this.threshold ? 0 : score;
  }

  /** Throws deepeval's error for the fields a case lacks. */
  protected requireFields(record: Record<string, unknown>, fields: readonly string[]): void {
    const missing = fields.filter((field) => record[field] === undefined || record[field] === null);
    if (missing.length === 0) return;
    throw new MissingParamsError({
      fields: missing,
      message: `${missing.map((field) => `'${field}'`).join(", ")} cannot be None for the '${this.name}' metric`,
    });
  }

  /**
   * Judges one case, sets `score`, `reason`, `success` and `details`, and returns the score;
   * `NaN` (with `notEvaluable` set and `success` false) when the judge could not tell.
   */
  async measure(testCase: LLMTestCaseInit, options?: { signal?: AbortSignal }): Promise<number> {
    this.score = undefined;
    this.reason = undefined;
    this.success = undefined;
    this.error = undefined;
    this.notEvaluable = undefined;
    try {
      const judged = await this.judgeCase(testCase as never, options?.signal);
      this.details = judged.details;
      this.reason = this.includeReason ? judged.reason : undefined;
      this.notEvaluable = judged.score === undefined;
      this.score = judged.score;
      this.success = judged.score !== undefined && judged.score >= this.threshold;
      if (this.verboseMode) {
        console.log(`${this.name}\nScore: ${String(judged.score)}\nReason: ${judged.reason}`);
      }
      return judged.score ?? Number.NaN;
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
      throw error instanceof Error ? error : new Error(String(error));
    }
  }

  /** Whether the last `measure` reached the threshold. */
  isSuccessful(): boolean {
    return this.success === true;
  }

  /**
   * toolscore's metric for this class, for `evaluate` and the CLI: the same score and reason as
   * `measure`, a case the judge could not tell as not evaluable, without the class's state.
   */
  [toMetric](): Metric {
    const name = this.name;
    return {
      name,
      measure: async (testCase, options = {}): Promise<MetricResult> => {
        try {
          const judged = await this.judgeCase(testCase as never, options.signal);
          if (judged.score === undefined) {
            const { reason, details } = judged;
            return { status: "not-evaluable", metric: name, reason, details };
          }
          return {
            status: "scored",
            metric: name,
            score: judged.score,
            threshold: this.threshold,
            success: judged.score >= this.threshold,
            reason: judged.reason,
            details: judged.details,
          };
        } catch (error) {
          if (options.signal?.aborted === true) throw error;
          return toErroredResult(name, error);
        }
      },
    };
  }
}

/** The verdicts behind an argument-correctness score, as deepeval names them. */
export interface ArgumentCorrectnessDetails {
  /** One per call: "yes" (right), "no" (wrong), "idk" (the judge could not tell). */
  readonly verdicts: readonly { readonly verdict: "yes" | "no" | "idk"; readonly reason: string }[];
  readonly calls: readonly CallArgumentsVerdict[];
}

const deepevalVerdict = { right: "yes", wrong: "no", cannot_tell: "idk" } as const;

/**
 * deepeval's `ArgumentCorrectnessMetric`: for each tool call, were its arguments right for the
 * input? The score is deepeval's: calls not judged "no" over all calls (a call the judge could not
 * tell counts, as deepeval counts any verdict but "no"), 1 without calls, 0 under the threshold in
 * strict mode. The judge and its wording are toolscore's (it also sees each call's output).
 *
 * @example
 * const metric = new ArgumentCorrectnessMetric({ model: "openai/gpt-4.1-mini" });
 * await metric.measure(new LLMTestCase({ input: "Refund 30 EUR on 4521", toolsCalled: [new ToolCall({ name: "refund", inputParameters: { amount: 300 } })] }));
 */
export class ArgumentCorrectnessMetric extends DeepevalJudgedMetric<ArgumentCorrectnessDetails> {
  readonly name = "Argument Correctness";

  constructor(options: DeepevalJudgedMetricOptions = {}) {
    super("ArgumentCorrectnessMetric", options, []);
  }

  protected async judgeCase(
    record: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<JudgedCase<ArgumentCorrectnessDetails>> {
    this.requireFields(record, ["input", "toolsCalled"]);
    const calls: CoreToolCall[] = toToolCalls(record.toolsCalled, { field: "toolsCalled" });
    if (calls.length === 0) {
      return { score: 1, reason: "No tool calls provided", details: { verdicts: [], calls: [] } };
    }
    const answer = await judgeArguments(
      this.judge,
      {
        input: record.input as Content,
        availableTools: describedTools(record.toolsCalled),
        toolsCalled: calls,
      },
      { samples: 1, temperature: 0, minAgreement: 0, band: defaultDecisionBand },
      { signal },
    );
    const verdicts = answer.calls.map((call) => ({
      verdict: deepevalVerdict[call.verdict],
      reason: call.reason,
    }));
    const score = this.strict(
      verdicts.filter((verdict) => verdict.verdict !== "no").length / verdicts.length,
    );
    const wrong = answer.calls.filter((call) => call.verdict === "wrong");
    const unsure = answer.calls.filter((call) => call.verdict === "cannot_tell").length;
    // deepeval's rule counts "idk" as right: the reason says so, so a score of 1 cannot hide it.
    const counted =
      unsure === 0
        ? ""
        : ` ${unsure === 1 ? "1 call" : `${unsure} calls`} the judge could not tell ${unsure === 1 ? "counts" : "count"} as right, as deepeval counts any verdict but "no".`;
    const reason =
      wrong.length === 0
        ? `The score is ${score.toFixed(2)} because no call's arguments were judged wrong.${counted}`
        : `The score is ${score.toFixed(2)} because ${wrong.map((call) => `called[${call.index}] ${call.name}: ${call.reason}`).join("; ")}.${counted}`;
    return { score, reason, details: { verdicts, calls: answer.calls } };
  }
}

/**
 * The tools of deepeval `ToolCall`s that carry a `description`, once per name, for the judge to
 * read: deepeval's own prompt shows it.
 */
function describedTools(toolsCalled: unknown): ToolSpec[] {
  const tools = new Map<string, ToolSpec>();
  for (const item of Array.isArray(toolsCalled) ? (toolsCalled as unknown[]) : []) {
    if (typeof item !== "object" || item === null) continue;
    const { name, description } = item as Record<string, unknown>;
    if (typeof name === "string" && typeof description === "string" && !tools.has(name))
      tools.set(name, { name, description });
  }
  return [...tools.values()];
}

/**
 * deepeval's `TaskCompletionMetric`: did the run (input, tools called, actual output) achieve
 * the task? The verdict is a score (completed 1, partially 0.5, not 0), 0 under the threshold in
 * strict mode; a judge that cannot tell gives no score (`notEvaluable`). The judge and its wording
 * are toolscore's.
 */
export class TaskCompletionMetric extends DeepevalJudgedMetric<TaskCompletionAnswer> {
  readonly name = "Task Completion";
  readonly task?: string;

  constructor(options: TaskCompletionMetricOptions = {}) {
    super("TaskCompletionMetric", options, ["task"]);
    const task = (options as { task?: unknown }).task;
    if (task !== undefined && (typeof task !== "string" || task.trim() === "")) {
      throw new MissingParamsError({
        fields: ["task"],
        message: "task must be a non-empty string",
      });
    }
    this.task = task;
  }

  protected async judgeCase(
    record: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<JudgedCase<TaskCompletionAnswer>> {
    this.requireFields(record, ["input", "actualOutput", "toolsCalled"]);
    const answer = await judgeTaskCompletion(
      this.judge,
      {
        input: record.input as Content,
        availableTools: [],
        toolsCalled: toToolCalls(record.toolsCalled, { field: "toolsCalled" }),
        replies: [],
        output: record.actualOutput as Content,
        task: this.task,
      },
      { samples: 1, temperature: 0, minAgreement: 0, band: defaultDecisionBand },
      { signal },
    );
    if (answer.verdict === "cannot_tell") {
      return { score: undefined, reason: `cannot tell: ${answer.reason}`, details: answer };
    }
    return {
      score: this.strict(taskVerdictScore[answer.verdict]),
      reason: answer.reason,
      details: answer,
    };
  }
}
