/**
 * Reports from a results file, as `toolscore report`, `eval` and `merge` write them, and the
 * file's summary and comparison with another run's: library functions of `toolscore/node`.
 */
import { existsSync } from "node:fs";
import { appendFile, mkdir, open, writeFile } from "node:fs/promises";
import path from "node:path";
import { DatasetParseError } from "../core/errors.js";
import { datasetFingerprint, readDatasetLine } from "../node/dataset.js";
import { recordsWithCases } from "../evaluate-to-file/recompute.js";
import { inlineRecordImages } from "../node/inline-images.js";
import { writeFlags } from "../node/output-path.js";
import { readRecords, scanResults } from "../node/results-file.js";
import { createCaseSelector, formatHtmlReport } from "../reporters/html.js";
import type { HtmlReportOptions } from "../reporters/html.js";
import { formatJUnitReport } from "../reporters/junit.js";
import { formatMarkdownReport } from "../reporters/markdown.js";
import { summaryInput } from "../evaluate/record.js";
import type { CaseRecord } from "../core/case-record.js";
import type { EvaluationSummary } from "../core/summary.js";
import { createSummaryBuilder } from "../core/summary.js";
import { comparedCase, createComparer, metricChanges } from "../core/comparison.js";
import type { ComparedCase, RunComparison } from "../core/comparison.js";
import type { GateVerdict } from "../core/gate.js";
import type { JsonObject } from "../core/json.js";
import { evaluationLogRecord, otlpLogs, otlpSpan } from "../core/evaluation-events.js";
import type { TraceContext } from "../core/trajectory.js";
import { describeMatchers } from "../matchers/value-matchers.js";

async function writeJUnitFile(
  file: string,
  input: {
    out: string;
    summary: EvaluationSummary;
    metrics: readonly string[];
    timestamp?: string;
    gate?: GateVerdict;
  },
) {
  const scan = await scanResults(input.out);
  const stream = (await open(file, writeFlags.truncate)).createWriteStream();
  const finished = new Promise<void>((resolve, reject) => {
    stream.on("finish", resolve);
    stream.on("error", reject);
  });
  await formatJUnitReport({
    summary: input.summary,
    metrics: input.metrics,
    records: readRecords(input.out, scan),
    timestamp: input.timestamp,
    gate: input.gate,
    write: (chunk) =>
      stream.write(chunk)
        ? undefined
        : new Promise<void>((resolve) =>
            stream.once("drain", () => {
              resolve();
            }),
          ),
  });
  stream.end();
  await finished;
}

/** What `writeResultsReports` writes, and from what. */
export interface WriteResultsReportsOptions {
  /** The results file. */
  readonly results: string;
  /** Its summary (`summarizeResults`), and its metrics' names. */
  readonly summary: EvaluationSummary;
  readonly metrics: readonly string[];
  /** The dataset (absolute), to read the reported cases' calls again from their lines. */
  readonly dataset: string;
  /** The run's name in the reports' titles: the dataset as the user named it. */
  readonly source: string;
  /** Where to write the single-file HTML report. */
  readonly html?: string;
  /** Where to write JUnit XML, one test per case and metric. */
  readonly junit?: string;
  /** Where to write the Markdown summary. */
  readonly markdown?: string;
  /** A file the Markdown summary is appended to (a CI job summary such as $GITHUB_STEP_SUMMARY). */
  readonly appendMarkdownTo?: string;
  /** The most cases the HTML report shows, failures first (default 2,000). */
  readonly maxCases?: number;
  /** A comparison with a baseline run, for the Markdown summary and the HTML report. */
  readonly comparison?: HtmlReportOptions["comparison"];
  /** The run's verdict under its gate, which every report states. */
  readonly gate?: GateVerdict;
  /** What could not be shown as asked (a dataset changed since the run, images not embedded). */
  readonly onWarning?: (message: string) => void;
}

/**
 * Writes the reports asked for from a results file, each reading the file in case order in
 * bounded memory (the HTML report keeps at most `maxCases` cases, failures first); resolves to
 * the files written, JUnit, Markdown and HTML in that order.
 */
