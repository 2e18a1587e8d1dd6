import type { JudgeRunSummary } from "./judge.js";
import type { CaseResult } from "./case-result.js";
import { caseStatuses } from "./case-result.js";
import { createRepeatTally } from "./repeats.js";
import type { GroupBy, RepeatSummary } from "./repeats.js";

/** Scores of one metric over a run. Rates and means are over scored cases; null when none were. */
export interface MetricSummary {
  readonly name: string;
  /** Cases the metric ran on (every case that could be read). */
  readonly cases: number;
  readonly scored: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  readonly skipped: number;
  /** Cases its judge could not tell (not passed, not failed: see `NotEvaluableResult`). */
  readonly notEvaluable: number;
  readonly mean: number | null;
  readonly min: number | null;
  readonly max: number | null;
  /** passed / scored. */
  readonly passRate: number | null;
  /**
   * Counts of scores in ten bins: [0, 0.1), [0.1, 0.2), ..., [0.9, 1]; a score of 1 counts in the
   * last bin.
   */
  readonly histogram: readonly number[];
  /** Ids of the first failing cases (at most `maxListedFailures`), in the order they finished. */
  readonly failedIds: readonly string[];
}

/** How a turn went across a run's conversations (1-based `turn`). */
export interface TurnSummary {
  readonly turn: number;
  /** Conversations with this turn. */
  readonly cases: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  readonly notEvaluable: number;
  /**
   * When runs are grouped (repeated runs of a conversation): the conversations with this turn,
   * those whose every run passed it, and those where it passed in some runs and failed in others.
   */
  readonly groups?: {
    readonly groups: number;
    readonly alwaysPassed: number;
    readonly flaky: number;
  };
}

/** What a run came to. A case passes when no metric failed it or could not score it. */
export interface EvaluationSummary {
  readonly cases: number;
  readonly passed: number;
  /** Cases that some metric scored below its threshold (and none errored on). */
  readonly failed: number;
  /** Cases that could not be read, or that some metric could not score. */
  readonly errors: number;
  /** Cases a judge could not tell, that no metric failed or errored on. */
  readonly notEvaluable: number;
  /**
   * Of the cases not evaluable, those whose run its simulated user spoiled (a made-up fact, a
   * conversation never ended): the simulator's faults, not the agent's. Absent when none were.
   */
  readonly simulatorFaults?: number;
  /**
   * Cases with no metric result at all: they could not be read, or the application run for them
   * threw. Every metric of the run counts them as errors in reports.
   */
  readonly unscored: number;
  /** passed / cases; null for an empty run. */
  readonly passRate: number | null;
  readonly metrics: readonly MetricSummary[];
  /** Judge calls, cache hits, tokens and cost, when the run had a judge session. */
  readonly judge?: JudgeRunSummary;
  /** pass@k, pass^k and flaky cases, when cases were run more than once (`run`, `groupBy`). */
  readonly repeats?: RepeatSummary;
  /**
   * Conversations (cases with turns), turn by turn: how many reached each turn, and how it went
   * there; absent when the run had none.
   */
  readonly turns?: readonly TurnSummary[];
  readonly durationMs: number;
  /** True when the run was stopped by its signal before every case finished. */
  readonly aborted: boolean;
}

export const maxListedFailures = 20;
const bins = 10;

interface Accumulator {
  name: string;
  cases: number;
  scored: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  notEvaluable: number;
  sum: number;
  min: number;
  max: number;
  histogram: number[];
  failedIds: string[];
}

/**
 * How a metric ended on a case, as a number in the flat figures worker threads send
 * (`SummaryBuilder.addFlat`); `notRun` is a case that could not be read.
 */
export const FlatOutcome = {
  scored: 0,
  error: 1,
  skipped: 2,
  notRun: 3,
  "not-evaluable": 4,
} as const;

/**
 * Adds up case results into an {@link EvaluationSummary} in constant memory, whatever the number
 * of cases; the runner uses one, and so does re-rendering a report from a results file.
 */
