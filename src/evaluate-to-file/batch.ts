/**
 * Batches of JSONL lines scored in one go: parsed, scored with the run's deterministic metrics
 * (the same case scorer as `evaluate`), and written as records, with the figures the summary
 * needs. Worker threads run it, and so does the main thread when it runs without them.
 */
import type { TurnAggregate } from "../core/turns.js";
import { DatasetParseError } from "../core/errors.js";
import { FlatOutcome, turnCodes } from "../core/summary.js";
import { createLineReader } from "../node/dataset.js";
import type { DatasetEntry } from "../node/dataset.js";
import { caseStatuses } from "../core/case-result.js";
import type { CaseResult, CaseStatus } from "../core/case-result.js";
import { createCaseScorer } from "../evaluate/score-case.js";
import type { CasePosition } from "../evaluate/score-case.js";
import { caseRecordLine } from "../evaluate/record.js";
import { createDeterministicMetrics } from "./deterministic-metrics.js";
import { decodedAsWritten } from "../core/jsonl-lines.js";
import type { RunMetricConfig } from "../metrics/definitions.js";
import type { GroupBy } from "../core/repeats.js";
import type { KeptDetails } from "../core/metric.js";

/** What the main thread gives every worker. */
export interface WorkerSetup {
  readonly dataset: string;
  readonly metrics: readonly RunMetricConfig[];
  readonly threshold?: number;
  readonly normalizeNames: boolean;
  /** Metrics whose details reports can compute again from the line (see `toCaseRecord`). */
  readonly recomputable: readonly string[];
  /** Which results of those metrics keep their details all the same. */
  readonly keep: KeptDetails;
  /** What makes cases runs of one case, when the run groups them. */
  readonly groupBy?: GroupBy;
  /** How conversations' turns make their scores, when the run says. */
  readonly turnAggregate?: TurnAggregate | undefined;
}

/** One batch of lines: their bytes, and for each line where it is. */
export interface WorkerBatch {
  readonly id: number;
  readonly bytes: Uint8Array;
  /** Start and end of each line in `bytes` (end excluded, newline and `\r` left out). */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly indices: Int32Array;
  readonly lines: Int32Array;
  /** Where each line starts in the file, and its length with its newline. */
  readonly offsets: Float64Array;
  readonly sizes: Float64Array;
}

/** A scored batch: the records as JSON lines, and flat figures for the summary. */
export interface WorkerResult {
  readonly id: number;
  /** The records as JSON lines, UTF-8 (its own buffer, so that it can be transferred). */
  readonly lines: Uint8Array;
  readonly count: number;
  /** Per case: 0 passed, 1 failed, 2 error. */
  readonly statuses: Uint8Array;
  /** Per case and metric: a `FlatOutcome`; the score; success 1 or 0. */
  readonly kinds: Uint8Array;
  readonly scores: Float64Array;
  readonly successes: Uint8Array;
  /** Ids of the cases, for cases some metric failed or that ended in an error (else ""). */
  readonly ids: string[];
  /** The cases' groups (see `CaseResult.group`; "" for none), when some case has one. */
  readonly groups?: string[];
  /** The conversations' turns' statuses (`turnCodes`; "" for a case without turns), when any. */
  readonly turns?: string[];
  /** The places in the batch of the cases whose simulated user spoiled the run, when any. */
  readonly simulatorFaults?: number[];
  /** The first errors of the batch, for the console. */
  readonly errors: RunError[];
  /** Notes on the cases (unknown fields), for the console. */
  readonly notes: string[];
}

const statusCode = Object.fromEntries(caseStatuses.map((status, code) => [status, code])) as Record<
  CaseStatus,
  number
>;

/** Where a dataset entry sits: a case's own place, or the place of the line that failed. */
export function describeEntry(item: DatasetEntry | object, position: number): CasePosition {
  if (DatasetParseError.isInstance(item)) {
    const index = item.item ?? position;
    return {
      index,
      id: item.caseId ?? `case-${index + 1}`,
      ...(item.line === undefined ? {} : { line: item.line }),
    };
  }
  // Per case: built directly rather than by spreading a conditional object.
  const entry = item as { index: number; id: string; line?: number };
  return entry.line === undefined
    ? { index: entry.index, id: entry.id }
    : { index: entry.index, id: entry.id, line: entry.line };
}

/** A case error in one line for the console: the first few of a run. */
export interface RunError {
  readonly id: string;
  readonly line?: number;
  readonly message: string;
}

/** Case errors a run keeps for the console: the first few (the results file has them all). */
const maxErrorsKept = 50;

/** Keeps an errored case's line for the console, while fewer than the most kept are. */
export function keepError(kept: RunError[], error: RunError | CaseResult): void {
  if (kept.length < maxErrorsKept) kept.push("results" in error ? errorSummary(error) : error);
}

