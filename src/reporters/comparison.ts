import type { CaseChange, RunComparison } from "../core/comparison.js";
import { formatRate } from "./format.js";
import { printable } from "./printable.js";

export interface ComparisonOptions {
  /** The baseline as the user named it. */
  readonly baseline: string;
  /** ANSI colours on the console. Default false. */
  readonly color?: boolean;
  /** Cases listed per kind of change at most. Default 10. */
  readonly maxCases?: number;
}

const signed = (value: number, digits: number) =>
  `${value > 0 ? "+" : value < 0 ? "−" : "±"}${Math.abs(value).toFixed(digits)}`;

/** `0.89 → 0.87 (−0.02)`, or what one side lacks. */
function meanMove(before: number | null, after: number | null): string {
  if (before === null || after === null)
    return `${before?.toFixed(2) ?? "–"} → ${after?.toFixed(2) ?? "–"}`;
  return `${before.toFixed(2)} → ${after.toFixed(2)} (${signed(after - before, 2)})`;
}

/** `79.7% → 76.6% (−3.1 pts)`. */
function rateMove(before: number | null, after: number | null): string {
  const move =
    before === null || after === null ? "" : ` (${signed((after - before) * 100, 1)} pts)`;
  return `${formatRate(before)} → ${formatRate(after)}${move}`;
}

/** The scores of a case that moved beyond the tolerance: `m 1.00 → 0.50, ...` (raw text). */
function movedScores(change: CaseChange): string {
  return change.scores
    .map((score) => `${score.metric} ${score.before.toFixed(2)} → ${score.after.toFixed(2)}`)
    .join(", ");
}

/** A conversation's turns whose status changed: `turn 2 passed → failed, ...` (raw text). */
function movedTurns(change: CaseChange): string {
  return (change.turns ?? [])
    .map(
      (turn) =>
        `turn ${turn.turn} ${turn.before ?? "not reached"} → ${turn.after ?? "not reached"}`,
    )
    .join(", ");
}

/** What moved in a case: each score beyond the tolerance, its turns' statuses (raw text). */
export function movedText(change: CaseChange): string {
  return [movedScores(change), movedTurns(change)].filter((part) => part !== "").join(", ");
}

/** What moved in a case: its status, each score beyond the tolerance, its turns' statuses. */
function changeText(change: CaseChange): string {
  const status = change.before === change.after ? "" : `${change.before} → ${change.after}`;
  return printable([status, movedText(change)].filter((part) => part !== "").join(", "));
}

/**
 * The kinds of change, in the order a reader needs them (regressions first), for every view of a
 * comparison: `kind` names one case's change, `title` a list of them.
 */
export function changeKinds(comparison: RunComparison) {
  return [
    {
      kind: "newly failed",
      title: "newly failed",
      mark: "✗",
      bad: true,
      changes: comparison.newlyFailed,
    },
    {
      kind: "newly errored",
      title: "newly errored",
      mark: "!",
      bad: true,
      changes: comparison.newlyErrored,
    },
    {
      kind: "score dropped",
      title: "scores dropped",
      mark: "↓",
      bad: true,
      changes: comparison.scoreDropped,
    },
    {
      kind: "newly passed",
      title: "newly passed",
      mark: "✓",
      bad: false,
      changes: comparison.newlyPassed,
    },
    {
      kind: "score rose",
      title: "scores rose",
      mark: "↑",
      bad: false,
      changes: comparison.scoreRose,
    },
  ];
}

/** Every changed case with its kind, in the order of {@link changeKinds}. */
export function changedCases(comparison: RunComparison): { kind: string; change: CaseChange }[] {
  return changeKinds(comparison).flatMap(({ kind, changes }) =>
    changes.map((change) => ({ kind, change })),
  );
}

/** One line saying how the run moved: regressions, improvements, cases on one side only. */
export function comparisonVerdict(comparison: RunComparison): string {
  const improved = comparison.newlyPassed.length + comparison.scoreRose.length;
  const parts = [
    `${comparison.regressions} regressed (${comparison.newlyFailed.length} newly failed, ${comparison.newlyErrored.length} newly errored, ${comparison.scoreDropped.length} scores dropped)`,
    `${improved} improved (${comparison.newlyPassed.length} newly passed, ${comparison.scoreRose.length} scores rose)`,
  ];
  if (comparison.onlyInBaseline.length > 0)
    parts.push(`${comparison.onlyInBaseline.length} only in the baseline`);
  if (comparison.onlyInCurrent.length > 0) parts.push(`${comparison.onlyInCurrent.length} new`);
  return `${parts.join("; ")}; tolerance ${comparison.tolerance}`;
}

/** What to say when the two runs scored different datasets, else undefined. */
export function datasetsDiffer(comparison: RunComparison): string | undefined {
  const { datasets } = comparison;
  if (datasets === undefined) return undefined;
  const short = (fingerprint: string | undefined) =>
    fingerprint === undefined ? "no fingerprint" : fingerprint.slice(0, 19);
  const { baseline, current } = datasets;
  return baseline.dataset === current.dataset
    ? `the runs scored different versions of ${baseline.dataset} (${short(baseline.fingerprint)}, ${short(current.fingerprint)}): a case's change may be the case's own`
    : `the runs scored different datasets, ${baseline.dataset} and ${current.dataset}: cases are matched by id, and a case's change may be the case's own`;
}

/** The comparison for a terminal: per metric, the verdict, then the changed cases by kind. */
export function formatComparison(comparison: RunComparison, options: ComparisonOptions): string {
  const paint = (code: number, text: string) =>
    options.color === true ? `\u001b[${code}m${text}\u001b[0m` : text;
  const max = options.maxCases ?? 10;
  const lines = [`compared with ${printable(options.baseline)}, case by case by id:`];
  const differ = datasetsDiffer(comparison);
  if (differ !== undefined) lines.push(`  ${printable(differ)}`);
  for (const metric of comparison.metrics) {
    lines.push(
      `  ${printable(metric.name)}: mean ${meanMove(metric.meanBefore, metric.meanAfter)}, pass rate ${rateMove(metric.passRateBefore, metric.passRateAfter)}`,
    );
  }
  lines.push("", paint(comparison.regressions > 0 ? 31 : 32, comparisonVerdict(comparison)));
  for (const section of changeKinds(comparison)) {
    if (section.changes.length === 0) continue;
    lines.push(`${section.title}:`);
    for (const change of section.changes.slice(0, max)) {
      lines.push(
        `  ${paint(section.bad ? 31 : 32, section.mark)} ${printable(change.id)}  ${changeText(change)}`,
      );
    }
    if (section.changes.length > max) lines.push(`  … and ${section.changes.length - max} more`);
  }
  for (const [title, ids] of [
    ["only in the baseline", comparison.onlyInBaseline],
    ["new (not in the baseline)", comparison.onlyInCurrent],
  ] as const) {
    if (ids.length === 0) continue;
    const shown = ids.slice(0, max).map((id) => printable(id));
    lines.push(
      `${title}: ${shown.join(", ")}${ids.length > max ? `, … and ${ids.length - max} more` : ""}`,
    );
  }
  return lines.join("\n");
}