export interface SummaryBuilder {
  add(
    result: Pick<CaseResult, "id" | "status" | "results" | "group" | "turns" | "simulatorFault">,
  ): void;
  /**
   * Adds a case from flat figures, as worker threads send them: for metric `m` of the builder's
   * metric names, `kinds[at + m]` is a {@link FlatOutcome}, with the score and success (1 or 0)
   * at the same place.
   */
  addFlat(input: {
    id: string;
    /** The case's group, when runs are grouped (see `CaseResult.group`). */
    group?: string | undefined;
    status: CaseResult["status"];
    /** A conversation's turns' statuses, as codes (see `turnCodes`). */
    turns?: string | undefined;
    /** Whether its simulated user spoiled the run (see `CaseResult.simulatorFault`). */
    simulatorFault?: boolean | undefined;
    kinds: ArrayLike<number>;
    scores: ArrayLike<number>;
    successes: ArrayLike<number>;
    at: number;
  }): void;
  summary(extra: {
    durationMs: number;
    aborted?: boolean;
    judge?: JudgeRunSummary;
  }): EvaluationSummary;
}

function newAccumulator(name: string): Accumulator {
  return {
    name,
    cases: 0,
    scored: 0,
    passed: 0,
    failed: 0,
    errors: 0,
    skipped: 0,
    notEvaluable: 0,
    sum: 0,
    min: Infinity,
    max: -Infinity,
    histogram: new Array<number>(bins).fill(0),
    failedIds: [],
  };
}

function addScore(accumulator: Accumulator, id: string, score: number, success: boolean): void {
  accumulator.scored++;
  accumulator.sum += score;
  if (score < accumulator.min) accumulator.min = score;
  if (score > accumulator.max) accumulator.max = score;
  const bin = Math.min(bins - 1, Math.max(0, Math.floor(score * bins)));
  accumulator.histogram[bin]++;
  if (success) accumulator.passed++;
  else {
    accumulator.failed++;
    if (accumulator.failedIds.length < maxListedFailures) accumulator.failedIds.push(id);
  }
}

/** Each turn's figures over the conversations, with its groups of runs when runs are grouped. */
function createTurnTally() {
  const tallies: {
    -readonly [K in "cases" | "passed" | "failed" | "errors" | "notEvaluable"]: number;
  }[] = [];
  // Per group of runs and turn: whether the turn passed in some run, and failed in some run.
  const turnRuns = new Map<string, { passed: boolean; failed: boolean }[]>();
  return {
    empty: () => tallies.length === 0,
    count(turns: readonly CaseResult["status"][] | undefined, group: string | undefined): void {
      if (turns === undefined) return;
      const runs = group === undefined ? undefined : (turnRuns.get(group) ?? []);
      if (group !== undefined && runs !== undefined) turnRuns.set(group, runs);
      turns.forEach((status, at) => {
        const tally = (tallies[at] ??= {
          cases: 0,
          passed: 0,
          failed: 0,
          errors: 0,
          notEvaluable: 0,
        });
        tally.cases++;
        if (status === "passed") tally.passed++;
        else if (status === "failed") tally.failed++;
        else if (status === "not-evaluable") tally.notEvaluable++;
        else tally.errors++;
        if (runs !== undefined) {
          const seen = (runs[at] ??= { passed: false, failed: false });
          if (status === "passed") seen.passed = true;
          else seen.failed = true;
        }
      });
    },
    summaries: (): TurnSummary[] =>
      tallies.map((tally, at): TurnSummary => {
        if (turnRuns.size === 0) return { turn: at + 1, ...tally };
        let groups = 0;
        let alwaysPassed = 0;
        let flaky = 0;
        for (const runs of turnRuns.values()) {
          const seen = runs.at(at);
          if (seen === undefined) continue;
          groups++;
          if (seen.passed && !seen.failed) alwaysPassed++;
          if (seen.passed && seen.failed) flaky++;
        }
        return { turn: at + 1, ...tally, groups: { groups, alwaysPassed, flaky } };
      }),
  };
}

