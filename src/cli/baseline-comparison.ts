/**
 * `eval --baseline`: the run's results compared with the baseline's, score by score and call by
 * call, shown on the console. Loaded by a run with a baseline only.
 */
import type { RunComparison } from "../core/comparison.js";
import type { TrajectoryComparison } from "../core/trajectory-diff.js";
import { formatComparison } from "../reporters/comparison.js";
import { formatDivergences } from "../reporters/divergence.js";
import { printable } from "../reporters/printable.js";
import { compareResults } from "../reports/results-reports.js";
import { compareTrajectories } from "../reports/trajectory-comparison.js";
import { callRegressions } from "./diff-plan.js";
import type { DiffPlan } from "./diff-plan.js";
import type { CliIo } from "./io.js";

/** The baseline as a run plans it. */
export interface BaselinePlan {
  readonly file: string;
  readonly name: string;
  readonly tolerance: number;
  /** How the calls are compared with the baseline's (the diff settings). */
  readonly calls: DiffPlan;
}

export interface BaselineComparison {
  readonly comparison: RunComparison;
  readonly calls: TrajectoryComparison;
  /** Cases worse than the baseline's: by score, and by calls where the diff settings say so. */
  readonly regressions: number;
}

/** Compares the results file `out` with the baseline's, and writes both comparisons on stdout. */
export async function compareWithBaseline(
  baseline: BaselinePlan,
  out: string,
  io: CliIo,
  color: boolean,
): Promise<BaselineComparison> {
  const comparison = await compareResults(baseline.file, out, { tolerance: baseline.tolerance });
  const calls = await compareTrajectories({
    baseline: baseline.file,
    current: out,
    diff: baseline.calls.diff,
    flakyRate: baseline.calls.flakyRate,
    cwd: io.cwd,
    onWarning: (message) => io.stderr.write(`toolscore: ${printable(message)}\n`),
  });
  io.stdout.write(`${formatComparison(comparison, { baseline: baseline.name, color })}\n`);
  io.stdout.write(`${formatDivergences(calls, { color })}\n`);
  return {
    comparison,
    calls,
    regressions: comparison.regressions + callRegressions(calls, baseline.calls),
  };
}
