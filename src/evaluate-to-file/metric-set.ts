/**
 * A run's metrics, made once from the run's entries: the metrics it scores with, which of them ask
 * a judge, which a report can compute again from a case's line, and which worker threads can score
 * (they load the deterministic pack, `deterministic-metrics.ts`, made from the same configs).
 */
import {
  asksJudge as asksDefinitionJudge,
  resolveMetric,
  resolveMetricList,
  toMetric,
} from "../core/metric.js";
import type { ConvertsToMetric, Metric } from "../core/metric.js";
import type { JsonObject } from "../core/json.js";
import { metricEntry, withThreshold } from "../metrics/definitions.js";
import type { RunMetricConfig } from "../metrics/definitions.js";
import { createMetric, metricDefinition, splitMetricConfig } from "../registry/metric-registry.js";
import type { MetricConfigInput, MetricContext } from "../registry/metric-registry.js";

// The CLI hands a run its configured metrics in the one spelling.
export { metricEntry };

/** Whether a configured metric needs a judge: it asks one even in a run without. */
export function isJudged(config: RunMetricConfig): boolean {
  return asksJudge(config, false);
}

/** Whether a configured metric asks the judge in a run with one, or without. */
function asksJudge(config: RunMetricConfig, judgeGiven: boolean): boolean {
  return asksDefinitionJudge(metricDefinition(config.metric), config.options, judgeGiven);
}

/** A run's metrics, and what the run needs to know of them. */
export interface MetricSet<TCase extends object> {
  readonly metrics: Metric<TCase>[];
  readonly names: string[];
  /** Each metric's config, the run's threshold filled in; undefined for a metric object. */
  readonly configs: (RunMetricConfig | undefined)[];
  /** The configs, when every metric was given as one (the results header records them). */
  readonly allConfigs: readonly RunMetricConfig[] | undefined;
  /** The configs, when every metric is one that asks no judge in this run: what workers score. */
  readonly deterministic: readonly RunMetricConfig[] | undefined;
  /** The metrics given as configs that ask no judge: a report can compute their details again. */
  readonly recomputable: readonly string[];
}

/** A config (`{ metric: "<id>", ... }`) rather than a metric object. */
function isConfig(item: unknown): item is MetricConfigInput {
  return (
    typeof item === "object" &&
    item !== null &&
    typeof (item as { measure?: unknown }).measure !== "function" &&
    typeof (item as Partial<ConvertsToMetric>)[toMetric] !== "function" &&
    typeof (item as { metric?: unknown }).metric === "string"
  );
}

/**
 * The run's metrics from its entries: a config becomes the registry's metric (the run's threshold
 * filling in where it sets none), anything else must be a metric object; checked as a list.
 */
export function createMetricSet<TCase extends object>(
  given: unknown,
  context: MetricContext & { readonly threshold?: number; readonly allowEmpty: boolean },
): MetricSet<TCase> {
  const { threshold, allowEmpty, ...made } = context;
  const entries: readonly unknown[] = Array.isArray(given) ? given : [];
  const configs = entries.map((item) => {
    if (!isConfig(item)) return undefined;
    const split = splitMetricConfig(item);
    return withThreshold(
      { metric: split.metric as string, options: split.options as JsonObject },
      threshold,
    );
  });
  const metrics = resolveMetricList<TCase>(given, {
    allowEmpty,
    holds: "metrics or metric configs",
    make: (item, at) => {
      const config = configs[at];
      return config === undefined
        ? resolveMetric<TCase>(item, `metrics[${at}]`)
        : createMetric(metricEntry(config), made);
    },
  });
  const judgeGiven = context.judge !== undefined;
  // A metric object may ask anything; a config asks the judge as its definition says.
  const pure = configs.map((config) => config !== undefined && !asksJudge(config, judgeGiven));
  const allConfigs = configs.every((config) => config !== undefined) ? configs : undefined;
  const names = metrics.map((metric) => metric.name);
  return {
    metrics,
    names,
    configs,
    allConfigs,
    deterministic: pure.every(Boolean) ? allConfigs : undefined,
    recomputable: names.filter((_, at) => pure[at]),
  };
}
