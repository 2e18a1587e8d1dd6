import type { Metric } from "../core/metric.js";
import { createDeterministicMetric, metricEntry, withThreshold } from "../metrics/definitions.js";
import type { RunMetricConfig } from "../metrics/definitions.js";

/**
 * The deterministic pack: a run's metrics from configs that ask no judge (`MetricSet.deterministic`),
 * as `createMetricSet` makes them, toolscore's own made without loading the registry's judged
 * metrics: what worker threads and reports load (a worker's memory is mostly the code it loads).
 */
export async function createDeterministicMetrics(
  configs: readonly RunMetricConfig[],
  threshold?: number,
): Promise<Metric[]> {
  const given = configs.map((config) => withThreshold(config, threshold));
  const own = given.map(({ metric, options }) => createDeterministicMetric(metric, options));
  if (own.every((metric) => metric !== undefined)) return own;
  const { createMetric } = await import("../registry/metric-registry.js");
  return given.map((config) => createMetric(metricEntry(config)));
}
