import path from "node:path";
import type { GateVerdict } from "../core/gate.js";
import type { RunComparison } from "../core/comparison.js";
import type { TrajectoryComparison } from "../core/trajectory-diff.js";
import type { EvaluationSummary } from "../core/summary.js";
import { refuseLinkedOutput } from "../node/output-path.js";
import { printable } from "../reporters/printable.js";
import { writeEvaluationEvents, writeResultsReports } from "../reports/results-reports.js";
import { plural } from "../core/words.js";
import { shownPath } from "./io.js";
import type { CliIo } from "./io.js";

export interface ReportTargets {
  readonly report?: string | undefined;
  readonly junit?: string | undefined;
  readonly markdown?: string | undefined;
  /** OpenTelemetry evaluation events (OTLP JSON logs) for the traces the runs came from. */
  readonly otlpEvents?: string | undefined;
}

/** Refuses reports that would be written through a symbolic link (see `refuseLinkedOutput`). */
export function refuseLinkedReports(reports: ReportTargets, io: Pick<CliIo, "cwd">): void {
  for (const option of ["report", "junit", "markdown", "otlpEvents"] as const) {
    const file = reports[option];
    const flag = option === "otlpEvents" ? "--otlp-events" : `--${option}`;
    if (file !== undefined) refuseLinkedOutput(file, { option: flag, within: io.cwd });
  }
}

/**
 * Writes the reports asked for (and the CI job summary, from $GITHUB_STEP_SUMMARY), saying where
 * each went; see `writeResultsReports`.
 */
export async function writeReports(input: {
  out: string;
  summary: EvaluationSummary;
  metrics: readonly string[];
  reports: ReportTargets;
  io: CliIo;
  /** The dataset (absolute), to read the reported cases' calls again from their lines. */
  dataset: string;
  source: string;
  maxCases?: number;
  comparison?: {
    readonly comparison: RunComparison;
    readonly baseline: string;
    readonly calls?: TrajectoryComparison;
  };
  gate?: GateVerdict;
}): Promise<readonly { readonly kind: "junit" | "markdown" | "html"; readonly file: string }[]> {
  const { reports, io } = input;
  if (reports.otlpEvents !== undefined) {
    refuseLinkedReports(reports, io);
    const events = await writeEvaluationEvents({
      results: input.out,
      dataset: input.dataset,
      file: reports.otlpEvents,
    });
    io.stdout.write(
      `otlp events: ${shownPath(reports.otlpEvents, io)} (${plural(events.events, "event")}${events.withoutTrace === 0 ? "" : `; ${plural(events.withoutTrace, "case")} without a trace to put them on`}${events.badIds === 0 ? "" : `; ${plural(events.badIds, "case")} whose trace ids are not OpenTelemetry ids (32 and 16 hex digits) or an Agents SDK's, left out`})\n`,
    );
  }
  const stepSummary = io.env.GITHUB_STEP_SUMMARY;
  const wanted =
    reports.junit !== undefined ||
    reports.report !== undefined ||
    reports.markdown !== undefined ||
    (stepSummary !== undefined && stepSummary !== "");
  if (!wanted) return [];
  refuseLinkedReports(reports, io);
  const written = await writeResultsReports({
    results: input.out,
    summary: input.summary,
    metrics: input.metrics,
    dataset: input.dataset,
    source: input.source,
    html: reports.report,
    junit: reports.junit,
    markdown: reports.markdown,
    ...(stepSummary === undefined || stepSummary === "" ? {} : { appendMarkdownTo: stepSummary }),
    maxCases: input.maxCases,
    comparison: input.comparison,
    gate: input.gate,
    onWarning: (message) => {
      io.stderr.write(`toolscore: ${printable(message)}\n`);
    },
  });
  const label = { junit: "junit", markdown: "markdown", html: "report" } as const;
  for (const { kind, file } of written) io.stdout.write(`${label[kind]}: ${shownPath(file, io)}\n`);
  return written;
}

/** The report files named by --report, --junit and --markdown, resolved against the cwd. */
export function reportTargets(
  values: { report?: string; junit?: string; markdown?: string; "otlp-events"?: string },
  cwd: string,
): ReportTargets {
  const resolve = (file: string | undefined) =>
    file === undefined ? undefined : path.resolve(cwd, file);
  return {
    report: resolve(values.report),
    junit: resolve(values.junit),
    markdown: resolve(values.markdown),
    otlpEvents: resolve(values["otlp-events"]),
  };
}
