/**
 * Two runs' trajectories compared case by case, read from their files: results files (the cases
 * read again from the dataset lines they point at) or recordings and datasets of recorded runs.
 * Repeated runs of a case (`run` 1..k, as `--repeat` records them) are read together, so that
 * each difference is weighed against the baseline's own noise.
 */
import { DatasetParseError } from "../core/errors.js";
import type { JsonObject } from "../core/json.js";
import type { TrajectoryComparison } from "../core/trajectory-diff.js";
import { resolveDiffOptions } from "../diff/diff-rules.js";
import type { DiffOptions } from "../diff/diff-rules.js";
import { diffRunOf, diffRunOfContent } from "../diff/diff-run.js";
import type { DiffRun } from "../diff/diff-run.js";
import { divergeRuns, resolveFlakyRate } from "../diff/diverge.js";
import { casesOfRecords } from "../evaluate-to-file/recompute.js";
import { readDataset } from "../node/dataset.js";
import { isResultsFile } from "../node/recordings.js";
import { readRecords, scanResults } from "../node/results-file.js";
import { datasetPath } from "./results-reports.js";

export interface CompareTrajectoriesOptions {
  /** The run trusted: a results file, or recordings (a dataset of recorded runs). */
  readonly baseline: string;
  /** The run to check, in either form. */
  readonly current: string;
  /**
   * How calls compare (see `DiffOptions`). Without `match`, the rules of the current run's
   * `tool-call-accuracy` metric, when it is a results file that used one.
   */
  readonly diff?: DiffOptions;
  /** The rate of the baseline's runs that may differ at a place before it is noise. Default 0. */
  readonly flakyRate?: number;
  /** Where a file's folder is resolved from (a results file names its dataset relative to it). */
  readonly cwd?: string;
  /** Told of what could not be read (a line, a dataset that changed since the run). */
  readonly onWarning?: (message: string) => void;
}

/** A side's runs by case id, in first-seen order, and the comparing rules its run used. */
interface SideRuns {
  readonly runs: Map<string, DiffRun[]>;
  /** Runs that could not be read (each warned of). */
  readonly unreadable: number;
  /** Cases of a results file whose calls are not at hand (warned of). */
  readonly withoutCalls: ReadonlySet<string>;
  readonly match?: JsonObject;
}

function add(runs: Map<string, DiffRun[]>, id: string, run: DiffRun): void {
  const list = runs.get(id);
  if (list === undefined) runs.set(id, [run]);
  else list.push(run);
}

async function resultsRuns(
  file: string,
  cwd: string,
  onWarning: (message: string) => void,
): Promise<SideRuns> {
  const scan = await scanResults(file);
  const { header } = scan;
  const dataset = datasetPath(header.dataset, file, cwd);
  const runs = new Map<string, DiffRun[]>();
  const withoutCalls = new Set<string>();
  const records = casesOfRecords(readRecords(file, scan), dataset, header, onWarning);
  for await (const { record, testCase } of records) {
    if (testCase !== undefined) add(runs, record.id, diffRunOf(testCase));
    else if (record.case !== undefined) add(runs, record.id, diffRunOfContent(record.case));
    else withoutCalls.add(record.id);
  }
  if (withoutCalls.size > 0) {
    onWarning(
      `${file}: the calls of ${withoutCalls.size} case${withoutCalls.size === 1 ? "" : "s"} are not at hand, so their trajectories are not compared (compare the recordings instead)`,
    );
  }
  const match = header.metricConfigs?.find((config) => config.metric === "tool-call-accuracy");
  return {
    runs,
    unreadable: 0,
    withoutCalls,
    ...(match === undefined ? {} : { match: match.options }),
  };
}

async function recordedRuns(file: string, onWarning: (message: string) => void): Promise<SideRuns> {
  const runs = new Map<string, DiffRun[]>();
  let unreadable = 0;
  for await (const entry of readDataset(file)) {
    if (DatasetParseError.isInstance(entry)) {
      onWarning(`${file}: ${entry.message}; the case is left out of the trajectory diff`);
      unreadable++;
      continue;
    }
    add(runs, entry.id, diffRunOf(entry));
  }
  return { runs, unreadable, withoutCalls: new Set() };
}

async function sideRuns(
  file: string,
  cwd: string,
  onWarning: (message: string) => void,
): Promise<SideRuns> {
  return (await isResultsFile(file))
    ? resultsRuns(file, cwd, onWarning)
    : recordedRuns(file, onWarning);
}

/**
 * The trajectories of two runs compared case by case: where each case's new runs first part from
 * the baseline's, every place they part, and whether the baseline's own runs part there too.
 * Options are checked before either file is read.
 */
export async function compareTrajectories(
  options: CompareTrajectoriesOptions,
): Promise<TrajectoryComparison> {
  const flakyRate = resolveFlakyRate(options.flakyRate);
  const given = options.diff ?? {};
  resolveDiffOptions(given);
  const onWarning = options.onWarning ?? (() => undefined);
  const cwd = options.cwd ?? process.cwd();
  const baseline = await sideRuns(options.baseline, cwd, onWarning);
  const current = await sideRuns(options.current, cwd, onWarning);
  const match = given.match ?? current.match;
  const rules = resolveDiffOptions({ ...given, ...(match === undefined ? {} : { match }) });
  const compared = divergeRuns({
    baseline: baseline.runs,
    candidate: current.runs,
    rules,
    flakyRate,
  });
  const without = new Set([...baseline.withoutCalls, ...current.withoutCalls]);
  return {
    ...compared,
    onlyInBaseline: compared.onlyInBaseline.filter((id) => !without.has(id)),
    onlyInCurrent: compared.onlyInCurrent.filter((id) => !without.has(id)),
    unreadable: baseline.unreadable + current.unreadable,
    withoutCalls: without.size,
  };
}
