import type { JudgeModel } from "../core/judge.js";
import type { Metric } from "../core/metric.js";
import { createMetric, metricDefinition, metricDefinitions } from "../registry/metric-registry.js";
import type { MetricConfig } from "./config.js";

/** What judged metrics need from the run: the judge, and where the dataset's files are. */
export interface MetricContext {
  /** The run's judge; asked for only when a judged metric is configured. */
  readonly judge: () => JudgeModel;
  /** The dataset's folder: relative image paths are read from it, and nothing outside it. */
  readonly datasetDirectory: string;
}

/** Every metric the CLI knows: the one registry's. */
export const cliMetrics = metricDefinitions;

export const defaultMetrics: readonly MetricConfig[] = [
  { metric: "tool-call-accuracy", options: {} },
];

/** Whether any configured metric asks a judge. */
export function needsJudge(metrics: readonly MetricConfig[]): boolean {
  return metrics.some(
    (item) =>
      metricDefinitions.find((definition) => definition.id === item.metric)?.judged === true,
  );
}

/** Makes the run's metrics through the registry; a global threshold fills in where a metric sets none. */
export function createMetrics(
  metrics: readonly MetricConfig[],
  context: MetricContext,
  threshold?: number,
): Metric[] {
  return metrics.map((item) => {
    // Unknown ids fail here, before options are read.
    metricDefinition(item.metric);
    const options =
      threshold === undefined || "threshold" in item.options
        ? item.options
        : { ...item.options, threshold };
    return createMetric(
      { metric: item.metric, options },
      { judge: context.judge, baseDirectory: context.datasetDirectory },
    );
  });
}
