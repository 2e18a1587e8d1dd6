import { ErrorCode, InvalidOptionError, ToolscoreError } from "../core/errors.js";
import { closestName } from "../core/suggest.js";
import { oldOrderNote } from "../core/options.js";
import type { JsonObject } from "../core/json.js";
import {
  checkedMetricResult,
  measureKeepingDetails,
  measuresKeepingDetails,
} from "../core/metric.js";
import type { KeptDetails, MeasureOptions, Metric } from "../core/metric.js";
import { toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import { caseStatusOf } from "../core/case-result.js";
import { caseSizeError } from "../core/case-size.js";
import { groupKeyOf } from "../core/repeats.js";
import type { GroupBy } from "../core/repeats.js";
import type { CaseError, CaseResult } from "../core/case-result.js";
import type { TestCase } from "../core/test-case.js";
import type { TurnAggregate } from "../core/turns.js";
import { hasTurns, measureChosen, scoreConversation, turnCasesOf } from "./score-turns.js";
import type { ChosenMetric, ScoredConversation } from "./score-turns.js";

/**
 * Milliseconds since `begin` (a `performance.now()`), to the microsecond: finer is noise, and
 * records of millions of cases write it every time.
 */
export function elapsedMs(begin: number): number {
  return Math.round((performance.now() - begin) * 1000) / 1000;
}

/** Where a case sits in its dataset, for results and reports. */
export interface CasePosition {
  readonly index: number;
  readonly id: string;
  readonly line?: number;
}

/** Its `id` field (or `case-<position + 1>`) and its `line`, when it has them. */
export function defaultDescribe(item: object, position: number): CasePosition {
  const id = (item as { id?: unknown }).id;
  const line = (item as { line?: unknown }).line;
  return {
    index: position,
    id: typeof id === "string" && id !== "" ? id : `case-${position + 1}`,
    ...(typeof line === "number" ? { line } : {}),
  };
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

  /** The run's metric at `at`, or the one a case's (or turn's) own options make of it. */
  choose(metric: Metric<TCase>, at: number, own: JsonObject | undefined): ChosenMetric<TCase> {
    if (own === undefined) return metric;
    try {
      return this.get(at, metric, own);
    } catch (error) {
      return { failed: toErroredResult(metric.name, error) };
    }
  }
}

/**
 * The metric options a case brings, checked against the run's metrics; options for a metric the
 * run does not use are left unused and said in a note (`field` names where they sit).
 */
function caseOverrides<TCase extends object>(
  testCase: TCase,
  metrics: readonly Metric<TCase>[],
  note: (key: string, text: string) => void,
  field = "metricOptions",
): (JsonObject | undefined)[] | CaseError {
  const given = (testCase as { metricOptions?: unknown }).metricOptions;
  if (given === undefined || given === null) return [];
  if (typeof given !== "object" || Array.isArray(given)) {
    return {
      code: ErrorCode.INVALID_INPUT,
      field,
      message: `${field} must be an object of options by metric id or name`,
    };
  }
  const record = given as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!metrics.some((metric) => metric.id === key || metric.name === key)) {
      const names = metrics.map((metric) => metric.id ?? metric.name);
      const run = `which is not a metric of this run (${names.join(", ")})`;
      const guess = closestName(key, [...names, ...metrics.map((metric) => metric.name)]);
      // A near miss of one of the run's metrics is a typo: its options would never apply.
      if (guess !== undefined) {
        return {
          code: ErrorCode.INVALID_INPUT,
          field: `${field}.${key}`,
          message: `${field} names ${JSON.stringify(key)}, ${run}: did you mean ${JSON.stringify(guess)}?`,
        };
      }
      note(key, `${field}.${key} is not used: ${JSON.stringify(key)}, ${run}`);
    }
  }
  for (const [key, value] of Object.entries(record)) {
    const old = oldOrderNote(value, `${field}.${key}`);
    if (old !== undefined) note(`${key}.order`, old);
  }
  return metrics.map((metric) => {
    const value = (metric.id === undefined ? undefined : record[metric.id]) ?? record[metric.name];
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as JsonObject)
      : undefined;
  });
}

