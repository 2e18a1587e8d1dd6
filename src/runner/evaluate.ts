import { InvalidOptionError } from "../core/errors.js";
import type { ToolscoreError } from "../core/errors.js";
import type { JudgeRunSummary } from "../core/judge.js";
import type { Metric } from "../core/metric.js";
import type { CaseResult } from "./case-result.js";
import { createCaseScorer, defaultDescribe } from "./score-case.js";
import type { CasePosition } from "./score-case.js";

export type { CasePosition } from "./score-case.js";
import { createSummaryBuilder } from "./summary.js";
import type { EvaluationSummary } from "./summary.js";

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
  /** Every metric runs on every case. Their names must differ. */
  metrics: readonly Metric<TCase>[];
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
}

export interface Evaluation {
  /** Case results in input order (empty with `keepResults: false`); only finished cases. */
  readonly results: readonly CaseResult[];
  readonly summary: EvaluationSummary;
}

function positiveInteger(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be a whole number of at least 1, got ${JSON.stringify(value)}`,
    });
  }
  return value;
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
  const { metrics, signal, onEvent, judge } = options;
  const concurrency = positiveInteger("concurrency", options.concurrency, 8);
  const keepResults = options.keepResults ?? true;
  const describe = options.describe ?? defaultDescribe;
  const givenMetrics: unknown = metrics;
  if (!Array.isArray(givenMetrics) || givenMetrics.length === 0) {
    throw new InvalidOptionError({
      option: "metrics",
      value: metrics,
      message: "metrics must be a non-empty list of metrics",
    });
  }
  const names = metrics.map((metric) => metric.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate !== undefined) {
    throw new InvalidOptionError({
      option: "metrics",
      value: duplicate,
      message: `two metrics are named ${JSON.stringify(duplicate)}; give one of them another name`,
    });
  }
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
  const builder = createSummaryBuilder(names);
  const kept: CaseResult[] = [];
  const scorer = createCaseScorer<TCase>({
    metrics,
    describe,
    ...(signal === undefined ? {} : { signal }),
  });
  onEvent?.({ type: "run-start", metrics: names });

  const finish = (result: CaseResult) => {
    builder.add(result);
    if (keepResults) kept.push(result);
    onEvent?.({ type: "case-end", result });
  };

  const runCase = async (item: TCase | ToolscoreError, position: number): Promise<void> => {
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
