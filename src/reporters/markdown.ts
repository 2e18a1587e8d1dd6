import { plural } from "../core/words.js";
import type { RepeatSummary } from "../core/repeats.js";
import { printable } from "./printable.js";
import { repeatedCaseName, repeatsRows, repeatsVerdict } from "./repeats.js";
import type { CaseRecord } from "../core/case-record.js";
import type { GateVerdict } from "../core/gate.js";
import type { RunComparison } from "../core/comparison.js";
import type { AlignedCall, AlignedRow, TrajectoryComparison } from "../core/trajectory-diff.js";
import {
  alignedCallText,
  casesToShow,
  differenceText,
  divergenceSummary,
  maxShownRows,
  noiseText,
} from "./divergence.js";
import type { EvaluationSummary } from "../core/summary.js";
import { changedCases, comparisonVerdict, datasetsDiffer, movedText } from "./comparison.js";
import { turnRows } from "./turns.js";
import {
  formatDuration,
  formatRate,
  metricColumns,
  metricRow,
  scoreText,
  sparkline,
  simulatorShare,
} from "./format.js";

export interface MarkdownReportOptions {
  /** The run's summary. */
  readonly summary: EvaluationSummary;
  /** Heading of the summary. Default "toolscore". */
  readonly title?: string;
  /** Failed and errored cases to list (the first `maxCases` are shown). */
  readonly failures?: readonly CaseRecord[];
  /** Default 20. */
  readonly maxCases?: number;
  /** A comparison with a baseline run, shown under the summary. */
  readonly comparison?: {
    readonly comparison: RunComparison;
    readonly baseline: string;
    /** The calls compared with the baseline's, when they were. */
    readonly calls?: TrajectoryComparison;
  };
  /** The run's verdict under its gate: the heading's mark, and its line under the heading. */
  readonly gate?: Pick<GateVerdict, "passed" | "text">;
}

/**
 * Text that cannot break a Markdown table or start markup: pipes, backticks, brackets, HTML; and
 * whose control characters (a terminal's escape sequences) show as `\x1b`-style escapes.
 */
