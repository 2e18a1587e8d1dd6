import { printable } from "./printable.js";
import type { EvaluationSummary } from "../core/summary.js";
import { formatDuration, formatRate, metricColumns, metricRow, sparkline } from "./format.js";

export interface ConsoleSummaryOptions {
  /** ANSI colours (green pass, red fail). Default false. */
  readonly color?: boolean;
  /** Cases that could not be read or scored, listed under the table (at most ten shown). */
  readonly errors?: readonly {
    readonly id: string;
    readonly line?: number;
    readonly message: string;
  }[];
}

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
export function formatConsoleSummary(
  summary: EvaluationSummary,
  options: ConsoleSummaryOptions = {},
): string {
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
  const verdict = [
    paint(32, `${summary.passed} passed`),
    summary.failed > 0 ? paint(31, `${summary.failed} failed`) : `${summary.failed} failed`,
    summary.errors > 0 ? paint(33, `${summary.errors} errors`) : `${summary.errors} errors`,
  ].join(", ");
  lines.push(
    `${summary.cases} cases: ${verdict} (${formatRate(summary.passRate)} passed) in ${formatDuration(summary.durationMs)}${summary.aborted ? ", interrupted" : ""}`,
  );
  if (summary.judge !== undefined) {
    const judge = summary.judge;
    const cost =
      judge.estimatedCostUsd === undefined
        ? "cost unknown"
        : `~$${judge.estimatedCostUsd.toFixed(4)}`;
    lines.push(
      `judge: ${judge.calls} calls, ${judge.cacheHits} cached, ${judge.failures} failed, ${judge.inputTokens + judge.outputTokens} tokens, ${cost}`,
    );
  }
  const errors = options.errors ?? [];
  if (errors.length > 0) {
    lines.push("");
    for (const error of errors.slice(0, 10)) {
      lines.push(
        paint(
          33,
          `! ${printable(error.id)}${error.line === undefined || error.message.startsWith(`line ${error.line}:`) ? "" : ` (line ${error.line})`}: ${printable(error.message)}`,
        ),
      );
    }
    if (errors.length > 10) lines.push(`  … and ${errors.length - 10} more in the results file`);
  }
  return lines.join("\n");
}
