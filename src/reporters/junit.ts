import { scoreText } from "./format.js";
import type { GateVerdict } from "../core/gate.js";
import type { CaseRecord, MetricEntry } from "../core/case-record.js";
import type { EvaluationSummary } from "../core/summary.js";

/**
 * Text safe in XML 1.0 content and attribute values: markup characters escaped, characters XML
 * cannot hold at all (most control characters, lone surrogates) replaced with U+FFFD.
 */
export function escapeXml(text: string): string {
  return text
    .replace(
      // eslint-disable-next-line no-control-regex -- these are exactly the characters XML forbids
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      "\ufffd",
    )
    .replace(/[&<>"']/g, (character) => {
      switch (character) {
        case "&":
          return "&amp;";
        case "<":
          return "&lt;";
        case ">":
          return "&gt;";
        case '"':
          return "&quot;";
        default:
          return "&apos;";
      }
    });
}

export interface JUnitReportOptions {
  readonly summary: EvaluationSummary;
  /** The run's metric names; each case yields one test per metric. */
  readonly metrics: readonly string[];
  /** Every case, in the order the report should list them. */
  readonly records: Iterable<CaseRecord> | AsyncIterable<CaseRecord>;
  /** Receives the document piece by piece (a file stream's write, or an array's push). */
  readonly write: (chunk: string) => void | Promise<void>;
  /** The test suite's name. Default "toolscore". */
  readonly name?: string;
  /** When the run started (ISO 8601, no time zone suffix needed). */
  readonly timestamp?: string;
  /** The run's verdict under its gate, as the suite's `gate` property. */
  readonly gate?: Pick<GateVerdict, "text">;
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

function testcase(record: CaseRecord, metric: string, entry: MetricEntry | undefined): string {
  const open = `    <testcase name="${escapeXml(record.id)}" classname="${escapeXml(metric)}" time="${seconds(record.durationMs)}"`;
  const where = record.line === undefined ? "" : ` (line ${record.line})`;
  if (entry === undefined) {
    const message = record.error?.message ?? "the case has no result for this metric";
    const type = record.error?.code ?? "MISSING_RESULT";
    return `${open}>\n      <error message="${escapeXml(message)}" type="${escapeXml(type)}">${escapeXml(`${record.id}${where}: ${message}`)}</error>\n    </testcase>\n`;
  }
  switch (entry.status) {
    case "skipped":
      return `${open}>\n      <skipped message="${escapeXml(entry.reason)}"/>\n    </testcase>\n`;
    case "not-evaluable":
      // JUnit has no "could not tell": skipped, said so; the gate decides whether it fails the run.
      return `${open}>\n      <skipped message="${escapeXml(`not evaluable: ${entry.reason}`)}"/>\n    </testcase>\n`;
    case "error":
      return `${open}>\n      <error message="${escapeXml(entry.error.message)}" type="${escapeXml(entry.error.code)}">${escapeXml(`${record.id}${where}: ${entry.error.message}`)}</error>\n    </testcase>\n`;
    case "scored": {
      if (entry.success) return `${open}/>\n`;
      const message = `score ${scoreText(entry.score)} below threshold ${entry.threshold}`;
      const body = [`${record.id}${where}: ${message}`, entry.reason ?? ""].join("\n").trim();
      return `${open}>\n      <failure message="${escapeXml(message)}" type="threshold">${escapeXml(body)}</failure>\n    </testcase>\n`;
    }
  }
}

/**
 * The run as JUnit XML (the schema Jenkins, GitLab, GitHub test reporters and Azure read): one
 * suite, one test per case and metric named by case id with the metric as its class, a
 * `<failure>` below threshold, an `<error>` when the case or metric could not run. Written as a
 * stream, so a million-case run never sits in memory.
 */
export async function formatJUnitReport(options: JUnitReportOptions): Promise<void> {
  const { summary, metrics, records, write } = options;
  const name = escapeXml(options.name ?? "toolscore");
  const scoredByMetric = summary.metrics.filter((metric) => metrics.includes(metric.name));
  // A case gets a test for each metric it has a result for; one without any result (unreadable,
  // or its application threw) gets an error test for every metric.
  const tests =
    scoredByMetric.reduce((sum, metric) => sum + metric.cases, 0) +
    summary.unscored * metrics.length;
  const failures = scoredByMetric.reduce((sum, metric) => sum + metric.failed, 0);
  // Not evaluable is written as <skipped>: counted so, or the header's errors would hold them.
  const skipped = scoredByMetric.reduce(
    (sum, metric) => sum + metric.skipped + metric.notEvaluable,
    0,
  );
  const errors =
    tests - failures - skipped - scoredByMetric.reduce((sum, metric) => sum + metric.passed, 0);
  const counts = `tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(summary.durationMs)}"`;
  await write('<?xml version="1.0" encoding="UTF-8"?>\n');
  await write(`<testsuites name="${name}" ${counts}>\n`);
  await write(
    `  <testsuite name="${name}" ${counts}${options.timestamp === undefined ? "" : ` timestamp="${escapeXml(options.timestamp.replace(/Z$|[+-]\d\d:\d\d$/, ""))}"`}>\n`,
  );
  let chunk =
    options.gate === undefined
      ? ""
      : `    <properties>\n      <property name="gate" value="${escapeXml(options.gate.text)}"/>\n    </properties>\n`;
  for await (const record of records) {
    const unscored = Object.keys(record.metrics).length === 0;
    for (const metric of metrics) {
      const entry = record.metrics[metric] as MetricEntry | undefined;
      // A metric of a component the application did not run for this case: no test.
      if (entry !== undefined || unscored) chunk += testcase(record, metric, entry);
    }
    if (chunk.length > 1 << 16) {
      await write(chunk);
      chunk = "";
    }
  }
  await write(`${chunk}  </testsuite>\n</testsuites>\n`);
}