function cell(text: string, max = 160): string {
  const flat = printable(text.replace(/\s+/g, " ").trim());
  const clipped = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return clipped.replace(/[\\`*_[\]<>|#&]/g, (character) =>
    character === "<"
      ? "&lt;"
      : character === ">"
        ? "&gt;"
        : character === "&"
          ? "&amp;"
          : `\\${character}`,
  );
}

function caseReason(record: CaseRecord): string {
  if (record.error !== undefined) return record.error.message;
  const reasons: string[] = [];
  for (const [name, entry] of Object.entries(record.metrics)) {
    if (entry.status === "error") reasons.push(`${name}: ${entry.error.message}`);
    else if (entry.status === "scored" && !entry.success) {
      reasons.push(`${name} ${scoreText(entry.score)}${entry.reason ? `: ${entry.reason}` : ""}`);
    } else if (entry.status === "not-evaluable") {
      reasons.push(`${name} not evaluable: ${entry.reason}`);
    }
  }
  return reasons.join("; ");
}

/**
 * The run as GitHub-flavoured Markdown, for a pull request comment or `$GITHUB_STEP_SUMMARY`:
 * the verdict, a table per metric, and the first failing cases with their reasons.
 */
export function formatMarkdownReport(options: MarkdownReportOptions): string {
  const { summary } = options;
  const title = options.title ?? "toolscore";
  const { gate } = options;
  const passed =
    gate === undefined
      ? summary.failed === 0 && summary.errors === 0 && summary.notEvaluable === 0
      : gate.passed;
  const lines = [
    `## ${passed ? "✅" : "❌"} ${cell(title)}`,
    "",
    ...(gate === undefined ? [] : [`**${cell(gate.text, 400)}**`, ""]),
    `**${summary.cases}** ${summary.cases === 1 ? "case" : "cases"}: **${summary.passed}** passed, **${summary.failed}** failed, **${summary.errors}** ${summary.errors === 1 ? "error" : "errors"}${summary.notEvaluable > 0 ? `, **${summary.notEvaluable}** not evaluable${simulatorShare(summary)}` : ""} (${formatRate(summary.passRate)} passed) in ${formatDuration(summary.durationMs)}${summary.aborted ? " — interrupted" : ""}.`,
    "",
    `| ${[...metricColumns, "histogram"].join(" | ")} |`,
    `| ${["---", ...metricColumns.slice(1).map(() => "---:"), "---"].join(" | ")} |`,
    ...summary.metrics.map((metric) => {
      const [name, ...rest] = metricRow(metric);
      return `| ${[cell(name), ...rest, `\`${sparkline(metric.histogram)}\``].join(" | ")} |`;
    }),
  ];
  if (summary.judge !== undefined) {
    const judge = summary.judge;
    lines.push(
      "",
      `Judge: ${plural(judge.calls, "call")}, ${judge.batchedRequests > 0 ? `${judge.batchedRequests} batched requests, ` : ""}${judge.cacheHits} cache hits, ${judge.inputTokens + judge.outputTokens} tokens${judge.estimatedCostUsd === undefined ? "" : `, ~$${judge.estimatedCostUsd.toFixed(4)}`}.`,
    );
  }
  if (summary.repeats !== undefined) {
    lines.push("", ...repeatMarkdown(summary.repeats, options.maxCases ?? 20));
  }
  if (summary.turns !== undefined) {
    const grouped = summary.turns.some((turn) => turn.groups !== undefined);
    lines.push(
      "",
      `**By turn** (${grouped ? `${plural(summary.turns[0]?.cases ?? 0, "run")} of ${plural(summary.turns[0]?.groups?.groups ?? 0, "conversation")}` : plural(summary.turns[0]?.cases ?? 0, "conversation")})`,
      "",
      `| turn | reached | passed | failed | errors | not evaluable |${grouped ? " every run passed | flaky |" : ""}`,
      `| ---: | ---: | ---: | ---: | ---: | ---: |${grouped ? " ---: | ---: |" : ""}`,
      ...summary.turns.map(
        (turn) =>
          `| ${turn.turn} | ${turn.cases} | ${turn.passed} | ${turn.failed} | ${turn.errors} | ${turn.notEvaluable} |${turn.groups === undefined ? "" : ` ${turn.groups.alwaysPassed} of ${turn.groups.groups} | ${turn.groups.flaky} |`}`,
      ),
    );
  }
  const failures = options.failures ?? [];
  if (failures.length > 0) {
    const max = options.maxCases ?? 20;
    lines.push("", "| case | status | why |", "| --- | --- | --- |");
    for (const record of failures.slice(0, max)) {
      lines.push(`| ${cell(record.id, 60)} | ${record.status} | ${cell(caseReason(record))} |`);
    }
    if (failures.length > max) lines.push("", `…and ${failures.length - max} more.`);
    lines.push(...conversationLines(failures.slice(0, maxConversations)));
  }
  if (options.comparison !== undefined) {
    lines.push("", ...comparisonLines(options.comparison, options.maxCases ?? 20));
    const { calls } = options.comparison;
    if (calls !== undefined) lines.push("", ...divergenceMarkdown(calls, options.maxCases ?? 20));
  }
  return `${lines.join("\n")}\n`;
}

/** Failed conversations shown turn by turn, at most. */
const maxConversations = 5;

/** Each failed conversation as a table, a row per turn: the user's words, the verdicts, why. */
function conversationLines(records: readonly CaseRecord[]): string[] {
  const lines: string[] = [];
  for (const record of records) {
    const rows = turnRows(record);
    if (rows.length === 0) continue;
    const metrics = rows[0].verdicts.map((verdict) => verdict.metric);
    lines.push(
      "",
      `**${cell(record.id, 60)}**, turn by turn:`,
      "",
      `| turn | user | ${metrics.map((name) => cell(name, 40)).join(" | ")} | why |`,
      `| ---: | --- | ${metrics.map(() => "---").join(" | ")} | --- |`,
      ...rows.map(
        (row) =>
          `| ${row.turn} | ${cell(row.input ?? "", 60)} | ${row.verdicts.map((verdict) => verdict.text).join(" | ")} | ${cell(row.why.join(" · "), 240)} |`,
      ),
    );
  }
  return lines;
}

/** Repeated runs: the verdict, pass@k and pass^k at each k, and the flaky cases. */
function repeatMarkdown(repeats: RepeatSummary, max: number): string[] {
  const lines = [
    "### Repeated runs",
    "",
    cell(repeatsVerdict(repeats), 400),
    "",
    "| k | cases | pass@k | pass^k |",
    "| ---: | ---: | ---: | ---: |",
    ...repeatsRows(repeats).map((row) => `| ${row.join(" | ")} |`),
  ];
  if (repeats.flakyCases.length > 0) {
    lines.push("", "| flaky case | runs | passed |", "| --- | ---: | ---: |");
    for (const item of repeats.flakyCases.slice(0, max)) {
      lines.push(
        `| ${cell(repeatedCaseName(item, repeats.by), 60)} | ${item.runs} | ${item.passed} |`,
      );
    }
    if (repeats.flaky > max) lines.push("", `…and ${repeats.flaky - max} more flaky cases.`);
  }
  return lines;
}

const rate = (value: number | null) => (value === null ? "–" : formatRate(value));
const mean = (value: number | null) => (value === null ? "–" : value.toFixed(2));

/** The comparison with a baseline: per metric, the verdict, and the cases that moved. */
function comparisonLines(
  { comparison, baseline }: { comparison: RunComparison; baseline: string },
  max: number,
): string[] {
  const icon = comparison.regressions > 0 ? "❌" : "✅";
  const differ = datasetsDiffer(comparison);
  const lines = [
    `### ${icon} Compared with ${cell(baseline)}`,
    "",
    cell(comparisonVerdict(comparison), 400),
    "",
    ...(differ === undefined ? [] : [`> ${cell(differ, 400)}`, ""]),
    "| metric | mean before | mean now | pass rate before | pass rate now |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...comparison.metrics.map(
      (metric) =>
        `| ${cell(metric.name)} | ${mean(metric.meanBefore)} | ${mean(metric.meanAfter)} | ${rate(metric.passRateBefore)} | ${rate(metric.passRateAfter)} |`,
    ),
  ];
  const changes = changedCases(comparison);
  if (changes.length > 0) {
    lines.push("", "| case | change | scores |", "| --- | --- | --- |");
    for (const { kind, change } of changes.slice(0, max)) {
      lines.push(`| ${cell(change.id, 60)} | ${kind} | ${cell(movedText(change))} |`);
    }
    if (changes.length > max) lines.push("", `…and ${changes.length - max} more.`);
  }
  return lines;
}

