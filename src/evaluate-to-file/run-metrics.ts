import type { JudgeModel } from "../core/judge.js";
import { asksJudge as asksDefinitionJudge } from "../core/metric.js";
import type { Metric } from "../core/metric.js";
import { createMetric, metricDefinition } from "../registry/metric-registry.js";
import { withThreshold } from "../metrics/registry.js";
import type { RunMetricConfig } from "../metrics/registry.js";

/** Whether a configured metric needs a judge: it asks one even in a run without. */
export function isJudged(config: RunMetricConfig): boolean {
  return asksJudge(config, false);
}

/** Whether a configured metric asks the judge in a run with one, or without. */
export function asksJudge(config: RunMetricConfig, judgeGiven: boolean): boolean {
  return asksDefinitionJudge(metricDefinition(config.metric), config.options, judgeGiven);
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
