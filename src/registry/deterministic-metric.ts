import type { JsonObject } from "../core/json.js";
import type { Metric } from "../core/metric.js";
import { deterministicMetrics } from "../metrics/registry.js";

/**
 * The metric `id` names among the deterministic metrics of `metrics/registry`, made from
 * `options` as `createMetric` makes it (which calls this for these ids); undefined for any other
 * id. For code that runs only these (worker threads), without loading the judged metrics' code.
 */
export function createDeterministicMetric(id: string, options: JsonObject): Metric | undefined {
  const definition = deterministicMetrics.find((entry) => entry.id === id);
  if (definition === undefined) return undefined;
  const metric = definition.create(options);
  return metric.id === id ? metric : { ...metric, id };
}
