import { readTurnAggregate } from "../core/turns.js";
import type { TurnAggregate } from "../core/turns.js";
import type { JudgeRunSummary } from "../core/judge.js";
import { ErrorCode, InvalidOptionError, ToolscoreError } from "../core/errors.js";
import { defaultConcurrency, integerOption } from "../core/options.js";
import { resolveMetricList } from "../core/metric.js";
import type { ConvertsToMetric, Metric } from "../core/metric.js";
import type { MetricResult } from "../core/metric-result.js";
import { caseStatusOf } from "../core/case-result.js";
import type { CaseResult } from "../core/case-result.js";
import { createCaseScorer, defaultDescribe, elapsedMs } from "./score-case.js";
import { readGroupBy } from "../core/repeats.js";
import type { GroupBy } from "../core/repeats.js";
import type { CasePosition } from "./score-case.js";

export type { CasePosition } from "./score-case.js";
import { createSummaryBuilder } from "../core/summary.js";
import type { EvaluationSummary } from "../core/summary.js";

/** What a run reports as it goes; reporters and progress bars listen to these. */
export type RunEvent =
  | { readonly type: "run-start"; readonly metrics: readonly string[] }
  | { readonly type: "case-start"; readonly index: number; readonly id: string }
  | { readonly type: "case-end"; readonly result: CaseResult }
  | { readonly type: "run-end"; readonly summary: EvaluationSummary };

export interface EvaluateOptions<TCase extends object> {
  /**
   * The cases, in any number: an array, any iterable, or an async iterable (a dataset streamed
   * from disk). An item that is a `ToolscoreError` stands for a case that could not be read (a
   * malformed line); it is recorded as that case's error and the run goes on.
   */
  testCases:
    Iterable<NoInfer<TCase> | ToolscoreError> | AsyncIterable<NoInfer<TCase> | ToolscoreError>;
  /**
   * Every metric runs on every case. Their names must differ. May be empty with `scoreCase`.
   * toolscore's metrics, and the compatible classes (`ToolCorrectnessMetric`, axion's
   * `ToolCorrectness`, ragas' `MultiModalFaithfulness`, ...) as they are; anything else is an
   * `InvalidOptionError` before any case runs.
   */
  metrics: readonly (Metric<TCase> | ConvertsToMetric<never>)[];
  /**
   * Scores a case in place of running `metrics` on it, for runs whose metrics are only known as
   * they go: an application run once per golden whose observed components carry their own
   * metrics (toolscore/tracing). Its results may name metrics beyond `metrics`; the summary adds
   * them as they appear. A throw is that case's error (with the error's code when it is a
   * toolscore error, else `CALLBACK_FAILED`).
   */
  scoreCase?: (item: TCase, context: ScoreCaseContext) => Promise<readonly MetricResult[]>;
  /**
   * Positions an earlier run already finished (a resumed run): not run again, no events. Their
   * results are the caller's to add back.
   */
  skip?: (position: number) => boolean;
  /**
   * A result the caller already has for a case (watch mode: the case did not change since the
   * last run): taken as the case's result, with its events, instead of scoring it again.
   */
  reuse?: (item: TCase, position: CasePosition) => CaseResult | undefined;
  /** Cases in flight at once. Default 8. (A judge session limits model calls on its own.) */
  concurrency?: number;
  /** Stops taking new cases; cases in flight are asked to stop, and finished ones are kept. */
  signal?: AbortSignal;
  /** Called for each lifecycle event, synchronously, in order. */
  onEvent?: (event: RunEvent) => void;
  /** Keep every case result for the returned `results`. Default true; false for huge runs. */
  keepResults?: boolean;
  /** The judge session the metrics share, whose calls, tokens and cost the summary reports. */
  judge?: { summary(): JudgeRunSummary };
  /**
   * Where an item sits in its dataset. Default: its position in `testCases`, and its `id` field
   * (or `case-<position + 1>`).
   */
  describe?: (item: TCase | ToolscoreError, position: number) => CasePosition;
  /**
   * What makes cases runs of one case: `"id"` or `"metadata.<key>"`. Without it, cases with a
   * `run` number are grouped by id. The summary's `repeats` then gives pass@k, pass^k and the
   * flaky cases.
   */
  groupBy?: GroupBy;
  /**
   * How a conversation's turns (a case's `turns`) make its score, unless the case says
   * (`turnAggregate`): "mean" (default), "min", or "all" (1 only when every turn passes).
   */
  turnAggregate?: TurnAggregate;
}

/** What `scoreCase` is told about the case it scores. */
export interface ScoreCaseContext {
  readonly position: CasePosition;
  readonly signal?: AbortSignal;
}

export interface Evaluation {
  /** Case results in input order (empty with `keepResults: false`); only finished cases. */
  readonly results: readonly CaseResult[];
  readonly summary: EvaluationSummary;
}

/** A case scored by the caller's `scoreCase`; what it throws is the case's error. */
async function scoreByCallback<TCase extends object>(
  scoreCase: NonNullable<EvaluateOptions<TCase>["scoreCase"]>,
  item: TCase,
  where: CasePosition,
  signal: AbortSignal | undefined,
): Promise<CaseResult> {
  const begin = performance.now();
  const base = {
    index: where.index,
    id: where.id,
    ...(where.line === undefined ? {} : { line: where.line }),
  };
  try {
    const results = [
      ...(await scoreCase(item, { position: where, ...(signal === undefined ? {} : { signal }) })),
    ];
    return { ...base, status: caseStatusOf(results), results, durationMs: elapsedMs(begin) };
  } catch (error) {
    if (signal?.aborted === true) throw error;
    return {
      ...base,
      status: "error",
      results: [],
      error: {
        code: ToolscoreError.isInstance(error) ? error.code : ErrorCode.CALLBACK_FAILED,
        message: error instanceof Error ? error.message : String(error),
      },
      durationMs: elapsedMs(begin),
    };
  }
}

