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
  const now = (turn: ChosenMetric<TCase>, at: number): MetricResult => {
    if ("failed" in turn) return turn.failed;
    try {
      return checkedMetricResult(
        name,
        (turn.measureSync as (item: TCase) => MetricResult)(cases[at]),
      );
    } catch (error) {
      return toErroredResult(name, error);
    }
  };
  if (chosen.every((turn) => "failed" in turn || turn.measureSync !== undefined)) {
    return combine(chosen.map(now));
  }
  return Promise.all(
    chosen.map(async (turn, at): Promise<MetricResult> => {
      if ("failed" in turn) return turn.failed;
      try {
        return checkedMetricResult(name, await turn.measure(cases[at], input.measureOptions));
      } catch (error) {
        if (input.signal?.aborted === true) throw error;
        return toErroredResult(name, error);
      }
    }),
  ).then(combine);
}

/** The cases a conversation's turns are scored as. */
export function turnCasesOf<TCase extends object>(item: TCase): TCase[] {
  const turns = (item as TestCase).turns ?? [];
  return turns.map((_, at) => turnCaseOf(item as TestCase, at) as TCase);
}