/** A row as lines of a unified diff: ` ` same, `-` the baseline's, `+` the new run's. */
function diffLines(row: AlignedRow): string[] {
  const at = (call: AlignedCall) => `${row.turn}.${call.call}`;
  const mark = row.first === true ? "   ← parts here" : "";
  const { baseline, current } = row;
  if (row.kind === "same" && current !== undefined) {
    return [`  ${at(current)} ${alignedCallText(current)}`];
  }
  const lines: string[] = [];
  if (baseline !== undefined) lines.push(`- ${at(baseline)} ${alignedCallText(baseline)}`);
  if (current !== undefined) {
    const moved = row.kind === "moved" ? " (moved)" : "";
    lines.push(`+ ${at(current)} ${alignedCallText(current)}${moved}`);
  }
  if (mark !== "") lines[lines.length - 1] += mark;
  return lines;
}

/** Markdown for the calls compared with a baseline: the count, then each case as a diff. */
export function divergenceMarkdown(comparison: TrajectoryComparison, maxCases: number): string[] {
  const icon = comparison.regressions + comparison.errors + comparison.unreadable > 0 ? "❌" : "✅";
  const lines = [
    `#### ${icon} Calls compared with the baseline`,
    "",
    divergenceSummary(comparison),
  ];
  const shownCases = casesToShow(comparison);
  for (const divergence of shownCases.slice(0, maxCases)) {
    const id = cell(divergence.id, 60);
    if (divergence.error !== undefined) {
      lines.push("", `**${id}**: not compared: ${cell(divergence.error, 400)}`);
      continue;
    }
    const [first] = divergence.places;
    const kind = divergence.regressions > 0 ? "parts from the baseline" : "noise only";
    lines.push(
      "",
      `**${id}** ${kind} at ${cell(differenceText(first.difference), 400)} (${noiseText(first, divergence)})`,
    );
    const body = (divergence.rows ?? []).slice(0, maxShownRows).flatMap(diffLines).map(printable);
    if (body.length === 0) continue;
    if ((divergence.rows ?? []).length > maxShownRows) body.push("  …");
    const longest = Math.max(
      2,
      ...body.map((line) => Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length))),
    );
    const fence = "`".repeat(longest + 1);
    lines.push("", `${fence}diff`, ...body, fence);
  }
  if (shownCases.length > maxCases) lines.push("", `…and ${shownCases.length - maxCases} more.`);
  return lines;
}
