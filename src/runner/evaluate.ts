import { ErrorCode, InvalidOptionError, ToolscoreError } from "../core/errors.js";
import type { JsonObject } from "../core/json.js";
import type { JudgeRunSummary } from "../core/judge.js";
import type { Metric } from "../core/metric.js";
import { toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import { caseStatusOf } from "./case-result.js";
import type { CaseError, CaseResult } from "./case-result.js";
import { createSummaryBuilder } from "./summary.js";
import type { EvaluationSummary } from "./summary.js";

/** What a run reports as it goes; reporters and progress bars listen to these. */
export type RunEvent =
  | { readonly type: "run-start"; readonly metrics: readonly string[] }
  | { readonly type: "case-start"; readonly index: number; readonly id: string }
  | { readonly type: "case-end"; readonly result: CaseResult }
  | { readonly type: "run-end"; readonly summary: EvaluationSummary };

/** Where a case sits in its dataset, for results and reports. */
export interface CasePosition {
  readonly index: number;
  readonly id: string;
  readonly line?: number;
}

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

function defaultDescribe(item: object, position: number): CasePosition {
  const id = (item as { id?: unknown }).id;
  const line = (item as { line?: unknown }).line;
  return {
    index: position,
    id: typeof id === "string" && id !== "" ? id : `case-${position + 1}`,
    ...(typeof line === "number" ? { line } : {}),
  };
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

/** Metrics derived for cases with their own options, kept while they are likely to be reused. */
class DerivedMetrics<TCase extends object> {
  private readonly cache = new Map<string, Metric<TCase>>();
  private static readonly capacity = 256;

  get(position: number, metric: Metric<TCase>, overrides: JsonObject): Metric<TCase> {
    const key = `${position}\u0000${JSON.stringify(overrides)}`;
    let derived = this.cache.get(key);
    if (derived === undefined) {
      if (metric.withOptions === undefined) {
        throw new InvalidOptionError({
          option: "metricOptions",
          value: overrides,
          message: `${metric.name} takes no per-case options`,
        });
      }
      derived = metric.withOptions(overrides);
      if (this.cache.size >= DerivedMetrics.capacity) this.cache.clear();
      this.cache.set(key, derived);
    }
    return derived;
  }
}

/** The metric options a case brings, checked against the run's metrics. */
function caseOverrides<TCase extends object>(
  testCase: TCase,
  metrics: readonly Metric<TCase>[],
): (JsonObject | undefined)[] | CaseError {
  const given = (testCase as { metricOptions?: unknown }).metricOptions;
  if (given === undefined || given === null) return [];
  if (typeof given !== "object" || Array.isArray(given)) {
    return {
      code: ErrorCode.INVALID_INPUT,
      field: "metricOptions",
      message: "metricOptions must be an object of options by metric id or name",
    };
  }
  const record = given as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!metrics.some((metric) => metric.id === key || metric.name === key)) {
      return {
        code: ErrorCode.INVALID_INPUT,
        field: `metricOptions.${key}`,
        message: `metricOptions names ${JSON.stringify(key)}, which is not a metric of this run (${metrics.map((metric) => metric.id ?? metric.name).join(", ")})`,
      };
    }
  }
  return metrics.map((metric) => {
    const value = (metric.id === undefined ? undefined : record[metric.id]) ?? record[metric.name];
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as JsonObject)
      : undefined;
  });
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
  const derived = new DerivedMetrics<TCase>();
  onEvent?.({ type: "run-start", metrics: names });

  const finish = (result: CaseResult) => {
    builder.add(result);
    if (keepResults) kept.push(result);
    onEvent?.({ type: "case-end", result });
  };

  const runCase = async (item: TCase | ToolscoreError, position: number): Promise<void> => {
    const where = describe(item, position);
    const begin = performance.now();
    onEvent?.({ type: "case-start", index: where.index, id: where.id });
    const base = {
      index: where.index,
      id: where.id,
      ...(where.line === undefined ? {} : { line: where.line }),
    };
    if (ToolscoreError.isInstance(item)) {
      const field = (item as { field?: unknown }).field;
      finish({
        ...base,
        status: "error",
        results: [],
        error: {
          code: item.code,
          message: item.message,
          ...(where.line === undefined ? {} : { line: where.line }),
          ...(typeof field === "string" ? { field } : {}),
        },
        durationMs: performance.now() - begin,
      });
      return;
    }
    const overrides = caseOverrides(item, metrics);
    if (!Array.isArray(overrides)) {
      finish({
        ...base,
        status: "error",
        results: [],
        error: overrides,
        durationMs: performance.now() - begin,
      });
      return;
    }
    const measureOptions = signal === undefined ? {} : { signal };
    const results = await Promise.all(
      metrics.map(async (metric, metricIndex): Promise<MetricResult> => {
        try {
          const own = overrides[metricIndex];
          const chosen = own === undefined ? metric : derived.get(metricIndex, metric, own);
          const result = await chosen.measure(item, measureOptions);
          // A derived metric may carry another name; results are filed under the run's names.
          return result.metric === metric.name ? result : { ...result, metric: metric.name };
        } catch (error) {
          if (signal?.aborted === true) throw error;
          return toErroredResult(metric.name, error);
        }
      }),
    );
    finish({
      ...base,
      status: caseStatusOf(results),
      results,
      durationMs: performance.now() - begin,
    });
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