/**
 * Runs every metric over every case with a concurrency limit, and sums up. A case that cannot be
 * read, or that a metric cannot score, is recorded with its error; the run goes on. Results come
 * back in input order; events report each case as it finishes, in completion order.
 *
 * @example
 * const { results, summary } = await evaluate({
 *   testCases: [{ id: "a", toolsCalled, expectedTools }],
 *   metrics: [toolCallAccuracy({ order: "in-order" })],
 * });
 * summary.metrics[0].mean; results[0].results[0].status;
 */
export async function evaluate<TCase extends object>(
  options: EvaluateOptions<TCase>,
): Promise<Evaluation> {
  const { signal, onEvent, judge } = options;
  const concurrency = integerOption("concurrency", options.concurrency, defaultConcurrency, {
    min: 1,
  });
  const keepResults = options.keepResults ?? true;
  const describe = options.describe ?? defaultDescribe;
  const { scoreCase, skip } = options;
  if ("observedCallback" in options) {
    throw new InvalidOptionError({
      option: "observedCallback",
      value: "observedCallback",
      message:
        'evaluate of "toolscore" scores test cases; to run an application over goldens, use evaluateObserved of "toolscore/tracing"',
    });
  }
  // Compatible classes stand for the metric they convert to; anything else that is not a metric
  // fails here, before any case runs.
  const metrics = resolveMetricList<TCase>(options.metrics, {
    allowEmpty: scoreCase !== undefined,
    holds: "metrics",
  });
  const names = metrics.map((metric) => metric.name);
  const testCases = options.testCases as unknown;
  const isAsync =
    typeof testCases === "object" && testCases !== null && Symbol.asyncIterator in testCases;
  if (
    !isAsync &&
    (typeof testCases !== "object" || testCases === null || !(Symbol.iterator in testCases))
  ) {
    throw new InvalidOptionError({
      option: "testCases",
      value: testCases,
      message: "testCases must be an array, an iterable or an async iterable of test cases",
    });
  }

  const started = performance.now();
  const groupBy = options.groupBy === undefined ? undefined : readGroupBy(options.groupBy);
  const builder = createSummaryBuilder(names, groupBy === undefined ? {} : { groupBy });
  const kept: CaseResult[] = [];
  const turnAggregate =
    options.turnAggregate === undefined
      ? undefined
      : readTurnAggregate(options.turnAggregate, "turnAggregate");
  const scorer = createCaseScorer<TCase>({
    metrics,
    describe,
    ...(groupBy === undefined ? {} : { groupBy }),
    ...(turnAggregate === undefined ? {} : { turnAggregate }),
    ...(signal === undefined ? {} : { signal }),
  });
  onEvent?.({ type: "run-start", metrics: names });

  const finish = (result: CaseResult) => {
    builder.add(result);
    if (keepResults) kept.push(result);
    onEvent?.({ type: "case-end", result });
  };

  const runCase = async (item: TCase | ToolscoreError, position: number): Promise<void> => {
    if (options.reuse !== undefined && !ToolscoreError.isInstance(item)) {
      const where = describe(item, position);
      const reused = options.reuse(item, where);
      if (reused !== undefined) {
        onEvent?.({ type: "case-start", index: where.index, id: where.id });
        finish(reused);
        return;
      }
    }
    if (scoreCase !== undefined && !ToolscoreError.isInstance(item)) {
      const where = describe(item, position);
      onEvent?.({ type: "case-start", index: where.index, id: where.id });
      finish(await scoreByCallback(scoreCase, item, where, signal));
      return;
    }
    const outcome = scorer.score(item, position, (where) => {
      onEvent?.({ type: "case-start", index: where.index, id: where.id });
    });
    finish(outcome instanceof Promise ? await outcome : outcome);
  };
  let position = 0;
  let failure: { error: unknown } | undefined;
  const stopped = () => signal?.aborted === true || failure !== undefined;
  const worker = async (iterator: Iterator<unknown> | AsyncIterator<unknown>) => {
    while (!stopped()) {
      let next: IteratorResult<unknown>;
      try {
        next = isAsync ? await iterator.next() : (iterator.next() as IteratorResult<unknown>);
      } catch (error) {
        failure ??= { error };
        return;
      }
      if (next.done === true || stopped()) return;
      const at = position++;
      if (skip?.(at) === true) continue;
      try {
        await runCase(next.value as TCase | ToolscoreError, at);
      } catch (error) {
        if (signal?.aborted === true) return;
        failure ??= { error };
        return;
      }
    }
  };

  const iterator = isAsync
    ? (testCases as AsyncIterable<unknown>)[Symbol.asyncIterator]()
    : (testCases as Iterable<unknown>)[Symbol.iterator]();
  try {
    await Promise.all(Array.from({ length: concurrency }, () => worker(iterator)));
  } finally {
    if (stopped()) await iterator.return?.();
  }
  if (failure !== undefined) throw failure.error;

  const summary = builder.summary({
    durationMs: performance.now() - started,
    aborted: signal?.aborted === true,
    ...(judge === undefined ? {} : { judge: judge.summary() }),
  });
  onEvent?.({ type: "run-end", summary });
  if (keepResults) kept.sort((a, b) => a.index - b.index);
  return { results: kept, summary };
}
