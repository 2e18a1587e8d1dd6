import type { ErrorCode } from "../../core/errors.js";
import { toErroredResult } from "../../core/metric-result.js";
import type { DatasetItem } from "./dataset-item.js";
import type { MetricEvaluationResult } from "./tool-correctness.js";

/** Any axion-style metric: a name, a threshold, and `execute(item)`. */
export interface AxionMetric {
  readonly name: string;
  readonly threshold: number;
  execute(
    item: DatasetItem,
  ): Promise<Pick<MetricEvaluationResult, "score" | "explanation"> & { details?: unknown }>;
}

/** The result of one metric on one item; `status` tells a score from an error. */
export type MetricRunnerResult =
  | {
      readonly status: "scored";
      readonly itemId: string;
      readonly metric: string;
      readonly score: number;
      readonly explanation: string;
      readonly threshold: number;
      readonly passed: boolean;
      readonly details?: unknown;
    }
  | {
      readonly status: "error";
      readonly itemId: string;
      readonly metric: string;
      readonly passed: false;
      readonly error: {
        readonly code: ErrorCode;
        readonly message: string;
        readonly field?: string;
      };
    };

export interface MetricRunnerOptions {
  metrics: readonly AxionMetric[];
}

/**
 * axion's `MetricRunner`: runs every metric on every item and returns one result per item and
 * metric, in input order. An item that fails is recorded as an error; the others still run.
 */
export class MetricRunner {
  readonly metrics: readonly AxionMetric[];

  constructor(options: MetricRunnerOptions) {
    if (!Array.isArray(options.metrics) || options.metrics.length === 0) {
      throw new TypeError("MetricRunner needs { metrics: [...] } with at least one metric");
    }
    this.metrics = options.metrics;
  }

  async run(
    dataset: Iterable<DatasetItem> | { items: Iterable<DatasetItem> },
  ): Promise<MetricRunnerResult[]> {
    const items = Symbol.iterator in dataset ? dataset : dataset.items;
    const results: MetricRunnerResult[] = [];
    let index = 0;
    for (const item of items) {
      const itemId = typeof item.id === "string" ? item.id : String(index);
      index++;
      for (const metric of this.metrics) {
        try {
          const { score, explanation, details } = await metric.execute(item);
          results.push({
            status: "scored",
            itemId,
            metric: metric.name,
            score,
            explanation,
            threshold: metric.threshold,
            passed: score >= metric.threshold,
            ...(details === undefined ? {} : { details }),
          });
        } catch (error) {
          const { error: recorded } = toErroredResult(metric.name, error);
          results.push({
            status: "error",
            itemId,
            metric: metric.name,
            passed: false,
            error: recorded,
          });
        }
      }
    }
    return results;
  }
}
