/**
 * The one recompute reports and the viewer are given: a results file's records with their cases
 * read again from the dataset, and the details a passing case's record left out computed again
 * by the run's deterministic metrics. Reports format what it gives; they run no metric.
 */
import { DatasetParseError } from "../core/errors.js";
import { datasetFingerprint, readDatasetLine } from "../node/dataset.js";
import type { DatasetEntry } from "../node/dataset.js";
import type { ResultsHeader } from "../node/results-file.js";
import type { Metric } from "../core/metric.js";
import { caseContentOf, metricEntryOf } from "../evaluate/record.js";
import type { CaseRecord, MetricEntry } from "../core/case-record.js";
import { createCaseScorer } from "../evaluate/score-case.js";
import type { CaseScorer } from "../evaluate/score-case.js";
import { isJudged } from "./metric-set.js";
import { createDeterministicMetrics } from "./deterministic-metrics.js";

/** A dataset's case as read (see `DatasetEntry`). */
type DatasetCase = Exclude<DatasetEntry, DatasetParseError>;

/**
 * The run's deterministic metrics by name, from the results file's header, to compute again the
 * details a passing case's record left out; none when the header does not say how they were
 * configured (an older file) or the configuration no longer holds.
 */
async function rederivingMetrics(header: ResultsHeader): Promise<Map<string, Metric>> {
  const metrics = new Map<string, Metric>();
  const configs = header.metricConfigs;
  if (configs?.length !== header.metrics.length) return metrics;
  for (const [at, config] of configs.entries()) {
    try {
      if (isJudged(config)) continue;
      const [metric] = await createDeterministicMetrics([config]);
      metrics.set(header.metrics[at], metric);
    } catch {
      // A configuration this version cannot read: the report shows the case without alignment.
    }
  }
  return metrics;
}

/**
 * The record with the details its passing metrics left out, computed again from the case as the
 * run scored it (with the case's own metric options). A metric whose score comes out different
 * (it should not) keeps its entry as it was.
 */
async function withDetails(
  record: CaseRecord,
  testCase: DatasetCase,
  metrics: ReadonlyMap<string, Metric>,
  scorer: CaseScorer<DatasetCase>,
): Promise<CaseRecord> {
  const anyMissing = Object.entries(record.metrics).some(
    ([name, entry]) =>
      entry.status === "scored" && entry.details === undefined && metrics.has(name),
  );
  if (!anyMissing) return record;
  const entries: Record<string, MetricEntry> = { ...record.metrics };
  const again = await scorer.score(testCase, record.index);
  for (const result of again.results) {
    const entry = record.metrics[result.metric] as MetricEntry | undefined;
    if (
      result.status !== "scored" ||
      entry?.status !== "scored" ||
      entry.details !== undefined ||
      result.score !== entry.score
    )
      continue;
    entries[result.metric] = metricEntryOf(result);
  }
  return { ...record, metrics: entries };
}

/** A results file's record, with the case it scored when the dataset still holds it. */
export interface RecordWithCase {
  readonly record: CaseRecord;
  /** The case as the run read it, from its dataset line; absent when the record holds it. */
  readonly testCase?: DatasetCase;
}

/**
 * The records with the cases they point at, read again from the dataset lines (a JSONL run keeps
 * only where each line is). When the dataset is gone or has changed since the run, the records
 * come without their cases, and `onWarning` is told once. Records that hold their case's content
 * themselves come as they are.
 */
export async function* casesOfRecords(
  records: Iterable<CaseRecord> | AsyncIterable<CaseRecord>,
  dataset: string,
  header: ResultsHeader,
  onWarning: (message: string) => void,
): AsyncGenerator<RecordWithCase> {
  let checked: boolean | undefined;
  for await (const record of records) {
    if (record.source === undefined || record.case !== undefined) {
      yield { record };
      continue;
    }
    checked ??= await sameDataset(dataset, header, onWarning);
    if (!checked) {
      yield { record };
      continue;
    }
    const entry = await readDatasetLine(
      dataset,
      { index: record.index, line: record.line, ...record.source },
      { normalizeNames: header.normalizeNames === true },
    );
    yield DatasetParseError.isInstance(entry) ? { record } : { record, testCase: entry };
  }
}

/** Whether the dataset at hand is the one the run read; when not, `onWarning` says so. */
async function sameDataset(
  dataset: string,
  header: ResultsHeader,
  onWarning: (message: string) => void,
): Promise<boolean> {
  let fingerprint: string | undefined;
  let unread = "";
  try {
    fingerprint = await datasetFingerprint(dataset);
  } catch (error) {
    fingerprint = undefined;
    if (DatasetParseError.isInstance(error)) unread = ` (${error.message})`;
  }
  if (fingerprint === header.fingerprint) return true;
  onWarning(
    `${header.dataset} is ${fingerprint === undefined ? `not at hand${unread}` : "not the dataset of this run any more"}; the report shows results without the cases' calls`,
  );
  return false;
}

/**
 * The records with their cases' content (see {@link casesOfRecords}), and the details a passing
 * case's record left out computed again from the line.
 */
export async function recordsWithCases(
  records: readonly CaseRecord[],
  dataset: string,
  header: ResultsHeader,
  onWarning: (message: string) => void,
): Promise<CaseRecord[]> {
  if (records.every((record) => record.source === undefined)) return [...records];
  let scoring: { metrics: Map<string, Metric>; scorer: CaseScorer<DatasetCase> } | undefined;
  const out: CaseRecord[] = [];
  for await (const { record, testCase } of casesOfRecords(records, dataset, header, onWarning)) {
    if (testCase === undefined) {
      out.push(record);
      continue;
    }
    if (scoring === undefined) {
      const metrics = await rederivingMetrics(header);
      scoring = {
        metrics,
        scorer: createCaseScorer<DatasetCase>({
          metrics: [...metrics.values()],
          ...(header.turnAggregate === undefined ? {} : { turnAggregate: header.turnAggregate }),
        }),
      };
    }
    out.push({
      ...(await withDetails(record, testCase, scoring.metrics, scoring.scorer)),
      case: caseContentOf(testCase),
    });
  }
  return out;
}