/** An errored case in one line for the console: the case's error, else its first metric's. */
function errorSummary(result: CaseResult): RunError {
  const firstError = result.results
    .flatMap((metric) =>
      metric.status === "error" ? [`${metric.metric}: ${metric.error.message}`] : [],
    )
    .at(0);
  return {
    id: result.id,
    ...(result.line === undefined ? {} : { line: result.line }),
    message: result.error?.message ?? firstError ?? "error",
  };
}

/**
 * Scores batches of dataset lines with the run's deterministic metrics: what a worker thread
 * does, and what the main thread does itself when it runs without workers.
 */
export async function createBatchScorer(
  setup: WorkerSetup,
): Promise<(batch: WorkerBatch) => Promise<WorkerResult>> {
  const metrics = await createDeterministicMetrics(setup.metrics, setup.threshold);
  const count = metrics.length;
  const read = createLineReader(setup.dataset, { normalizeNames: setup.normalizeNames });
  const recordOptions = { recomputable: new Set(setup.recomputable), keep: setup.keep };
  // Every scored case here has a line to be read again from: records of these metrics keep only
  // the details asked for, so the metrics need not build the others.
  const scorer = createCaseScorer<object>({
    metrics,
    describe: describeEntry,
    leanDetails: { metrics: recordOptions.recomputable, keep: setup.keep },
    ...(setup.groupBy === undefined ? {} : { groupBy: setup.groupBy }),
    ...(setup.turnAggregate === undefined ? {} : { turnAggregate: setup.turnAggregate }),
  });

  return async function run(batch: WorkerBatch): Promise<WorkerResult> {
    const size = batch.starts.length;
    const bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
    const statuses = new Uint8Array(size);
    const kinds = new Uint8Array(size * count);
    const scores = new Float64Array(size * count);
    const successes = new Uint8Array(size * count);
    const ids: string[] = new Array<string>(size).fill("");
    let groups: string[] | undefined;
    let turns: string[] | undefined;
    let simulatorFaults: number[] | undefined;
    const errors: WorkerResult["errors"] = [];
    const notes: string[] = [];
    // Each record is written out as UTF-8 at once, so that its text dies young (a batch's text
    // kept as one string outlived the young generation and was copied twice).
    // A new buffer a batch: recycling them through the workers kept the process larger.
    let out = Buffer.allocUnsafeSlow(Math.max(4096, batch.bytes.byteLength));
    let written = 0;
    for (let at = 0; at < size; at++) {
      const line = batch.lines[at];
      const place = {
        index: batch.indices[at],
        line,
        offset: batch.offsets[at],
        bytes: batch.sizes[at],
      };
      const lineBytes = bytes.subarray(batch.starts[at], batch.ends[at]);
      const text = lineBytes.toString("utf8");
      const pending = decodedAsWritten(text, lineBytes)
        ? read(text, place)
        : read("", { ...place, notUtf8: true });
      const entry = pending instanceof Promise ? await pending : pending;
      if (!DatasetParseError.isInstance(entry) && entry.notes !== undefined && notes.length < 20) {
        for (const note of entry.notes) notes.push(`line ${line}: ${note}`);
      }
      const scored = scorer.score(entry, place.index);
      const result = scored instanceof Promise ? await scored : scored;
      if (result.notes !== undefined && notes.length < 20) {
        for (const note of result.notes) notes.push(`line ${line}: ${note}`);
      }
      const json = `${caseRecordLine(
        result,
        undefined,
        DatasetParseError.isInstance(entry)
          ? undefined
          : { offset: place.offset, bytes: place.bytes },
        recordOptions,
      )}\n`;
      // Up to three bytes a UTF-16 unit.
      if (written + 3 * json.length > out.length) {
        const grown = Buffer.allocUnsafeSlow(Math.max(2 * out.length, written + 3 * json.length));
        out.copy(grown, 0, 0, written);
        out = grown;
      }
      written += out.write(json, written);
      statuses[at] = statusCode[result.status];
      if (result.status !== "passed") ids[at] = result.id;
      if (result.group !== undefined) {
        groups ??= new Array<string>(size).fill("");
        groups[at] = result.group;
      }
      if (result.turns !== undefined) {
        turns ??= new Array<string>(size).fill("");
        turns[at] = turnCodes(result.turns);
      }
      if (result.simulatorFault === true) (simulatorFaults ??= []).push(at);
      result.results.forEach((metric, m) => {
        kinds[at * count + m] = FlatOutcome[metric.status];
        if (metric.status === "scored") {
          scores[at * count + m] = metric.score;
          successes[at * count + m] = metric.success ? 1 : 0;
        }
      });
      // A case that could not be read has no metric results; the summary counts none.
      if (result.results.length === 0)
        for (let m = 0; m < count; m++) kinds[at * count + m] = FlatOutcome.notRun;
      if (result.status === "error") keepError(errors, result);
    }
    return {
      id: batch.id,
      lines: out.subarray(0, written),
      count: size,
      statuses,
      kinds,
      scores,
      successes,
      ids,
      ...(groups === undefined ? {} : { groups }),
      ...(turns === undefined ? {} : { turns }),
      ...(simulatorFaults === undefined ? {} : { simulatorFaults }),
      errors,
      notes,
    };
  };
}
