import { InvalidOptionError } from "./errors.js";

/**
 * What makes cases runs of one case: their `id`, or a metadata field (`metadata.task_id`, dotted
 * for nested objects).
 */
export type GroupBy = "id" | `metadata.${string}`;

/** Reads a `groupBy` option: `id` or `metadata.<key>`; an `InvalidOptionError` otherwise. */
export function readGroupBy(value: unknown, option = "groupBy"): GroupBy {
  if (value === "id") return value;
  if (typeof value === "string" && /^metadata\.[^.]+(\.[^.]+)*$/.test(value)) {
    return value as GroupBy;
  }
  throw new InvalidOptionError({
    option,
    value,
    message: `${option} takes id or metadata.<key> (e.g. metadata.task_id), got ${JSON.stringify(value)}`,
  });
}

/**
 * The group a case is a run of: with `groupBy`, its id or the metadata field's value (text, a
 * number or a boolean; anything else leaves the case ungrouped); without, its id when the case
 * carries a `run` number, else none.
 */
export function groupKeyOf(
  item: { readonly run?: unknown; readonly metadata?: unknown },
  id: string,
  groupBy: GroupBy | undefined,
): string | undefined {
  if (groupBy === undefined) return typeof item.run === "number" ? id : undefined;
  if (groupBy === "id") return id;
  let value: unknown = item.metadata;
  for (const key of groupBy.split(".").slice(1)) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  const key =
    typeof value === "string" || typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : "";
  return key === "" ? undefined : key;
}

/**
 * C(a, k) / C(n, k): the chance that k runs drawn without replacement from n all come from a
 * given a. A product of ratios, so no factorial overflows.
 */
function chooseRatio(a: number, n: number, k: number): number {
  if (a < k) return 0;
  let ratio = 1;
  for (let i = 0; i < k; i++) ratio *= (a - i) / (n - i);
  return ratio;
}

/**
 * The unbiased estimate, from n runs of which c passed, of the chance that at least one of k runs
 * passes (pass@k, as in Chen et al. 2021).
 */
export function passAtK(n: number, c: number, k: number): number {
  return 1 - chooseRatio(n - c, n, k);
}

/**
 * The unbiased estimate, from n runs of which c passed, of the chance that all k runs pass (pass^k,
 * as tau-bench reports it).
 */
export function passHatK(n: number, c: number, k: number): number {
  return chooseRatio(c, n, k);
}

/** One case run several times: its group key, its runs and how many passed. */
export interface RepeatedCase {
  readonly key: string;
  readonly runs: number;
  readonly passed: number;
}

/** pass@k and pass^k at one k, over the cases with at least k runs. */
export interface RepeatsAtK {
  readonly k: number;
  readonly cases: number;
  readonly passAtK: number;
  readonly passHatK: number;
}

/**
 * What repeated runs of the same cases came to. Per case, with k its number of runs: pass@k when
 * some run passed, pass^k when every run did, flaky when some but not all did. An errored run is
 * a run that did not pass.
 */
export interface RepeatSummary {
  /** What grouped the runs, when the run said (`id`, `metadata.task_id`). */
  readonly by?: GroupBy;
  /** Distinct cases, and the runs of them. */
  readonly cases: number;
  readonly runs: number;
  /** Runs of cases that had no group key (no `run` number, or no such metadata field). */
  readonly ungrouped: number;
  /** Shares of cases: some run passed (pass@k); every run passed (pass^k). */
  readonly passAtK: number;
  readonly passHatK: number;
  /** Cases where some but not every run passed. */
  readonly flaky: number;
  /** The estimates at k = 1, 2, ... up to the most runs a case has. */
  readonly byK: readonly RepeatsAtK[];
  /** The flaky cases, the first `maxListedRepeats` in order of first run. */
  readonly flakyCases: readonly RepeatedCase[];
  /** Every case, the first `maxListedRepeats` in order of first run. */
  readonly listed: readonly RepeatedCase[];
}

/** Cases a repeat summary lists at most (its figures count them all). */
export const maxListedRepeats = 1000;

/** Adds up runs into a {@link RepeatSummary}, in memory per distinct case. */
export interface RepeatTally {
  add(key: string | undefined, passed: boolean): void;
  /** Undefined when no case had a group key. */
  summary(by?: GroupBy): RepeatSummary | undefined;
}

export function createRepeatTally(): RepeatTally {
  const groups = new Map<string, { runs: number; passed: number }>();
  let ungrouped = 0;
  return {
    add(key, passed) {
      if (key === undefined) {
        ungrouped++;
        return;
      }
      let group = groups.get(key);
      if (group === undefined) {
        group = { runs: 0, passed: 0 };
        groups.set(key, group);
      }
      group.runs++;
      if (passed) group.passed++;
    },
    summary(by) {
      if (groups.size === 0) return undefined;
      let runs = 0;
      let some = 0;
      let every = 0;
      let most = 0;
      const flakyCases: RepeatedCase[] = [];
      const listed: RepeatedCase[] = [];
      let flaky = 0;
      for (const [key, group] of groups) {
        runs += group.runs;
        if (group.runs > most) most = group.runs;
        if (group.passed > 0) some++;
        if (group.passed === group.runs) every++;
        const item = { key, runs: group.runs, passed: group.passed };
        if (group.passed > 0 && group.passed < group.runs) {
          flaky++;
          if (flakyCases.length < maxListedRepeats) flakyCases.push(item);
        }
        if (listed.length < maxListedRepeats) listed.push(item);
      }
      const byK: RepeatsAtK[] = [];
      for (let k = 1; k <= most; k++) {
        let cases = 0;
        let at = 0;
        let hat = 0;
        for (const group of groups.values()) {
          if (group.runs < k) continue;
          cases++;
          at += passAtK(group.runs, group.passed, k);
          hat += passHatK(group.runs, group.passed, k);
        }
        byK.push({ k, cases, passAtK: at / cases, passHatK: hat / cases });
      }
      return {
        ...(by === undefined ? {} : { by }),
        cases: groups.size,
        runs,
        ungrouped,
        passAtK: some / groups.size,
        passHatK: every / groups.size,
        flaky,
        byK,
        flakyCases,
        listed,
      };
    },
  };
}