/** Why a case cannot be scored at all: it could not be read, or it is too large. */
function unscorableError(item: object, where: CasePosition): CaseError | undefined {
  const error = ToolscoreError.isInstance(item) ? item : caseSizeError(item);
  if (error === undefined) return undefined;
  const field = (error as { field?: unknown }).field;
  return {
    code: error.code,
    message: error.message,
    ...(where.line === undefined ? {} : { line: where.line }),
    ...(typeof field === "string" ? { field } : {}),
  };
}

/**
 * Scores one case with every metric: the case's own metric options applied, a case that could
 * not be read (a `ToolscoreError` item) or a metric that throws recorded as an error. Returns the
 * result synchronously when every metric the case needs has `measureSync`, else a promise; the
 * runner and its worker threads share it, so both produce the same results.
 */
export interface CaseScorer<TCase extends object> {
  score(
    item: TCase | ToolscoreError,
    position: number,
    onStart?: (where: CasePosition) => void,
  ): CaseResult | Promise<CaseResult>;
}

/** The group of a case; a case that could not be read has no metadata: only its id can group it. */
function groupOf(item: object, id: string, groupBy: GroupBy | undefined): string | undefined {
  if (ToolscoreError.isInstance(item)) return groupBy === "id" ? id : undefined;
  return groupKeyOf(item, id, groupBy);
}

/** Each metric's result for a run its simulated user spoiled: not the agent's to answer for. */
function notTheAgents(
  metrics: readonly { readonly name: string }[],
  fault: string,
): MetricResult[] {
  const reason = `not the agent's to answer for: ${fault}`;
  return metrics.map((metric) => ({ metric: metric.name, status: "not-evaluable", reason }));
}

/** A conversation scored as one run: each turn skipped, saying so. */
function scoreWholeRun<TCase extends object>(input: {
  readonly chosen: ChosenMetric<TCase>;
  readonly name: string;
  readonly item: TCase;
  readonly turns: number;
  readonly measureOptions: MeasureOptions;
  readonly signal: AbortSignal | undefined;
}): ScoredConversation | Promise<ScoredConversation> {
  const { name, turns, signal } = input;
  const skipped: MetricResult = {
    status: "skipped",
    metric: name,
    reason: "scored on the whole conversation",
  };
  const made = (results: MetricResult[]): ScoredConversation => ({
    result: results[0],
    turns: Array.from({ length: turns }, () => skipped),
  });
  const results = measureChosen({
    chosen: [input.chosen],
    caseAt: () => input.item,
    name: () => name,
    measureOptions: input.measureOptions,
    ...(signal === undefined ? {} : { signal }),
  });
  return results instanceof Promise ? results.then(made) : made(results);
}

