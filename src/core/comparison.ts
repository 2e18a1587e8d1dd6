import type { CaseRecord } from "./case-record.js";
import type { CaseStatus } from "./case-result.js";
import type { EvaluationSummary } from "./summary.js";

/** One case of a run as a comparison sees it: its status and each metric's score. */
export interface ComparedCase {
  readonly id: string;
  /** Which run of the case, when the case said: runs are matched by id and run. */
  readonly run?: number;
  readonly status: CaseStatus;
  /** Scores by metric name; a metric that errored or was skipped has none. */
  readonly scores: Readonly<Record<string, number>>;
  /** A conversation's status turn by turn (see `CaseResult.turns`). */
  readonly turns?: readonly CaseStatus[];
}

/** A case that changed between the runs. */
export interface CaseChange {
  readonly id: string;
  readonly before: CaseStatus;
  readonly after: CaseStatus;
  /** The metrics whose score moved beyond the tolerance, with both scores. */
  readonly scores: readonly {
    readonly metric: string;
    readonly before: number;
    readonly after: number;
  }[];
  /** A conversation's turns whose status changed (1-based), when the case has turns. */
  readonly turns?: readonly {
    readonly turn: number;
    readonly before: CaseStatus | undefined;
    readonly after: CaseStatus | undefined;
  }[];
}

/** One metric's figures in both runs. */
export interface MetricChange {
  readonly name: string;
  readonly meanBefore: number | null;
  readonly meanAfter: number | null;
  readonly passRateBefore: number | null;
  readonly passRateAfter: number | null;
}

/**
 * What changed from a baseline run to a new one, case by case (matched by id, and run when the
 * cases have run numbers; else the nth case of a repeated id with the baseline's nth): the cases that newly fail, newly error, newly pass, whose
 * scores dropped or rose beyond the tolerance, and the cases only one run has.
 */
export interface CaseComparison {
  readonly tolerance: number;
  /** Passed before, failed now. */
  readonly newlyFailed: readonly CaseChange[];
  /** Passed or failed before, an error now. */
  readonly newlyErrored: readonly CaseChange[];
  /** Failed or errored before, passed now. */
  readonly newlyPassed: readonly CaseChange[];
  /** Same status, but some metric's score fell by more than the tolerance. */
  readonly scoreDropped: readonly CaseChange[];
  /** Same status, and no score fell, but some rose by more than the tolerance. */
  readonly scoreRose: readonly CaseChange[];
  readonly onlyInBaseline: readonly string[];
  readonly onlyInCurrent: readonly string[];
  /** Cases that got worse: newly failed, newly errored, or a score dropped. */
  readonly regressions: number;
}

/** A comparison of two runs: per metric, and case by case. */
export interface RunComparison extends CaseComparison {
  readonly metrics: readonly MetricChange[];
  /**
   * The datasets the two runs scored, when they were not the same file content (their
   * fingerprints differ): cases are still matched by id, but a case may have changed too.
   */
  readonly datasets?: {
    readonly baseline: { readonly dataset: string; readonly fingerprint: string | undefined };
    readonly current: { readonly dataset: string; readonly fingerprint: string | undefined };
  };
}

/** A results-file record as a comparison reads it. */
export function comparedCase(
  record: Pick<CaseRecord, "id" | "status" | "metrics" | "run" | "turns">,
): ComparedCase {
  const scores: Record<string, number> = {};
  for (const [name, entry] of Object.entries(record.metrics)) {
    if (entry.status === "scored") scores[name] = entry.score;
  }
  return {
    id: record.id,
    status: record.status,
    scores,
    ...(record.run === undefined ? {} : { run: record.run }),
    ...(record.turns === undefined ? {} : { turns: record.turns }),
  };
}

/** The turns of a conversation whose status differs between two runs of it. */
function turnChanges(
  before: readonly CaseStatus[] | undefined,
  after: readonly CaseStatus[] | undefined,
): NonNullable<CaseChange["turns"]> {
  if (before === undefined && after === undefined) return [];
  const count = Math.max(before?.length ?? 0, after?.length ?? 0);
  return Array.from({ length: count }, (_, at) => ({
    turn: at + 1,
    before: before?.[at],
    after: after?.[at],
  })).filter((change) => change.before !== change.after);
}

