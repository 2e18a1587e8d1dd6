/**
 * Noise measured, not guessed: the new runs of a case are compared with the baseline's most
 * typical run, and each place they part from it is weighed against how often the baseline's own
 * runs part from it there. A place the baseline's runs do not part at (or not more often than the
 * run's rate allows) is a regression; one they do is the noise the baseline already had.
 */
import { InvalidOptionError, LimitExceededError } from "../core/errors.js";
import type {
  CaseDivergence,
  Difference,
  DivergenceAt,
  TrajectoryComparison,
} from "../core/trajectory-diff.js";
import type { DiffRules } from "./diff-rules.js";
import type { DiffRun } from "./diff-run.js";
import { diffTrajectories } from "./diff-trajectories.js";

/** Beyond this many baseline runs, the first is the reference rather than the most typical one. */
const maxMedoidRuns = 32;

/** The rate of the baseline's runs that may differ at a place before it counts as noise. */
export function resolveFlakyRate(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value >= 1) {
    throw new InvalidOptionError({
      option: "flakyRate",
      value,
      message: `flakyRate must be a number from 0 up to (not including) 1, got ${JSON.stringify(value)}`,
    });
  }
  return value;
}

export interface DivergeCaseOptions {
  readonly id: string;
  /** The baseline's runs of the case, at least one. */
  readonly baseline: readonly DiffRun[];
  /** The new runs of the case, at least one. */
  readonly candidate: readonly DiffRun[];
  readonly rules: DiffRules;
  /** From `resolveFlakyRate`. */
  readonly flakyRate: number;
}

function places(differences: readonly Difference[]): Set<string> {
  return new Set(differences.map((difference) => difference.place));
}

/** The baseline run that differs least from the others (the first on ties). */
function referenceOf(runs: readonly DiffRun[], rules: DiffRules): number {
  if (runs.length <= 2 || runs.length > maxMedoidRuns) return 0;
  let best = 0;
  let fewest = Number.POSITIVE_INFINITY;
  for (const [at, run] of runs.entries()) {
    let count = 0;
    for (const [other, compared] of runs.entries()) {
      if (other !== at) {
        count += diffTrajectories({ baseline: run, candidate: compared, rules }).differences.length;
      }
    }
    if (count < fewest) {
      fewest = count;
      best = at;
    }
  }
  return best;
}

/** How the new runs of one case part from the baseline's (see the file's head). */
export function divergeCase(options: DivergeCaseOptions): CaseDivergence {
  const { id, baseline, candidate, rules, flakyRate } = options;
  const counts = { baselineRuns: baseline.length, runs: candidate.length };
  try {
    const reference = referenceOf(baseline, rules);
    const flaps = new Map<string, number>();
    for (const [at, run] of baseline.entries()) {
      if (at === reference) continue;
      const diff = diffTrajectories({ baseline: baseline[reference], candidate: run, rules });
      for (const place of places(diff.differences)) flaps.set(place, (flaps.get(place) ?? 0) + 1);
    }
    const seen = new Map<string, { difference: Difference; runs: number }>();
    let parting: DiffRun | undefined;
    for (const run of candidate) {
      const diff = diffTrajectories({ baseline: baseline[reference], candidate: run, rules });
      if (parting === undefined && diff.differences.length > 0) parting = run;
      const counted = new Set<string>();
      for (const difference of diff.differences) {
        const entry = seen.get(difference.place);
        if (entry === undefined) seen.set(difference.place, { difference, runs: 1 });
        else if (!counted.has(difference.place)) entry.runs++;
        counted.add(difference.place);
      }
    }
    const divergences: DivergenceAt[] = [...seen.entries()].map(([place, { difference, runs }]) => {
      const baselineRuns = flaps.get(place) ?? 0;
      return {
        difference,
        runs,
        baselineRuns,
        verdict: baselineRuns / baseline.length > flakyRate ? "flaky" : "regression",
      };
    });
    const regressions = divergences.filter((at) => at.verdict === "regression").length;
    const rows =
      parting === undefined
        ? undefined
        : diffTrajectories({
            baseline: baseline[reference],
            candidate: parting,
            rules,
            align: true,
          }).rows;
    return {
      id,
      ...counts,
      places: divergences,
      ...(rows === undefined ? {} : { rows }),
      regressions,
      flaky: divergences.length - regressions,
    };
  } catch (error) {
    if (!LimitExceededError.isInstance(error)) throw error;
    return { id, ...counts, places: [], regressions: 0, flaky: 0, error: error.message };
  }
}

export interface DivergeRunsOptions {
  /** The baseline's runs by case id, in its order. */
  readonly baseline: ReadonlyMap<string, readonly DiffRun[]>;
  /** The new runs by case id, in its order. */
  readonly candidate: ReadonlyMap<string, readonly DiffRun[]>;
  readonly rules: DiffRules;
  readonly flakyRate: number;
}

/** Every case both sides have, compared (see {@link divergeCase}). */
export function divergeRuns(options: DivergeRunsOptions): TrajectoryComparison {
  const { baseline, candidate, rules, flakyRate } = options;
  const diverged: CaseDivergence[] = [];
  let compared = 0;
  let regressions = 0;
  let flaky = 0;
  let errors = 0;
  const onlyInCurrent: string[] = [];
  for (const [id, runs] of candidate) {
    const before = baseline.get(id);
    if (before === undefined) {
      onlyInCurrent.push(id);
      continue;
    }
    compared++;
    const result = divergeCase({ id, baseline: before, candidate: runs, rules, flakyRate });
    regressions += result.regressions;
    flaky += result.flaky;
    if (result.error !== undefined) errors++;
    if (result.places.length > 0 || result.error !== undefined) diverged.push(result);
  }
  return {
    flakyRate,
    compared,
    diverged,
    regressions,
    flaky,
    errors,
    unreadable: 0,
    withoutCalls: 0,
    onlyInBaseline: [...baseline.keys()].filter((id) => !candidate.has(id)),
    onlyInCurrent,
  };
}