export function createCaseScorer<TCase extends object>(input: {
  metrics: readonly Metric<TCase>[];
  describe?: (item: TCase | ToolscoreError, position: number) => CasePosition;
  signal?: AbortSignal;
  /**
   * Metrics (by the run's names) some of whose results' details the caller does not keep, and
   * which it keeps: those that can leave the others out (`details: null`) do.
   */
  leanDetails?: { readonly metrics: ReadonlySet<string>; readonly keep: KeptDetails };
  /** What makes cases runs of one case (see `groupKeyOf`); results carry their `group`. */
  groupBy?: GroupBy;
  /** How a conversation's turns make its score, unless the case says (default "mean"). */
  turnAggregate?: TurnAggregate;
}): CaseScorer<TCase> {
  const { metrics, signal } = input;
  const lean = input.leanDetails;
  /** Scores a case synchronously with the metric at `at` (the run's, or one derived from it). */
  const measureNow = (metric: Metric<TCase>, at: number, item: TCase): MetricResult =>
    lean !== undefined &&
    lean.metrics.has(metrics[at].name) &&
    measuresKeepingDetails<TCase>(metric)
      ? metric[measureKeepingDetails](item, lean.keep)
      : checkedMetricResult(
          metric.name,
          (metric.measureSync as (item: TCase) => MetricResult)(item),
        );
  const nameAt = (at: number): string => metrics[at].name;
  const describe = input.describe ?? defaultDescribe;
  const derived = new DerivedMetrics<TCase>();
  const choose = derived.choose.bind(derived);
  const measureOptions = signal === undefined ? {} : { signal };
  const { groupBy } = input;
  return {
    score(item, position, onStart) {
      const where = describe(item, position);
      // A case that could not be read has no run number or metadata: only its id can group it.
      const run = ToolscoreError.isInstance(item) ? undefined : (item as { run?: unknown }).run;
      const group = groupOf(item, where.id, groupBy);
      const begin = performance.now();
      onStart?.(where);
      // A turn holds its case's options too: each unused metric is said once.
      let notes: string[] | undefined;
      let noted: Set<string> | undefined;
      const note = (key: string, text: string) => {
        if (noted?.has(key) === true) return;
        (noted ??= new Set()).add(key);
        (notes ??= []).push(text);
      };
      // Results are built key by key, not by spreading a conditional object: that costs more
      // than scoring a small case.
      const result = (
        status: CaseResult["status"],
        results: MetricResult[],
        error?: CaseError,
        turns?: readonly CaseResult["status"][],
        simulatorFault?: true,
      ): CaseResult => {
        const built: { -readonly [K in keyof CaseResult]: CaseResult[K] } =
          where.line === undefined
            ? { index: where.index, id: where.id, status, results, durationMs: 0 }
            : {
                index: where.index,
                id: where.id,
                line: where.line,
                status,
                results,
                durationMs: 0,
              };
        if (turns !== undefined) built.turns = turns;
        if (typeof run === "number") built.run = run;
        if (group !== undefined) built.group = group;
        if (error !== undefined) built.error = error;
        if (simulatorFault !== undefined) built.simulatorFault = simulatorFault;
        if (notes !== undefined) built.notes = notes;
        built.durationMs = elapsedMs(begin);
        return built;
      };
      const failed = (error: CaseError): CaseResult => result("error", [], error);
      const unscorable = unscorableError(item, where);
      if (unscorable !== undefined || ToolscoreError.isInstance(item)) {
        return failed(unscorable as CaseError);
      }
      const fault = (item as TestCase).simulatorFault;
      if (typeof fault === "string") {
        return result("not-evaluable", notTheAgents(metrics, fault), undefined, undefined, true);
      }
      const overrides = caseOverrides(item, metrics, note);
      if (!Array.isArray(overrides)) return failed(overrides);
      if (hasTurns(item)) {
        const cases = turnCasesOf(item);
        const perTurn: (JsonObject | undefined)[][] = [];
        for (const [turn, turnCase] of cases.entries()) {
          const own = caseOverrides(turnCase, metrics, note, `turns[${turn}].metricOptions`);
          if (!Array.isArray(own)) return failed(own);
          perTurn.push(own);
        }
        const aggregate = (item as TestCase).turnAggregate ?? input.turnAggregate ?? "mean";
        const results = metrics.map((metric, at) =>
          metric.scoresWholeRun === true
            ? scoreWholeRun({
                chosen: choose(metric, at, overrides[at]),
                name: metric.name,
                item,
                turns: cases.length,
                measureOptions,
                signal,
              })
            : scoreConversation({
                name: metric.name,
                metric,
                cases,
                chosen: perTurn.map((own) => choose(metric, at, own[at])),
                aggregate,
                measureOptions,
                ...(signal === undefined ? {} : { signal }),
              }),
        );
        const finish = (all: ScoredConversation[]): CaseResult => {
          const combined = all.map((entry) => entry.result);
          const turns = cases.map((_, turn) => caseStatusOf(all.map((entry) => entry.turns[turn])));
          return result(caseStatusOf(combined), combined, undefined, turns);
        };
        return results.some((entry) => entry instanceof Promise)
          ? Promise.all(results.map((entry) => Promise.resolve(entry))).then(finish)
          : finish(results as ScoredConversation[]);
      }
      const results = measureChosen({
        // Most cases bring no options of their own: the run's metrics as they are.
        chosen:
          overrides.length === 0
            ? metrics
            : metrics.map((metric, at) => choose(metric, at, overrides[at])),
        caseAt: () => item,
        name: nameAt,
        now: measureNow,
        measureOptions,
        ...(signal === undefined ? {} : { signal }),
      });
      const done = (results: MetricResult[]): CaseResult => result(caseStatusOf(results), results);
      return results instanceof Promise ? results.then(done) : done(results);
    },
  };
}
