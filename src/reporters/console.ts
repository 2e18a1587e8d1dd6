import { plural } from "../core/words.js";
import { printable } from "./printable.js";
import type { CaseRecord } from "../core/case-record.js";
import type { EvaluationSummary } from "../core/summary.js";
import type { RepeatSummary } from "../core/repeats.js";
import { flakyCase, repeatsRows, repeatsVerdict } from "./repeats.js";
import { consistencyLine, noConsistency } from "./judge-consistency.js";
import type { JudgeConsistency } from "./judge-consistency.js";
import {
  formatDuration,
  formatRate,
  metricColumns,
  metricRow,
  scoreText,
  sparkline,
  turnsLine,
  simulatorShare,
} from "./format.js";

export interface ConsoleReportOptions {
  /** The run's summary. */
  readonly summary: EvaluationSummary;
  /** ANSI colours (green pass, red fail). Default false. */
  readonly color?: boolean;
  /**
   * Failed cases to name under the table (at most {@link maxFailuresShown} lines: id, metric,
   * score and the first line of its reason), with a count of the summary's others.
   */
  readonly failures?: readonly Pick<CaseRecord, "id" | "metrics">[];
  /**
   * Columns a failed case's line may take (a terminal's width): longer lines are cut, with `…`.
   * Default: no cut.
   */
  readonly width?: number;
  /** Every line of each failed case's reason, never cut. Default false: the first line. */
  readonly verbose?: boolean;
  /** How far a sampled judge agreed with itself over the run: a line under the judge's. */
  readonly judgeConsistency?: JudgeConsistency;
  /** Cases that could not be read or scored, listed under the table (at most ten shown). */
  /** Name the flaky cases of repeated runs under their figures (at most five). Default true. */
  readonly flaky?: boolean;
  readonly errors?: readonly {
    readonly id: string;
    readonly line?: number;
    readonly message: string;
  }[];
}

/** Lines of failed cases shown at most: a screenful with the table. */
export const maxFailuresShown = 15;
/** The narrowest a failed case's line is cut to, however narrow the terminal. */
const narrowest = 40;
/** Case errors shown at most. */
const maxErrorsShown = 10;
/** Characters of a reason shown on a failed case's line. */

function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex -- ANSI colour codes take no room on screen
  return Array.from(text.replace(/\u001b\[[0-9;]*m/g, "")).length;
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0].map((_, column) =>
    Math.max(...rows.map((row) => visibleLength(row[column]))),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) =>
        column === 0
          ? cell + " ".repeat(widths[column] - visibleLength(cell))
          : " ".repeat(widths[column] - visibleLength(cell)) + cell,
      )
      .join("  ");
  return [
    line(rows[0]),
    widths.map((width) => "─".repeat(width)).join("  "),
    ...rows.slice(1).map(line),
  ];
}

/**
 * The run at a glance for a terminal: a table per metric (mean, pass rate, a histogram
 * sparkline), the case verdict, judge usage, and the first case errors.
 */
export function formatConsoleReport(options: ConsoleReportOptions): string {
  const { summary } = options;
  const paint = (code: number, text: string) =>
    options.color === true ? `\u001b[${code}m${text}\u001b[0m` : text;
  const rows = [
    [...metricColumns, "0 ··· 1"],
    ...summary.metrics.map((metric) => {
      const [name, ...figures] = metricRow(metric);
      return [printable(name), ...figures, sparkline(metric.histogram)];
    }),
  ];
  const lines = table(rows);
  lines.push("");
  const errorCount = plural(summary.errors, "error");
  const verdict = [
    paint(32, `${summary.passed} passed`),
    summary.failed > 0 ? paint(31, `${summary.failed} failed`) : `${summary.failed} failed`,
    summary.errors > 0 ? paint(33, errorCount) : errorCount,
    ...(summary.notEvaluable > 0
      ? [paint(35, `${summary.notEvaluable} not evaluable${simulatorShare(summary)}`)]
      : []),
  ].join(", ");
  lines.push(
    `${plural(summary.cases, "case")}: ${verdict} (${formatRate(summary.passRate)} passed) in ${formatDuration(summary.durationMs)}${summary.aborted ? ", interrupted" : ""}`,
  );
  if (summary.turns !== undefined) lines.push(turnsLine(summary.turns));
  if (summary.judge !== undefined) {
    const judge = summary.judge;
    const cost =
      judge.estimatedCostUsd === undefined
        ? "cost unknown"
        : `~$${judge.estimatedCostUsd.toFixed(4)}`;
    lines.push(
      `judge: ${plural(judge.calls, "call")}, ${judge.batchedRequests > 0 ? `${judge.batchedRequests} batched, ` : ""}${judge.cacheHits} cached, ${judge.failures} failed, ${judge.inputTokens + judge.outputTokens} tokens, ${cost}`,
    );
    const consistency = consistencyLine(options.judgeConsistency ?? noConsistency);
    if (consistency !== undefined) lines.push(consistency);
  }
  if (summary.repeats !== undefined) {
    lines.push(...repeatLines(summary.repeats, options.flaky ?? true, paint));
  }
  lines.push(...failureLines(summary, options.failures ?? [], paint, options));
  const errors = options.errors ?? [];
  if (errors.length > 0) {
    lines.push("");
    const where = (error: (typeof errors)[number]) =>
      `${printable(error.id)}${error.line === undefined || error.message.startsWith(`line ${error.line}:`) ? "" : ` (line ${error.line})`}`;
    let shown = 0;
    for (const group of sameErrors(errors).slice(0, maxErrorsShown)) {
      shown += group.cases.length;
      const [first] = group.cases;
      // Cases that failed in the same words (a judge no call reaches) are one line.
      const cases =
        group.cases.length === 1
          ? where(first)
          : `${group.cases.length} cases (${group.cases.slice(0, 3).map(where).join(", ")}${group.cases.length > 3 ? ", …" : ""})`;
      lines.push(paint(33, `! ${cases}: ${printable(first.message)}`));
    }
    const more = Math.max(summary.errors, errors.length) - shown;
    if (more > 0) lines.push(`  … and ${more} more in the results file`);
  }
  return lines.join("\n");
}