export function createSummaryBuilder(
  metricNames: readonly string[],
  options: { readonly groupBy?: GroupBy } = {},
): SummaryBuilder {
  const repeats = createRepeatTally();
  const byName = new Map<string, Accumulator>();
  const accumulatorOf = (name: string): Accumulator => {
    let accumulator = byName.get(name);
    if (accumulator === undefined) {
      accumulator = newAccumulator(name);
      byName.set(name, accumulator);
    }
    return accumulator;
  };
  for (const name of metricNames) accumulatorOf(name);
  let cases = 0;
  let passed = 0;
  let failed = 0;
  let errors = 0;
  let notEvaluable = 0;
  let unscored = 0;
  let simulatorFaults = 0;
  const turnTally = createTurnTally();
  const countCase = (status: CaseResult["status"], group: string | undefined) => {
    repeats.add(group, status === "passed");
    cases++;
    if (status === "passed") passed++;
    else if (status === "failed") failed++;
    else if (status === "not-evaluable") notEvaluable++;
    else errors++;
  };
  const ordered = metricNames.map((name) => accumulatorOf(name));

  return {
    add(result) {
      countCase(result.status, result.group);
      if (result.simulatorFault === true) simulatorFaults++;
      turnTally.count(result.turns, result.group);
      if (result.results.length === 0) unscored++;
      for (const metric of result.results) {
        const accumulator = accumulatorOf(metric.metric);
        accumulator.cases++;
        if (metric.status === "error") accumulator.errors++;
        else if (metric.status === "skipped") accumulator.skipped++;
        else if (metric.status === "not-evaluable") accumulator.notEvaluable++;
        else addScore(accumulator, result.id, metric.score, metric.success);
      }
    },
    addFlat({ id, group, status, turns, simulatorFault, kinds, scores, successes, at }) {
      countCase(status, group);
      if (simulatorFault === true) simulatorFaults++;
      if (turns !== undefined && turns !== "") turnTally.count(turnStatusesOf(turns), group);
      let ran = 0;
      for (let m = 0; m < ordered.length; m++) {
        const accumulator = ordered[m];
        const kind = kinds[at + m];
        if (kind === FlatOutcome.notRun) continue;
        ran++;
        accumulator.cases++;
        if (kind === FlatOutcome.error) accumulator.errors++;
        else if (kind === FlatOutcome.skipped) accumulator.skipped++;
        else if (kind === FlatOutcome["not-evaluable"]) accumulator.notEvaluable++;
        else addScore(accumulator, id, scores[at + m], successes[at + m] === 1);
      }
      if (ran === 0 && ordered.length > 0) unscored++;
    },
    summary(extra) {
      const metrics = [...byName.values()].map((a): MetricSummary => ({
        name: a.name,
        cases: a.cases,
        scored: a.scored,
        passed: a.passed,
        failed: a.failed,
        errors: a.errors,
        skipped: a.skipped,
        notEvaluable: a.notEvaluable,
        mean: a.scored === 0 ? null : a.sum / a.scored,
        min: a.scored === 0 ? null : a.min,
        max: a.scored === 0 ? null : a.max,
        passRate: a.scored === 0 ? null : a.passed / a.scored,
        histogram: [...a.histogram],
        failedIds: [...a.failedIds],
      }));
      const repeated = repeats.summary(options.groupBy);
      return {
        cases,
        passed,
        failed,
        errors,
        notEvaluable,
        ...(simulatorFaults === 0 ? {} : { simulatorFaults }),
        unscored,
        passRate: cases === 0 ? null : passed / cases,
        metrics,
        ...(extra.judge === undefined ? {} : { judge: extra.judge }),
        ...(repeated === undefined ? {} : { repeats: repeated }),
        ...(turnTally.empty() ? {} : { turns: turnTally.summaries() }),
        durationMs: extra.durationMs,
        aborted: extra.aborted ?? false,
      };
    },
  };
}

/** A conversation's turns' statuses as one string of codes (their places in `caseStatuses`). */
export function turnCodes(turns: readonly CaseResult["status"][]): string {
  return turns.map((status) => caseStatuses.indexOf(status)).join("");
}

/** The statuses `turnCodes` wrote. */
function turnStatusesOf(codes: string): CaseResult["status"][] {
  return Array.from(
    { length: codes.length },
    (_, at) => caseStatuses[Number(codes[at])] ?? "error",
  );
}
