import { isJudged } from "../evaluate-to-file/metric-set.js";
import type { MetricConfig } from "./config.js";

export const defaultMetrics: readonly MetricConfig[] = [
  { metric: "tool-call-accuracy", options: {} },
];

/** Whether any configured metric asks a judge (an unknown id is an error naming the known ones). */
export function needsJudge(metrics: readonly MetricConfig[]): boolean {
  return metrics.some(isJudged);
}
