import type { EvaluationSummary, MetricSummary, TurnSummary } from "../core/summary.js";
import { plural } from "../core/words.js";

/** `0.875` as `0.88`, `null` as `–`. */
export function formatScore(value: number | null): string {
  return value === null ? "–" : value.toFixed(2);
}

/** `0.875` as `87.5%`, `null` as `–`. */
export function formatRate(value: number | null): string {
  if (value === null) return "–";
  const percent = value * 100;
  return `${Number.isInteger(percent) ? percent.toFixed(0) : percent.toFixed(1)}%`;
}

/** A duration in the unit a person reads best. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

/**
 * When a run happened, from its results file's times (ISO 8601, untrusted: a time that does not
 * read as one is left out): `ran 2026-11-28 10:00:03 UTC → 10:04:11 UTC`, the end's date given
 * when it differs, `ran from … (not finished)` without an end.
 */
export function formatRunTime(startedAt: unknown, endedAt?: unknown): string | undefined {
  const read = (value: unknown) => {
    if (typeof value !== "string") return undefined;
    const time = new Date(value);
    return Number.isNaN(time.getTime()) ? undefined : time.toISOString().slice(0, 19).split("T");
  };
  const start = read(startedAt);
  if (start === undefined) return undefined;
  const end = read(endedAt);
  const from = `${start[0]} ${start[1]} UTC`;
  if (end === undefined) return `ran from ${from} (not finished)`;
  return `ran ${from} → ${end[0] === start[0] ? "" : `${end[0]} `}${end[1]} UTC`;
}

/** The histogram as eight-level block characters, one per bin: `▁▁▂█`. */
export function sparkline(histogram: readonly number[]): string {
  const blocks = " ▁▂▃▄▅▆▇█";
  const most = Math.max(0, ...histogram);
  if (most === 0) return " ".repeat(histogram.length);
  return histogram
    .map((count) => (count === 0 ? "·" : blocks[Math.max(1, Math.round((count / most) * 8))]))
    .join("");
}

/** The row of figures every summary table shows for a metric. */
export function metricRow(metric: MetricSummary): string[] {
  return [
    metric.name,
    String(metric.scored),
    formatScore(metric.mean),
    formatScore(metric.min),
    formatScore(metric.max),
    formatRate(metric.passRate),
    String(metric.failed),
    String(metric.errors),
  ];
}

export const metricColumns = [
  "metric",
  "scored",
  "mean",
  "min",
  "max",
  "pass rate",
  "failed",
  "errors",
];

/** A case's score as people read it: at most three decimals, and never 1 when it is not quite 1. */
export function scoreText(score: number): string {
  const near = Math.round(score * 1000) / 1000;
  return String(score < 1 && near === 1 ? 0.999 : near);
}

/** Turns the console's by-turn line names at most; the reports have every one. */
const turnsInLine = 20;

/**
 * Conversations turn by turn, in one line: how many passed each turn of those that reached it,
 * and what else happened there (`turn 2 1 of 3 passed (2 failed)`); the first `turnsInLine`
 * turns, then how many more there are.
 */
export function turnsLine(turns: readonly TurnSummary[]): string {
  const first = turns.at(0);
  const conversations = first?.groups?.groups ?? first?.cases ?? 0;
  const parts = turns.slice(0, turnsInLine).map((turn) => {
    const other = [
      turn.failed > 0 ? `${turn.failed} failed` : "",
      turn.errors > 0 ? plural(turn.errors, "error") : "",
      turn.notEvaluable > 0 ? `${turn.notEvaluable} not evaluable` : "",
    ].filter((text) => text !== "");
    const runs =
      turn.groups === undefined
        ? ""
        : `; every run passed it in ${turn.groups.alwaysPassed} of ${turn.groups.groups}${turn.groups.flaky > 0 ? `, flaky in ${turn.groups.flaky}` : ""}`;
    return `turn ${turn.turn} ${turn.passed} of ${turn.cases} passed${other.length === 0 ? "" : ` (${other.join(", ")})`}${runs}`;
  });
  const more = turns.length - parts.length;
  if (more > 0) parts.push(`${more} more turns (the Markdown and HTML reports show each)`);
  return `by turn (${plural(conversations, "conversation")}): ${parts.join(", ")}`;
}

/** How many of the cases not evaluable its simulated user spoiled, when any: ` (2 by the simulated user)`. */
export function simulatorShare(summary: Pick<EvaluationSummary, "simulatorFaults">): string {
  const faults = summary.simulatorFaults ?? 0;
  return faults === 0 ? "" : ` (${faults} spoiled by the simulated user)`;
}
