import type { JsonObject } from "./json.js";
import type { MetricResult } from "./metric-result.js";
import type { TestCase } from "./test-case.js";

/** What a metric's `measure` may be asked to honour. */
export interface MeasureOptions {
  /** Stops work as soon as possible; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * The contract every toolscore metric meets: a stable name, and `measure`, which scores one case
 * and resolves to a result (a score, or an error recorded for that case); it rejects only when
 * aborted.
 */
export interface Metric<TCase = TestCase, TDetails = unknown> {
  readonly name: string;
  /** The registry id the metric was made from (`"tool-call-accuracy"`), when it was. */
  readonly id?: string;
  measure(testCase: TCase, options?: MeasureOptions): Promise<MetricResult<TDetails>>;
  /**
   * The same as `measure`, synchronously, for metrics that need no I/O (the deterministic ones).
   * Runners use it to score without a promise per metric, and in worker threads.
   */
  measureSync?(testCase: TCase): MetricResult<TDetails>;
  /**
   * The same metric with some options replaced, for a case that brings its own
   * (`TestCase.metricOptions`). Throws `InvalidOptionError` for options it does not take.
   */
  withOptions?(overrides: JsonObject): Metric<TCase, TDetails>;
}

/** A metric that can score synchronously (see `Metric.measureSync`). */
export type SyncMetric<TCase = TestCase, TDetails = unknown> = Metric<TCase, TDetails> & {
  measureSync(testCase: TCase): MetricResult<TDetails>;
};

/**
 * Internal, not exported from the package: how a deterministic metric scores a case for a caller
 * that keeps the details of failed results only (`toolscore eval --details failed` writing a
 * dataset it can read again). A passing result may then come with `details: null`, which saves
 * building them; a failed one has them as `measureSync` gives them.
 */
export const measureWithoutPassingDetails: unique symbol = Symbol(
  "toolscore.measureWithoutPassingDetails",
);

/** A metric that can leave a passing result's details out (see the symbol). */
export interface LeavesPassingDetailsOut<TCase> {
  [measureWithoutPassingDetails](testCase: TCase): MetricResult;
}

/** Whether `metric` can leave a passing result's details out. */
export function leavesPassingDetailsOut<TCase>(
  metric: object,
): metric is LeavesPassingDetailsOut<TCase> {
  return (
    typeof (metric as Partial<LeavesPassingDetailsOut<TCase>>)[measureWithoutPassingDetails] ===
    "function"
  );
}
