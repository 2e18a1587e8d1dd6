import type { JsonObject } from "../core/json.js";

/** A metric of a run as a config names it: its registry id and its options. */
export interface RunMetricConfig {
  readonly metric: string;
  readonly options: JsonObject;
}

/** A config's options with the run's threshold filled in where the metric sets none. */
export function withThreshold(config: RunMetricConfig, threshold?: number): RunMetricConfig {
  return threshold === undefined || "threshold" in config.options
    ? config
    : { metric: config.metric, options: { ...config.options, threshold } };
}
