import { InvalidOptionError } from "../../core/errors.js";
import type { ConvertsToMetric, Metric } from "../../core/metric.js";
import type { MetricResult } from "../../core/metric-result.js";
import { evaluate as run } from "../../evaluate/evaluate.js";
import type { EvaluationSummary } from "../../core/summary.js";

/** One metric's outcome on one test case, as deepeval's `MetricData` shapes it. */
export interface MetricData {
  readonly name: string;
  readonly threshold: number;
  readonly success: boolean;
  readonly score?: number;
  readonly reason?: string;
  readonly strictMode: boolean;
  readonly evaluationModel?: string;
  /** Why the metric could not score the case (deepeval's `error`). */
  readonly error?: string;
}

/** One test case's outcome, as deepeval's `TestResult` shapes it. */
export interface TestResult {
  readonly name: string;
  readonly success: boolean;
  readonly metricsData: readonly MetricData[];
  readonly input?: unknown;
  readonly actualOutput?: unknown;
  readonly expectedOutput?: unknown;
  readonly context?: unknown;
  readonly retrievalContext?: unknown;
  readonly additionalMetadata?: unknown;
}

/** What deepeval's `evaluate` returns, with toolscore's summary beside it. */
export interface EvaluationResult {
  readonly testResults: readonly TestResult[];
  /** toolscore: per metric mean, pass rate and histogram; judge calls and cost. */
  readonly summary: EvaluationSummary;
}

type AnyMetric = Metric<never> | ConvertsToMetric<never>;

export interface DeepevalEvaluateOptions {
  /** `LLMTestCase`s, `MLLMTestCase`s or plain objects of the same shape. */
  readonly testCases: readonly object[];
  /** deepeval-compatible metrics (`ToolCorrectnessMetric`, ...) or any toolscore metric. */
  readonly metrics: readonly AnyMetric[];
  /** Test cases scored at once. Default 8. */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
}

function metricData(result: MetricResult, metric: unknown): MetricData {
  const strictMode = (metric as { strictMode?: unknown }).strictMode === true;
  const model = (metric as { judge?: { modelId?: unknown } }).judge?.modelId;
  const common = {
    name: result.metric,
    strictMode,
    ...(typeof model === "string" ? { evaluationModel: model } : {}),
  };
  if (result.status === "scored") {
    return {
      ...common,
      threshold: result.threshold,
      success: result.success,
      score: result.score,
      ...(result.reason === undefined ? {} : { reason: result.reason }),
    };
  }
  const threshold = (metric as { threshold?: unknown }).threshold;
  return {
    ...common,
    threshold: typeof threshold === "number" ? threshold : 0.5,
    success: false,
    ...(result.status === "error" ? { error: result.error.message } : { reason: result.reason }),
  };
}

function testCaseFields(testCase: object) {
  const record = testCase as Record<string, unknown>;
  const fields = [
    "input",
    "actualOutput",
    "expectedOutput",
    "context",
    "retrievalContext",
    "additionalMetadata",
  ] as const;
  const out: Partial<Record<(typeof fields)[number], unknown>> = {};
  for (const field of fields) if (record[field] !== undefined) out[field] = record[field];
  return out;
}

/**
 * deepeval's `evaluate(test_cases, metrics)`: every metric on every test case, concurrently;
 * a case a metric cannot score is recorded with its error and the others go on. Returns
 * deepeval's `EvaluationResult` (`testResults`, each with its `metricsData`). Unlike deepeval,
 * nothing is printed and nothing is sent anywhere.
 *
 * @example
 * const { testResults } = await evaluate({ testCases: [testCase], metrics: [new ToolCorrectnessMetric()] });
 * testResults[0].success; testResults[0].metricsData[0].reason;
 */
export async function evaluate(options: DeepevalEvaluateOptions): Promise<EvaluationResult> {
  if (typeof options !== "object" || (options as unknown) === null) {
    throw new InvalidOptionError({
      option: "options",
      value: options,
      message: "evaluate takes { testCases, metrics }",
    });
  }
  const { testCases, metrics } = options;
  if (!Array.isArray(testCases)) {
    throw new InvalidOptionError({
      option: "testCases",
      value: testCases,
      message: "testCases must be a list of test cases",
    });
  }
  const { results, summary } = await run<object>({
    testCases: testCases as object[],
    metrics: metrics,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    describe: (item, position) => {
      const name = (item as { name?: unknown }).name;
      return {
        index: position,
        id: typeof name === "string" && name !== "" ? name : `test_case_${position}`,
      };
    },
  });
  return {
    testResults: results.map((result) => ({
      name: result.id,
      success: result.status === "passed",
      metricsData: result.results.map((entry, at) => metricData(entry, metrics[at])),
      ...testCaseFields(testCases[result.index] as object),
    })),
    summary,
  };
}

/** What `assertTest` throws: deepeval's `AssertionError`, naming the metrics that failed. */
export class AssertionError extends Error {
  override readonly name = "AssertionError";
  readonly metricsData: readonly MetricData[];

  constructor(message: string, metricsData: readonly MetricData[]) {
    super(message);
    this.metricsData = metricsData;
  }
}

/**
 * deepeval's `assert_test(test_case, metrics)`: scores one test case and throws an
 * `AssertionError` naming every metric that failed (below its threshold, or unable to score),
 * with its score, threshold and reason. For test runners (vitest, jest).
 *
 * @example
 * await assertTest(testCase, [new ToolCorrectnessMetric({ threshold: 0.8 })]);
 */
export async function assertTest(testCase: object, metrics: readonly AnyMetric[]): Promise<void> {
  const { testResults } = await evaluate({ testCases: [testCase], metrics, concurrency: 1 });
  const [result] = testResults;
  const failed = result.metricsData.filter((data) => !data.success);
  if (failed.length === 0) return;
  const described = failed
    .map(
      (data) =>
        `${data.name} (score: ${data.score ?? "none"}, threshold: ${data.threshold}, strict: ${data.strictMode}, error: ${data.error ?? "none"}, reason: ${data.reason ?? "none"})`,
    )
    .join(", ");
  throw new AssertionError(`Metrics: ${described} failed.`, result.metricsData);
}
