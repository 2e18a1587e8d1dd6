/**
 * The run's third step: its header (the dataset's fingerprint, the configuration's hash), the
 * cases a selection chooses, and the results file opened, with what an earlier run left there.
 */
import type { TurnAggregate } from "../core/turns.js";
import { createHash } from "node:crypto";
import { isJsonObject } from "../core/json.js";
import { datasetFingerprint, readDataset } from "../node/dataset.js";
import type { ResultsHeader, ResultsWriter } from "../node/results-file.js";
import { openResultsRun } from "./results-run.js";
import type { ResultsRun } from "./results-run.js";
import { summaryInput } from "../evaluate/record.js";
import type { CaseRecord } from "../core/case-record.js";
import { createSummaryBuilder } from "../core/summary.js";
import type { SummaryBuilder } from "../core/summary.js";
import { describeEntry } from "./batch.js";
import type { RunMetricConfig } from "../metrics/definitions.js";
import type { EvaluateToFileOptions } from "./run-options.js";
import type { RunPlan } from "./plan-run.js";

function hashOf(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}

/** A stable hash of the metrics' configuration, whatever the key order. */
export function configHash(input: {
  metrics: readonly RunMetricConfig[];
  normalizeNames: boolean;
  /** Part of the hash only when set: files written before it existed keep theirs. */
  turnAggregate?: TurnAggregate;
}): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : isJsonObject(value)
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, canonical(value[key])]),
          )
        : value;
  return hashOf(canonical(input));
}

/** The results file a run writes (or none), and what an earlier run left in it. */
export interface OpenedRun {
  readonly run: ResultsRun | undefined;
  readonly writer: ResultsWriter;
  readonly previous: ResultsRun["previous"];
  readonly done: (index: number) => boolean;
  /** The summary so far: the earlier run's records of the cases this one skips. */
  readonly builder: SummaryBuilder;
  readonly carried: number;
  /** Chosen by `select`: the positions of the cases to run. */
  readonly chosen: Set<number> | undefined;
}

/**
 * Opens the run: its header (the dataset's fingerprint, the selection read first, so that a
 * dataset that cannot be read leaves the results file as it was), then the results file, summing
 * up what an earlier run of the same cases left there.
 */
export async function openRun<TCase extends object>(
  options: EvaluateToFileOptions<TCase>,
  plan: RunPlan<TCase>,
): Promise<OpenedRun> {
  const { dataset, testCases, shard, out, normalizeNames, groupBy, turnAggregate, file } =
    plan.resolved;
  const { metrics, names, allConfigs } = plan;
  const fingerprint =
    options.fingerprint ??
    (file !== undefined
      ? await datasetFingerprint(file)
      : Array.isArray(testCases)
        ? `${testCases.length}:${hashOf(testCases)}`
        : "cases");
  const chosen =
    // A selection without a dataset file is refused before (resolveRunOptions).
    options.select === undefined || file === undefined
      ? undefined
      : await chosenPositions(file, options.select, normalizeNames);
  const header: ResultsHeader = {
    toolscore: "results",
    version: 1,
    dataset: options.name ?? dataset ?? "cases",
    fingerprint,
    config:
      allConfigs !== undefined
        ? configHash({
            metrics: allConfigs,
            normalizeNames,
            ...(turnAggregate === undefined ? {} : { turnAggregate }),
          })
        : hashOf([
            ...metrics.map((metric) => [metric.id ?? null, metric.name]),
            ...(turnAggregate === undefined ? [] : [turnAggregate]),
          ]),
    metrics: names,
    ...(allConfigs === undefined ? {} : { metricConfigs: allConfigs }),
    ...(normalizeNames ? { normalizeNames } : {}),
    ...(shard === undefined ? {} : { shard }),
    ...(options.select === undefined ? {} : { selection: options.select.name }),
    ...(groupBy === undefined ? {} : { groupBy }),
    ...(turnAggregate === undefined ? {} : { turnAggregate }),
    ...(plan.resolved.gate === undefined ? {} : { gate: plan.resolved.gate }),
    startedAt: new Date().toISOString(),
  };
  const wording = options.wording ?? {
    resume: "resume: true",
    overwrite: "overwrite: true",
    out: "out",
  };
  const newBuilder = () => createSummaryBuilder(names, groupBy === undefined ? {} : { groupBy });
  let builder = newBuilder();
  let carried = 0;
  const carry = (record: CaseRecord) => {
    builder.add(summaryInput(record));
    carried++;
  };
  const run =
    out === undefined
      ? undefined
      : await openResultsRun({
          file: out,
          header,
          resume: options.resume,
          overwrite: options.overwrite,
          retryErrors: options.retryErrors,
          wording: { ...wording, file: options.out as string },
          // The earlier run's records are summed up as the file is checked, in one read.
          onScanned: carry,
        });
  if (run !== undefined && !run.scannedAreCarried) {
    // A case the file holds twice, or one to retry: summed up again from the carried records.
    builder = newBuilder();
    carried = 0;
    for await (const record of run.carried()) carry(record);
  }
  return {
    run,
    writer: run?.writer ?? discard,
    previous: run?.previous,
    done: run?.done ?? (() => false),
    builder,
    carried,
    chosen,
  };
}

/** The positions of a dataset's cases whose id a selection accepts (unreadable lines by their fallback id). */
async function chosenPositions(
  file: string,
  select: { readonly accepts: (id: string) => boolean },
  normalizeNames: boolean,
): Promise<Set<number>> {
  const chosen = new Set<number>();
  let position = 0;
  for await (const entry of readDataset(file, { normalizeNames })) {
    const where = describeEntry(entry, position++);
    if (select.accepts(where.id)) chosen.add(where.index);
  }
  return chosen;
}

/** Where records go when the run has no results file. */
export const discard: ResultsWriter = {
  write() {
    // No file.
  },
  writeLines() {
    // No file.
  },
  flush() {
    // No file.
  },
  close() {
    // No file.
  },
  abandon: () => true,
};
