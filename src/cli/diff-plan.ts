import type { Divergences, TrajectoryComparison } from "../core/trajectory-diff.js";
import { resolveDiffOptions } from "../diff/diff-rules.js";
import type { DiffOptions } from "../diff/diff-rules.js";
import { usageError } from "./io.js";
import type { DiffSettings } from "./run-settings.js";

/** How a run's calls are compared with a baseline's, and whether what parts fails the run. */
export interface DiffPlan {
  readonly diff: DiffOptions;
  readonly flakyRate: number;
  readonly divergences: Divergences;
}

/** The diff settings of `eval --baseline` and `compare`, checked before any file is read. */
export function diffPlanOf(settings: DiffSettings): DiffPlan {
  const flakyRate = settings.flakyRate ?? 0;
  if (flakyRate >= 1) {
    throw usageError(
      "--flaky-rate must be below 1: at 1 every difference would be noise",
      "--flaky-rate",
    );
  }
  const diff: DiffOptions = {
    ignore: settings.ignorePaths,
    answers: settings.compareAnswers,
    outputs: !settings.ignoreOutputs,
  };
  resolveDiffOptions(diff);
  return { diff, flakyRate, divergences: settings.divergences ?? "fail" };
}

/**
 * The places where the calls regressed, as the gate counts them: regressions, cases that could not
 * be compared and runs that could not be read; none when divergences are only reported.
 */
export function callRegressions(comparison: TrajectoryComparison, plan: DiffPlan): number {
  if (plan.divergences === "report") return 0;
  return comparison.regressions + comparison.errors + comparison.unreadable;
}