export async function writeResultsReports(
  options: WriteResultsReportsOptions,
): Promise<{ kind: "junit" | "markdown" | "html"; file: string }[]> {
  const { results: out, summary, metrics } = options;
  const written: { kind: "junit" | "markdown" | "html"; file: string }[] = [];
  const ensureFolder = (file: string) => mkdir(path.dirname(file), { recursive: true });
  const markdownWanted = options.markdown !== undefined || options.appendMarkdownTo !== undefined;
  if (options.junit === undefined && options.html === undefined && !markdownWanted) return written;
  const scan = await scanResults(out);
  if (options.junit !== undefined) {
    await ensureFolder(options.junit);
    await writeJUnitFile(options.junit, {
      out,
      summary,
      metrics,
      timestamp: scan.header.startedAt,
      gate: options.gate,
    });
    written.push({ kind: "junit", file: options.junit });
  }
  if (markdownWanted) {
    const failures: CaseRecord[] = [];
    for await (const record of readRecords(out, scan)) {
      if (record.status !== "passed") failures.push(record);
      if (failures.length >= 50) break;
    }
    // Conversations are shown turn by turn: their requests and turns' details, read again.
    const conversations = failures.filter((record) => record.turns !== undefined);
    const read =
      conversations.length === 0
        ? []
        : await recordsWithCases(
            conversations,
            options.dataset,
            scan.header,
            options.onWarning ?? (() => undefined),
          );
    const text = formatMarkdownReport({
      summary,
      title: `toolscore: ${options.source}`,
      failures: failures.map((record) =>
        record.turns === undefined ? record : (read[conversations.indexOf(record)] ?? record),
      ),
      comparison: options.comparison,
      gate: options.gate,
    });
    if (options.markdown !== undefined) {
      await ensureFolder(options.markdown);
      await writeFile(options.markdown, text, { flag: writeFlags.truncate });
      written.push({ kind: "markdown", file: options.markdown });
    }
    if (options.appendMarkdownTo !== undefined) await appendFile(options.appendMarkdownTo, text);
  }
  if (options.html !== undefined) {
    const text = await htmlReportOf(options, scan);
    await ensureFolder(options.html);
    await writeFile(options.html, text, { flag: writeFlags.truncate });
    written.push({ kind: "html", file: options.html });
  }
  return written;
}

/** What the HTML report of a results file shows, and the viewer's additions to it. */
export type HtmlReportOfOptions = Omit<
  WriteResultsReportsOptions,
  "html" | "junit" | "markdown" | "appendMarkdownTo"
> & {
  /** `toolscore view`'s script and its way back to the list of runs (see `formatHtmlReport`). */
  readonly viewer?: HtmlReportOptions["viewer"];
};

/**
 * The single-file HTML report of a results file, as text: at most `maxCases` cases (2,000),
 * failures first, each with its case read again from the dataset and its local images embedded.
 * What `writeResultsReports` writes, and what `toolscore view` serves.
 */
export async function htmlReportOf(
  options: HtmlReportOfOptions,
  scanned?: Awaited<ReturnType<typeof scanResults>>,
): Promise<string> {
  const { results: out, summary, metrics } = options;
  const onWarning = options.onWarning ?? (() => undefined);
  const scan = scanned ?? (await scanResults(out));
  const max = options.maxCases ?? 2000;
  const selector = createCaseSelector<CaseRecord>(max);
  for await (const record of readRecords(out, scan)) selector.add(record);
  const chosen = await recordsWithCases(selector.chosen(), options.dataset, scan.header, onWarning);
  const datasetDirectory = path.dirname(options.dataset);
  const records: CaseRecord[] = [];
  const notEmbedded: string[] = [];
  const onImageError = (_source: unknown, error: unknown) => {
    notEmbedded.push(error instanceof Error ? error.message : String(error));
  };
  for (let at = 0; at < chosen.length; at += 32) {
    records.push(
      ...(await Promise.all(
        chosen
          .slice(at, at + 32)
          .map((record) =>
            inlineRecordImages(record, { baseDirectory: datasetDirectory, onImageError }),
          ),
      )),
    );
  }
  if (notEmbedded.length > 0) {
    onWarning(
      `report: ${notEmbedded.length} local image${notEmbedded.length === 1 ? " is" : "s are"} named, not shown (${notEmbedded[0]}${notEmbedded.length > 1 ? "; ..." : ""})`,
    );
  }
  return formatHtmlReport({
    summary,
    metrics,
    records: records.map(withMatcherDescriptions),
    totalCases: summary.cases,
    title: `toolscore: ${options.source}`,
    source: options.source,
    generatedAt: new Date().toISOString(),
    ran: { startedAt: scan.header.startedAt, endedAt: scan.end?.endedAt },
    comparison: options.comparison,
    gate: options.gate,
    ...(options.viewer === undefined ? {} : { viewer: options.viewer }),
  });
}

/**
 * A results file read back: its summary, rebuilt from its records in case order, and each record
 * handed to `onRecord` on the way.
 */
export async function summarizeResults(
  file: string,
  onRecord?: (record: CaseRecord) => void,
): Promise<{
  summary: EvaluationSummary;
  metrics: readonly string[];
  dataset: string;
  fingerprint: string | undefined;
  /** When the run began and (when it stopped) last ended, as its file says. */
  startedAt: string;
  endedAt: string | undefined;
  /** The gate the run recorded, unread (see `readRecordedGate`). */
  gate: unknown;
}> {
  const scan = await scanResults(file);
  const { groupBy } = scan.header;
  const builder = createSummaryBuilder(
    scan.header.metrics,
    groupBy === undefined ? {} : { groupBy },
  );
  for await (const record of readRecords(file, scan)) {
    builder.add(summaryInput(record));
    onRecord?.(record);
  }
  const summary = builder.summary({
    durationMs: scan.end?.durationMs ?? 0,
    aborted: scan.end?.complete !== true,
    judge: scan.judge,
  });
  return {
    summary,
    // The header's metrics, then any the records add (an observed run's components).
    metrics: summary.metrics.map((metric) => metric.name),
    dataset: scan.header.dataset,
    fingerprint: scan.header.fingerprint,
    startedAt: scan.header.startedAt,
    endedAt: scan.end?.endedAt,
    gate: scan.header.gate,
  };
}

