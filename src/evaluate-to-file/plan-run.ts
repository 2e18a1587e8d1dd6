/**
 * The run's second step: its metrics (the one metric set), whether its cases are scored in batches
 * (in worker threads or this one) or one by one, and which details its records keep.
 */
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { InvalidOptionError } from "../core/errors.js";
import { integerOption } from "../core/options.js";
import type { Metric } from "../core/metric.js";
import type { WorkerSetup } from "./batch.js";
import type { RunMetricConfig } from "../metrics/definitions.js";
import { createMetricSet } from "./metric-set.js";
import { resolveJudgeModel } from "../providers/judge-models.js";
import { createBatchedJudge } from "./judge-batches.js";
import type { EvaluateToFileOptions } from "./run-options.js";
import type { ResolvedRunOptions } from "./resolve-run.js";

/** Datasets from this size are scored in two worker threads by default. */
const parallelFromBytes = 16 * 1024 * 1024;

/** What a run will do, decided before anything is read or written. */
export interface RunPlan<TCase extends object> {
  readonly resolved: ResolvedRunOptions;
  readonly configs: (RunMetricConfig | undefined)[];
  readonly metrics: Metric<TCase>[];
  readonly names: string[];
  /** The configs, when every metric was given as one (the results header then records them). */
  readonly allConfigs: readonly RunMetricConfig[] | undefined;
  /** The details kept of cases whose line can be read again: none, or the failed ones'. */
  readonly keep: "none" | "failed";
  /** The metrics whose details reports can compute again from the dataset's line. */
  readonly recomputable: ReadonlySet<string>;
  /** Set when the cases are scored in batches of lines (worker threads, or this thread). */
  readonly setup: WorkerSetup | undefined;
  readonly workers: number;
}

/** The run's metrics, where they are scored, and which details its records keep. */
export function planRun<TCase extends object>(
  options: EvaluateToFileOptions<TCase>,
  resolved: ResolvedRunOptions,
): RunPlan<TCase> {
  const { details, file, format, normalizeNames, groupBy, turnAggregate } = resolved;
  const { configs, metrics, names, allConfigs, deterministic, ...set } = createMetricSet<TCase>(
    options.metrics,
    {
      allowEmpty: options.scoreCase !== undefined,
      ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
      ...(options.judge === undefined ? {} : { judge: options.judge }),
      ...(options.modelSettings === undefined ? {} : { modelSettings: options.modelSettings }),
      baseDirectory: file === undefined ? process.cwd() : path.dirname(file),
    },
  );
  const workersGiven = options.workers;
  const batched =
    format === "jsonl" && options.scoreCase === undefined && options.reuse === undefined
      ? deterministic
      : undefined;
  const batchable = batched !== undefined;
  if (workersGiven !== undefined) {
    integerOption("workers", workersGiven, 0, { min: 0, max: 64 });
    if (workersGiven > 0 && !batchable) {
      throw new InvalidOptionError({
        option: "workers",
        value: workersGiven,
        message: "worker threads run deterministic metrics given as configs on JSONL datasets only",
      });
    }
  }
  // Cases of these metrics keep only the details asked for when their line can be read again.
  const keep = details === "failed" ? "failed" : "none";
  const recomputable = new Set(details === "all" || format !== "jsonl" ? [] : set.recomputable);
  const workers = !batchable
    ? 0
    : (workersGiven ??
      (statSync(file as string).size >= parallelFromBytes && availableParallelism() >= 2 ? 2 : 0));
  const setup: WorkerSetup | undefined =
    batched === undefined
      ? undefined
      : {
          dataset: file as string,
          metrics: batched,
          normalizeNames,
          recomputable: [...recomputable],
          keep,
          groupBy,
          turnAggregate,
        };
  return { resolved, configs, metrics, names, allConfigs, keep, recomputable, setup, workers };
}

/** The run's judge made to answer from batches, in batch mode. */
export function batchedJudgeOf<TCase extends object>(options: EvaluateToFileOptions<TCase>) {
  if (options.batch === undefined) return undefined;
  const given = options.judge;
  if (given === undefined) {
    throw new InvalidOptionError({
      option: "batch",
      value: true,
      message: "batch mode sends the judge's questions in batches: give a judge too",
    });
  }
  return createBatchedJudge(() =>
    typeof given === "function" ? given() : resolveJudgeModel(given, options.modelSettings ?? {}),
  );
}
