import type { CaseRecord } from "./case-record.js";
import type { CaseStatus } from "./case-result.js";
import type { EvaluationSummary } from "./summary.js";

/** One case of a run as a comparison sees it: its status and each metric's score. */
export interface ComparedCase {
  readonly id: string;
  /** Which run of the case, when the case said: a case's runs are compared together. */
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
 * What changed from a baseline run to a new one, case by case (matched by id; the nth case of a
 * repeated id without run numbers with the baseline's nth; a case's runs, when they have run
 * numbers, together against the baseline's spread): the cases that newly fail, newly error, newly
 * pass, whose scores dropped or rose beyond the tolerance, and the cases only one run has.
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

/**
 * The key a case is matched by: a repeated run's id (its runs are compared together), else its id
 * and which occurrence of that id it is.
 */
function keyer(): (item: Pick<ComparedCase, "id" | "run">) => string {
  const seen = new Map<string, number>();
  return ({ id, run }) => {
    if (run !== undefined) return id;
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    return count === 1 ? id : `${id} [${count}]`;
  };
}

/** The worst status among a case's runs: one run that failed makes the case's runs fail. */
function worst(items: readonly ComparedCase[]): CaseStatus {
  return items.reduce<CaseStatus>(
    (status, item) => (rank[item.status] > rank[status] ? item.status : status),
    "passed",
  );
}

/** What kind of change a case is, when it is one. */
type ChangeKind = "newlyFailed" | "newlyErrored" | "newlyPassed" | "scoreDropped" | "scoreRose";

/** One run of a case against one run of it: status, then each score beyond the tolerance. */
function compareOne(
  key: string,
  earlier: ComparedCase,
  item: ComparedCase,
  tolerance: number,
): { kind: ChangeKind; change: CaseChange } | undefined {
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
    return { kind: item.status === "error" ? "newlyErrored" : "newlyFailed", change };
  }
  if (rank[item.status] < rank[earlier.status] && item.status === "passed") {
    return { kind: "newlyPassed", change };
  }
  if (moved.some((score) => score.after < score.before)) return { kind: "scoreDropped", change };
  if (moved.length > 0) return { kind: "scoreRose", change };
  return undefined;
}

/**
 * A case's repeated runs against the baseline's: a regression only beyond the baseline's own
 * spread. Every run passed before and some fail now (or error, where none did), or a score's mean
 * over the new runs fell below the lowest of the baseline's runs (by more than the tolerance); the
 * reverse for what improved. A change within the spread is the noise the case already had.
 */
function compareRuns(
  key: string,
  before: readonly ComparedCase[],
  after: readonly ComparedCase[],
  tolerance: number,
): { kind: ChangeKind; change: CaseChange } | undefined {
  const moved = [...new Set(after.flatMap((item) => Object.keys(item.scores)))].flatMap(
    (metric) => {
      const was = before.flatMap((item) =>
        Object.hasOwn(item.scores, metric) ? [item.scores[metric]] : [],
      );
      const now = after.flatMap((item) =>
        Object.hasOwn(item.scores, metric) ? [item.scores[metric]] : [],
      );
      if (was.length === 0 || now.length === 0) return [];
      const mean = now.reduce((sum, score) => sum + score, 0) / now.length;
      const low = Math.min(...was);
      const high = Math.max(...was);
      if (mean < low - tolerance) return [{ metric, before: low, after: mean }];
      if (mean > high + tolerance) return [{ metric, before: high, after: mean }];
      return [];
    },
  );
  const was = worst(before);
  const now = worst(after);
  const change: CaseChange = { id: key, before: was, after: now, scores: moved };
  const allPassed = (items: readonly ComparedCase[]) =>
    items.every((item) => item.status === "passed");
  if (allPassed(before) && !allPassed(after)) {
    return { kind: now === "error" ? "newlyErrored" : "newlyFailed", change };
  }
  if (was !== "error" && now === "error") return { kind: "newlyErrored", change };
  if (!before.some((item) => item.status === "passed") && allPassed(after)) {
    return { kind: "newlyPassed", change };
  }
  if (moved.some((score) => score.after < score.before)) return { kind: "scoreDropped", change };
  if (moved.length > 0) return { kind: "scoreRose", change };
  return undefined;
}

/**
 * A comparison with a baseline that takes the new run's cases one at a time: only the baseline
 * is held in memory (by id), and the new run's repeated runs until the end, so a run of any size
 * streams past it. `tolerance` is how far a score may move without counting (default 0). Cases
 * with run numbers are compared as their runs together, against the baseline's spread.
 */
export function createComparer(input: {
  readonly baseline: Iterable<ComparedCase>;
  readonly tolerance?: number;
}) {
  const tolerance = input.tolerance ?? 0;
  const before = new Map<string, ComparedCase[]>();
  const baselineKey = keyer();
  for (const item of input.baseline) {
    const key = baselineKey(item);
    const runs = before.get(key);
    if (runs === undefined) before.set(key, [item]);
    else runs.push(item);
  }
  const changes: Record<ChangeKind, CaseChange[]> = {
    newlyFailed: [],
    newlyErrored: [],
    newlyPassed: [],
    scoreDropped: [],
    scoreRose: [],
  };
  const repeated = new Map<string, ComparedCase[]>();
  const onlyInCurrent: string[] = [];
  const currentKey = keyer();
  const note = (found: { kind: ChangeKind; change: CaseChange } | undefined) => {
    if (found !== undefined) changes[found.kind].push(found.change);
  };
  return {
    /** Takes the new run's next case (in case order). */
    add(item: ComparedCase): void {
      const key = currentKey(item);
      const earlier = before.get(key);
      if (earlier === undefined) {
        if (!onlyInCurrent.includes(key)) onlyInCurrent.push(key);
        return;
      }
      if (item.run === undefined && earlier.length === 1 && earlier[0].run === undefined) {
        before.delete(key);
        note(compareOne(key, earlier[0], item, tolerance));
        return;
      }
      const runs = repeated.get(key);
      if (runs === undefined) repeated.set(key, [item]);
      else runs.push(item);
    },
    /** What changed, once every case was added. */
    result(): CaseComparison {
      for (const [key, runs] of repeated) {
        const earlier = before.get(key);
        if (earlier === undefined) continue;
        before.delete(key);
        note(compareRuns(key, earlier, runs, tolerance));
      }
      repeated.clear();
      return {
        tolerance,
        ...changes,
        onlyInBaseline: [...before.keys()],
        onlyInCurrent,
        regressions:
          changes.newlyFailed.length + changes.newlyErrored.length + changes.scoreDropped.length,
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