/** Two results files compared case by case, and per metric: only the baseline is held. */
export async function compareResults(
  baseline: string,
  current: string,
  options: { readonly tolerance?: number } = {},
): Promise<RunComparison> {
  const tolerance = options.tolerance ?? 0;
  const before: ComparedCase[] = [];
  const was = await summarizeResults(baseline, (record) => before.push(comparedCase(record)));
  const comparer = createComparer({ baseline: before, tolerance });
  before.length = 0;
  const now = await summarizeResults(current, (record) => {
    comparer.add(comparedCase(record));
  });
  const same = was.fingerprint !== undefined && was.fingerprint === now.fingerprint;
  return {
    ...comparer.result(),
    metrics: metricChanges(was.summary, now.summary),
    ...(same
      ? {}
      : {
          datasets: {
            baseline: { dataset: was.dataset, fingerprint: was.fingerprint },
            current: { dataset: now.dataset, fingerprint: now.fingerprint },
          },
        }),
  };
}

/**
 * The dataset a results file names, as given to eval: found from the current folder, else from
 * the results file's folder.
 */
export function datasetPath(dataset: string, results: string, cwd: string): string {
  const fromCwd = path.resolve(cwd, dataset);
  if (existsSync(fromCwd)) return fromCwd;
  return path.resolve(path.dirname(results), dataset);
}

/** A record whose expected calls' matchers carry their descriptions, for the HTML report. */
function withMatcherDescriptions(record: CaseRecord): CaseRecord {
  const expected = record.case?.expectedTools;
  if (record.case === undefined || expected === undefined) return record;
  return {
    ...record,
    case: {
      ...record.case,
      expectedTools: expected.map((call) => ({
        ...call,
        arguments: describeMatchers(call.arguments) as JsonObject,
      })),
    },
  };
}

/** What `writeEvaluationEvents` wrote: the events, and the cases it found no trace for. */
export interface EvaluationEventsWritten {
  readonly events: number;
  readonly cases: number;
  /** Cases whose run is not a trace of spans (or whose line could not be read again). */
  readonly withoutTrace: number;
  /** Cases whose trace names its root span by ids that are no trace or span ids (see `otlpId`). */
  readonly badIds: number;
}

/**
 * Writes a results file's scores as OpenTelemetry `gen_ai.evaluation.result` events (OTLP JSON
 * logs, for a collector's `/v1/logs`), each on the root span of the trace its case's run came
 * from (an OpenTelemetry GenAI, OpenInference or OpenAI Agents SDK export), so a platform that
 * shows the traces shows the scores. Cases read from JSONL lines only (their transcripts are read
 * again); cases whose run is no trace are counted, not written.
 */
export async function writeEvaluationEvents(options: {
  readonly results: string;
  readonly dataset: string;
  readonly file: string;
  readonly serviceName?: string;
}): Promise<EvaluationEventsWritten> {
  const scan = await scanResults(options.results);
  let fingerprint: string | undefined;
  try {
    fingerprint = await datasetFingerprint(options.dataset);
  } catch {
    fingerprint = undefined;
  }
  const sameDataset = fingerprint === scan.header.fingerprint;
  const records: JsonObject[] = [];
  let cases = 0;
  let withoutTrace = 0;
  let badIds = 0;
  const time = `${BigInt(Date.parse(scan.end?.endedAt ?? scan.header.startedAt) || Date.now()) * 1_000_000n}`;
  for await (const record of readRecords(options.results, scan)) {
    cases++;
    let span: TraceContext | undefined;
    if (sameDataset && record.source !== undefined) {
      const entry = await readDatasetLine(
        options.dataset,
        { index: record.index, line: record.line, ...record.source },
        { normalizeNames: scan.header.normalizeNames === true },
      );
      if (!DatasetParseError.isInstance(entry)) span = entry.trajectory?.trace;
    }
    if (span === undefined) {
      withoutTrace++;
      continue;
    }
    const ids = otlpSpan(span);
    if (ids === undefined) {
      badIds++;
      continue;
    }
    for (const [metric, entry] of Object.entries(record.metrics)) {
      records.push(evaluationLogRecord({ span: ids, timeUnixNano: time, metric, result: entry }));
    }
  }
  await mkdir(path.dirname(options.file), { recursive: true });
  await writeFile(options.file, `${JSON.stringify(otlpLogs(records, options.serviceName))}\n`, {
    flag: writeFlags.truncate,
  });
  return { events: records.length, cases, withoutTrace, badIds };
}