/** Errors grouped by their message, each group where its first error came. */
function sameErrors<T extends { readonly message: string }>(
  errors: readonly T[],
): { cases: [T, ...T[]] }[] {
  const groups = new Map<string, { cases: [T, ...T[]] }>();
  for (const error of errors) {
    const group = groups.get(error.message);
    if (group === undefined) groups.set(error.message, { cases: [error] });
    else group.cases.push(error);
  }
  return [...groups.values()];
}

/** Flaky cases named under the repeats' figures at most. */
const maxFlakyShown = 5;

/** Repeated runs: the verdict, pass^k at each k when cases ran more than once, the flaky cases. */
function repeatLines(
  repeats: RepeatSummary,
  flaky: boolean,
  paint: (code: number, text: string) => string,
): string[] {
  const lines = [repeatsVerdict(repeats)];
  if (repeats.byK.length > 1) {
    const rows = repeatsRows(repeats);
    lines.push(`  pass^k by k: ${rows.map(([k, , , hat]) => `${k}: ${hat}`).join("  ")}`);
  }
  if (flaky) {
    for (const item of repeats.flakyCases.slice(0, maxFlakyShown)) {
      lines.push(paint(33, `  ~ ${printable(flakyCase(item, repeats.by))}`));
    }
    if (repeats.flaky > maxFlakyShown) {
      lines.push(`  … and ${repeats.flaky - maxFlakyShown} more flaky cases`);
    }
  }
  return lines;
}

/**
 * One line per failed metric of the failed cases given (its whole reason when verbose), then how
 * many failed cases are not shown.
 */
function failureLines(
  summary: EvaluationSummary,
  failures: readonly Pick<CaseRecord, "id" | "metrics">[],
  paint: (code: number, text: string) => string,
  shape: Pick<ConsoleReportOptions, "width" | "verbose">,
): string[] {
  const width =
    shape.verbose === true || shape.width === undefined
      ? undefined
      : Math.max(narrowest, shape.width);
  if (failures.length === 0) return [];
  const lines = [""];
  let casesShown = 0;
  for (const record of failures) {
    const failed = Object.entries(record.metrics).flatMap(([name, entry]) =>
      (entry.status === "scored" && !entry.success) || entry.status === "not-evaluable"
        ? [{ name, entry }]
        : [],
    );
    if (lines.length - 1 + failed.length > maxFailuresShown) break;
    casesShown++;
    for (const { name, entry } of failed) {
      const [first, ...more] = (entry.reason ?? "").split("\n");
      const unsure = entry.status === "not-evaluable";
      const head = `${printable(record.id)}  ${printable(name)} ${unsure ? "not evaluable" : scoreText(entry.score)}`;
      let text = first === "" ? head : `${head}: ${printable(first)}`;
      // "✗ " takes two columns.
      if (width !== undefined && text.length + 2 > width) text = `${text.slice(0, width - 3)}…`;
      lines.push(unsure ? `${paint(35, "?")} ${text}` : `${paint(31, "✗")} ${text}`);
      if (shape.verbose === true) for (const line of more) lines.push(`    ${printable(line)}`);
    }
  }
  const rest = summary.failed + summary.notEvaluable - casesShown;
  if (rest > 0)
    lines.push(
      summary.notEvaluable === 0
        ? `  … and ${rest} more failed case${rest === 1 ? "" : "s"} in the results file`
        : `  … and ${rest} more case${rest === 1 ? "" : "s"} failed or not evaluable in the results file`,
    );
  return lines;
}