const rank: Readonly<Record<CaseStatus, number>> = {
  passed: 0,
  "not-evaluable": 1,
  failed: 2,
  error: 3,
};

/** The key a case is matched by: its id, and its run or which occurrence of that id it is. */
function keyer(): (item: Pick<ComparedCase, "id" | "run">) => string {
  const seen = new Map<string, number>();
  return ({ id, run }) => {
    const own = run === undefined ? id : `${id} [run ${run}]`;
    const count = (seen.get(own) ?? 0) + 1;
    seen.set(own, count);
    return count === 1 ? own : `${own} [${count}]`;
  };
}

/**
 * A comparison with a baseline that takes the new run's cases one at a time: only the baseline
 * is held in memory (by id), so a run of any size streams past it. `tolerance` is how far a
 * score may move without counting (default 0).
 */
export function createComparer(input: {
  readonly baseline: Iterable<ComparedCase>;
  readonly tolerance?: number;
}) {
  const tolerance = input.tolerance ?? 0;
  const before = new Map<string, ComparedCase>();
  const baselineKey = keyer();
  for (const item of input.baseline) before.set(baselineKey(item), item);
  const newlyFailed: CaseChange[] = [];
  const newlyErrored: CaseChange[] = [];
  const newlyPassed: CaseChange[] = [];
  const scoreDropped: CaseChange[] = [];
  const scoreRose: CaseChange[] = [];
  const onlyInCurrent: string[] = [];
  const currentKey = keyer();
  return {
    /** Takes the new run's next case (in case order). */
    add(item: ComparedCase): void {
      const key = currentKey(item);
      const earlier = before.get(key);
      if (earlier === undefined) {
        onlyInCurrent.push(key);
        return;
      }
      before.delete(key);
      const moved = Object.entries(item.scores).flatMap(([metric, after]) => {
        if (!Object.hasOwn(earlier.scores, metric)) return [];
        const was = earlier.scores[metric];
        return Math.abs(after - was) > tolerance ? [{ metric, before: was, after }] : [];
      });
      const turns = turnChanges(earlier.turns, item.turns);
      const change: CaseChange = {
        id: key,
        before: earlier.status,
        after: item.status,
        scores: moved,
        ...(turns.length === 0 ? {} : { turns }),
      };
      if (rank[item.status] > rank[earlier.status]) {
        (item.status === "error" ? newlyErrored : newlyFailed).push(change);
      } else if (rank[item.status] < rank[earlier.status] && item.status === "passed") {
        newlyPassed.push(change);
      } else if (moved.some((score) => score.after < score.before)) {
        scoreDropped.push(change);
      } else if (moved.length > 0) {
        scoreRose.push(change);
      }
    },
    /** What changed, once every case was added. */
    result(): CaseComparison {
      return {
        tolerance,
        newlyFailed,
        newlyErrored,
        newlyPassed,
        scoreDropped,
        scoreRose,
        onlyInBaseline: [...before.keys()],
        onlyInCurrent,
        regressions: newlyFailed.length + newlyErrored.length + scoreDropped.length,
      };
    },
  };
}

/** Compares the cases of a new run with a baseline's (see {@link createComparer}). */
export function compareCases(input: {
  readonly baseline: Iterable<ComparedCase>;
  readonly current: Iterable<ComparedCase>;
  readonly tolerance?: number;
}): CaseComparison {
  const comparer = createComparer(input);
  for (const item of input.current) comparer.add(item);
  return comparer.result();
}

/** Each metric's mean and pass rate in both runs, the baseline's metrics first. */
export function metricChanges(
  baseline: EvaluationSummary,
  current: EvaluationSummary,
): MetricChange[] {
  const names = new Set([
    ...baseline.metrics.map((metric) => metric.name),
    ...current.metrics.map((metric) => metric.name),
  ]);
  return [...names].map((name) => {
    const was = baseline.metrics.find((metric) => metric.name === name);
    const now = current.metrics.find((metric) => metric.name === name);
    return {
      name,
      meanBefore: was?.mean ?? null,
      meanAfter: now?.mean ?? null,
      passRateBefore: was?.passRate ?? null,
      passRateAfter: now?.passRate ?? null,
    };
  });
}
