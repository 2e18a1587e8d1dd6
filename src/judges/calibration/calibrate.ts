import pLimit from "p-limit";
import type { JudgeModel, JudgeUsage } from "../../core/judge.js";
import type { Metric } from "../../core/metric.js";
import { toToolCalls } from "../../core/tool-call.js";
import { judgedMetrics } from "../judged-metrics.js";
import { agreementStats } from "./agreement.js";
import type { AgreementStats } from "./agreement.js";
import {
  argumentCorrectnessCalibrationSet,
  taskCompletionCalibrationSet,
} from "./judged-metric-cases.js";
import type { LabelledCase } from "./judged-metric-cases.js";
import { toolSelectionCalibrationSet } from "./tool-selection-cases.js";
import type { LabelledToolSelectionCase } from "./tool-selection-cases.js";
import { defaultConcurrency } from "../../core/options.js";

/** The judged metrics that ship a labelled set. */
export const calibratedMetrics = [
  "tool-selection",
  "argument-correctness",
  "task-completion",
] as const;
export type CalibratedMetric = (typeof calibratedMetrics)[number];

/** Each metric's pass line by default: its own default threshold. */
const defaultThresholds: Readonly<Record<CalibratedMetric, number>> = {
  "tool-selection": 0.5,
  "argument-correctness": 1,
  "task-completion": 1,
};

/** A metric's labelled set, as toolscore ships it. */
export function calibrationSet(metric: CalibratedMetric): readonly LabelledCase[] {
  if (metric === "argument-correctness") return argumentCorrectnessCalibrationSet();
  if (metric === "task-completion") return taskCompletionCalibrationSet();
  return toolSelectionCalibrationSet.map(fromToolSelectionCase);
}

function fromToolSelectionCase(entry: LabelledToolSelectionCase): LabelledCase {
  return {
    id: entry.id,
    testCase: {
      id: entry.id,
      input: entry.input,
      availableTools: entry.availableTools,
      toolsCalled: toToolCalls(entry.toolsCalled, { field: `${entry.id}.toolsCalled` }),
      actualOutput: entry.output,
    },
    label: entry.label,
    why: entry.reasoning,
  };
}

export interface JudgeCalibrationOptions {
  /** The judged metric measured. Default `"tool-selection"`. */
  metric?: CalibratedMetric;
  /** Default: toolscore's labelled set of the metric (`calibrationSet`). */
  cases?: readonly LabelledCase[];
  /** Pass/fail line for accuracy and kappa. Default: the metric's default threshold. */
  threshold?: number;
  /** Cases judged at once. Default 8. */
  concurrency?: number;
  signal?: AbortSignal;
}

/** One case of a calibration: the label, and the judge's score, "cannot tell" or error. */
export interface CalibrationCaseResult {
  readonly id: string;
  readonly label: number | "not-evaluable";
  readonly score?: number;
  /** The judge could not tell. */
  readonly notEvaluable?: boolean;
  readonly reason?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/** How a judge agrees with the labels, case by case and overall (cases both decided). */
export interface CalibrationReport extends AgreementStats {
  readonly metric: CalibratedMetric;
  /** `provider/model`. */
  readonly model: string;
  readonly threshold: number;
  /** Cases the judge could not score (left out of the statistics). */
  readonly errors: number;
  /**
   * "Cannot tell", against the labels: cases labelled not evaluable, those the judge said it
   * could not tell, and those both said (left out of the statistics above).
   */
  readonly notEvaluable: {
    readonly labelled: number;
    readonly judged: number;
    readonly agreed: number;
  };
  readonly results: readonly CalibrationCaseResult[];
  readonly usage: JudgeUsage;
  readonly costUsd?: number;
}

/** The judge, counting what every answer cost. */
function counting(model: JudgeModel) {
  const usage = { inputTokens: 0, outputTokens: 0 };
  let cost: number | undefined;
  const counted: JudgeModel = {
    ...model,
    async generate(request, options) {
      const response = await model.generate(request, options);
      usage.inputTokens += response.usage.inputTokens;
      usage.outputTokens += response.usage.outputTokens;
      if (response.costUsd !== undefined) cost = (cost ?? 0) + response.costUsd;
      return response;
    },
  };
  return { counted, spent: () => ({ usage: { ...usage }, costUsd: cost }) };
}

/** The metric, as the registry makes it, asking `model`. */
function metricFor(metric: CalibratedMetric, model: JudgeModel, threshold: number): Metric {
  const definition = judgedMetrics.find((entry) => entry.id === metric);
  if (definition === undefined) throw new Error(`${metric} is not a judged metric`);
  return definition.create(
    { threshold },
    {
      judge: () => model,
      hasJudge: true,
      imageLoading: { baseDirectory: ".", allowedRoots: [] },
      loadContexts: () => Promise.reject(new Error("calibration cases hold no images")),
    },
  );
}

/**
 * Runs a judged metric over labelled cases and reports how its judge agrees with the labels:
 * pass/fail accuracy, Cohen's kappa, mean absolute error, exact agreement, how its "cannot tell"
 * answers match the cases labelled undecidable, and every case. A case the judge fails is
 * reported and left out of the statistics; the run goes on.
 *
 * @example
 * const report = await calibrateJudge(resolveJudgeModel("openai/gpt-4.1-mini"), { metric: "argument-correctness" });
 * report.cohensKappa; report.notEvaluable;
 */
export async function calibrateJudge(
  model: JudgeModel,
  options: JudgeCalibrationOptions = {},
): Promise<CalibrationReport> {
  const metricId = options.metric ?? "tool-selection";
  const cases = options.cases ?? calibrationSet(metricId);
  const threshold = options.threshold ?? defaultThresholds[metricId];
  const { counted, spent } = counting(model);
  const metric = metricFor(metricId, counted, threshold);
  const limit = pLimit(options.concurrency ?? defaultConcurrency);
  const results = await Promise.all(
    cases.map((entry) =>
      limit(async (): Promise<CalibrationCaseResult> => {
        const result = await metric.measure(entry.testCase, { signal: options.signal });
        const base = { id: entry.id, label: entry.label };
        switch (result.status) {
          case "scored":
            return { ...base, score: result.score, reason: result.reason };
          case "not-evaluable":
            return { ...base, notEvaluable: true, reason: result.reason };
          case "error":
            return { ...base, error: { code: result.error.code, message: result.error.message } };
          case "skipped":
            return { ...base, error: { code: "SKIPPED", message: result.reason } };
        }
      }),
    ),
  );
  const scored = results.flatMap((result) =>
    typeof result.label === "number" && result.score !== undefined
      ? [{ label: result.label, score: result.score }]
      : [],
  );
  const labelled = results.filter((result) => result.label === "not-evaluable");
  const { usage, costUsd } = spent();
  return {
    ...agreementStats(scored, threshold),
    metric: metricId,
    model: `${model.provider}/${model.modelId}`,
    threshold,
    errors: results.filter((result) => result.error !== undefined).length,
    notEvaluable: {
      labelled: labelled.length,
      judged: results.filter((result) => result.notEvaluable === true).length,
      agreed: labelled.filter((result) => result.notEvaluable === true).length,
    },
    results,
    usage,
    costUsd,
  };
}
