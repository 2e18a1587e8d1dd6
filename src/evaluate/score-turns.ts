import { checkedMetricResult } from "../core/metric.js";
import type { MeasureOptions, Metric } from "../core/metric.js";
import { toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import { combineTurnResults, turnCaseOf } from "../core/turns.js";
import type { TurnAggregate } from "../core/turns.js";
import type { TestCase } from "../core/test-case.js";

/** A case that is a conversation: it has turns. */
export function hasTurns(item: object): boolean {
  const turns = (item as { turns?: unknown }).turns;
  return Array.isArray(turns) && turns.length > 0;
}

/** The metric a case or turn is scored with (the run's, or one its options made), or why none could be. */
export type ChosenMetric<TCase> = Metric<TCase> | { readonly failed: MetricResult };

/** A conversation's result under one metric, and each turn's. */
export interface ScoredConversation {
  readonly result: MetricResult;
  readonly turns: readonly MetricResult[];
}

/**
 * The conversation's result under one metric: every turn scored as a case with the metric its
 * options chose, the calls made at the wrong turn found (when the metric matches calls), and the
 * turns combined by `aggregate`. Synchronous when every turn's metric is.
 */
export function scoreConversation<TCase extends object>(input: {
  readonly name: string;
  /** The run's metric: the one that finds misplaced calls. */
  readonly metric: Metric<TCase>;
  readonly cases: readonly TCase[];
  readonly chosen: readonly ChosenMetric<TCase>[];
  readonly aggregate: TurnAggregate;
  readonly measureOptions: MeasureOptions;
  readonly signal?: AbortSignal;
}): ScoredConversation | Promise<ScoredConversation> {
  const { name, metric, cases, chosen } = input;
  const combine = (results: MetricResult[]): ScoredConversation => ({
    result: combined(results),
    turns: results,
  });
  const combined = (results: MetricResult[]): MetricResult => {
    const thresholds = results.flatMap((result) =>
      result.status === "scored" ? [result.threshold] : [],
    );
    try {
      const found =
        metric.misplacedCalls?.(
          results.map((result, at) => ({
            case: cases[at],
            result,
            metric: "failed" in chosen[at] ? metric : chosen[at],
          })),
        ) ?? [];
      return combineTurnResults({
        metric: name,
        results,
        aggregate: input.aggregate,
        // A turn's own threshold decides that turn; the conversation takes the strictest.
        threshold: thresholds.length === 0 ? 1 : Math.max(...thresholds),
        misplaced: found,
        inputs: cases.map((turn) => (turn as TestCase).input),
      });
    } catch (error) {
      return toErroredResult(name, error);
    }
  };
  const results = measureChosen({
    chosen,
    caseAt: (at) => cases[at],
    name: () => name,
    measureOptions: input.measureOptions,
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  });
  return results instanceof Promise ? results.then(combine) : combine(results);
}

/**
 * Each chosen metric's result for its case, filed under the run's name for it: synchronously
 * when every metric can measure so, else together. A metric that throws gives an errored result;
 * an abort ends the whole. `now` measures one synchronously (default: `measureSync`, checked).
 */
export function measureChosen<TCase extends object>(input: {
  readonly chosen: readonly ChosenMetric<TCase>[];
  readonly caseAt: (at: number) => TCase;
  readonly name: (at: number) => string;
  readonly now?: (metric: Metric<TCase>, at: number, item: TCase) => MetricResult;
  readonly measureOptions: MeasureOptions;
  readonly signal?: AbortSignal;
}): MetricResult[] | Promise<MetricResult[]> {
  const { chosen, caseAt, name } = input;
  // A derived metric may carry another name; results are filed under the run's names.
  const named = (result: MetricResult, at: number): MetricResult =>
    result.metric === name(at) ? result : { ...result, metric: name(at) };
  const now =
    input.now ??
    ((metric: Metric<TCase>, _at: number, item: TCase) =>
      checkedMetricResult(
        metric.name,
        (metric.measureSync as (item: TCase) => MetricResult)(item),
      ));
  if (chosen.every((metric) => "failed" in metric || metric.measureSync !== undefined)) {
    return chosen.map((metric, at) => {
      if ("failed" in metric) return metric.failed;
      try {
        return named(now(metric, at, caseAt(at)), at);
      } catch (error) {
        return toErroredResult(name(at), error);
      }
    });
  }
  return Promise.all(
    chosen.map(async (metric, at): Promise<MetricResult> => {
      if ("failed" in metric) return metric.failed;
      try {
        const result = await metric.measure(caseAt(at), input.measureOptions);
        return named(checkedMetricResult(metric.name, result), at);
      } catch (error) {
        if (input.signal?.aborted === true) throw error;
        return toErroredResult(name(at), error);
      }
    }),
  );
}

/** The cases a conversation's turns are scored as. */
export function turnCasesOf<TCase extends object>(item: TCase): TCase[] {
  const turns = (item as TestCase).turns ?? [];
  return turns.map((_, at) => turnCaseOf(item as TestCase, at) as TCase);
}
