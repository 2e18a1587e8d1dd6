import type { JudgeModel } from "../core/judge.js";
import type { JsonObject } from "../core/json.js";
import type { Metric } from "../core/metric.js";
import { createMetric, metricDefinition } from "../registry/metric-registry.js";

/** A metric of a run as a config names it: its registry id and its options. */
export interface RunMetricConfig {
  readonly metric: string;
  readonly options: JsonObject;
}

/** Whether a configured metric asks a judge. */
export function isJudged(config: RunMetricConfig): boolean {
  return metricDefinition(config.metric).judged;
}

/** Whether a configured metric asks the judge when the run has one (for some cases, say). */
export function asksJudge(config: RunMetricConfig, judgeGiven: boolean): boolean {
  const definition = metricDefinition(config.metric);
  return definition.judged || (judgeGiven && definition.judgeWhenGiven === true);
}

/** A config's options with the run's threshold filled in where the metric sets none. */
export function withThreshold(config: RunMetricConfig, threshold?: number): RunMetricConfig {
  return threshold === undefined || "threshold" in config.options
    ? config
    : { metric: config.metric, options: { ...config.options, threshold } };
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
