import type { JudgeModel } from "../core/judge.js";
import type { Metric } from "../core/metric.js";
import { createMetric, metricDefinition } from "../registry/metric-registry.js";
import { withThreshold } from "./run-metric-config.js";
import type { RunMetricConfig } from "./run-metric-config.js";

export type { RunMetricConfig } from "./run-metric-config.js";
export { withThreshold } from "./run-metric-config.js";

/** Whether a configured metric asks a judge. */
export function isJudged(config: RunMetricConfig): boolean {
  return metricDefinition(config.metric).judged;
}

/** Whether a configured metric asks the judge when the run has one (for some cases, say). */
export function asksJudge(config: RunMetricConfig, judgeGiven: boolean): boolean {
  const definition = metricDefinition(config.metric);
  return definition.judged || (judgeGiven && definition.judgeWhenGiven === true);
}

/**
 * Makes a run's metrics from their configs through the registry, exactly as `createMetric` makes
 * them in code; a global threshold fills in where a metric sets none.
 */
export function createRunMetrics(
  configs: readonly RunMetricConfig[],
  context: {
    readonly threshold?: number;
    readonly judge?: () => JudgeModel;
    readonly baseDirectory?: string;
  } = {},
): Metric[] {
  return configs.map((config) =>
    createMetric(
      { metric: config.metric, options: withThreshold(config, context.threshold).options },
      {
        ...(context.judge === undefined ? {} : { judge: context.judge }),
        ...(context.baseDirectory === undefined ? {} : { baseDirectory: context.baseDirectory }),
      },
    ),
  );
}
