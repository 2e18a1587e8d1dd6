import type {
  AlignedCall,
  CaseDivergence,
  Difference,
  DivergenceAt,
  TrajectoryComparison,
} from "../core/trajectory-diff.js";
import { formatToolCall, render } from "../core/call-diff.js";
import { printable } from "./printable.js";

/** A JSON value on one line, cut with "…" past `max` characters; a key left out is "(absent)". */
function shown(value: unknown, max = 60): string {
  return value === undefined ? "(absent)" : render(value, max);
}

/** Where a difference is: `turn 2, call 1`, on the side that has the call. */
function where(difference: Difference): string {
  switch (difference.kind) {
    case "dropped":
      return `turn ${difference.turn}, call ${difference.baselineCall}`;
    case "answer":
      return `turn ${difference.turn}, answer`;
    default:
      return `turn ${difference.turn}, call ${difference.call}`;
  }
}

/**
 * One difference as a line of a code diff:
 * `turn 2, call 1: refund_order $.amount 30 → 300` (raw text).
 */
export function differenceText(difference: Difference): string {
  const at = where(difference);
  switch (difference.kind) {
    case "added":
      return `${at}: ${difference.name}(${shown(difference.arguments)}) added`;
    case "dropped":
      return `${at}: ${difference.name}(${shown(difference.arguments)}) dropped`;
    case "arguments":
      return `${at}: ${difference.name} ${difference.path} ${shown(difference.before)} → ${shown(difference.after)}`;
    case "output": {
      const failed =
        difference.error === undefined || difference.error.before === difference.error.after
          ? ""
          : difference.error.after
            ? " (now a tool error)"
            : " (no longer a tool error)";
      return `${at}: ${difference.name} output ${shown(difference.before)} → ${shown(difference.after)}${failed}`;
    }
    case "moved":
      return `${at}: ${difference.name} moved (baseline: call ${difference.baselineCall})`;
    case "serial":
      return `${at}: ${difference.name} now made after ${difference.with.join(", ")}, not together`;
    case "parallel":
      return `${at}: ${difference.name} now made together with ${difference.with.join(", ")}`;
    case "answer":
      return `${at}: ${shown(difference.before)} → ${shown(difference.after)}`;
  }
}

/** How often each side parts here: `baseline: same in 5 of 5 runs; new: 2 of 3 runs`. */
export function noiseText(at: DivergenceAt, divergence: CaseDivergence): string {
  const same = divergence.baselineRuns - at.baselineRuns;
  const baseline = `baseline: same in ${same} of ${divergence.baselineRuns} run${divergence.baselineRuns === 1 ? "" : "s"}`;
  const now = divergence.runs === 1 ? "" : `; new: ${at.runs} of ${divergence.runs} runs`;
  return `${baseline}${now}${at.verdict === "flaky" ? "; flaky, set aside" : ""}`;
}

/** The one-line count of a comparison, for every output: regressions and the noise set aside. */
export function divergenceSummary(comparison: TrajectoryComparison): string {
  const parted = comparison.diverged.filter((divergence) => divergence.places.length > 0).length;
  const noise =
    comparison.flaky === 0
      ? "no noise set aside"
      : `${comparison.flaky} flaky place${comparison.flaky === 1 ? "" : "s"} set aside (the baseline's own runs differ there)`;
  const errors =
    comparison.errors === 0
      ? ""
      : `; ${comparison.errors} case${comparison.errors === 1 ? "" : "s"} could not be compared`;
  const unread =
    comparison.unreadable === 0
      ? ""
      : `; ${comparison.unreadable} run${comparison.unreadable === 1 ? "" : "s"} could not be read`;
  const without =
    comparison.withoutCalls === 0
      ? ""
      : `; ${comparison.withoutCalls} case${comparison.withoutCalls === 1 ? "" : "s"} without calls at hand, not compared`;
  return `${parted} of ${comparison.compared} case${comparison.compared === 1 ? "" : "s"} part from the baseline: ${comparison.regressions} regression${comparison.regressions === 1 ? "" : "s"}, ${noise}${errors}${unread}${without}`;
}

export interface DivergenceReportOptions {
  /** ANSI colours. Default false. */
  readonly color?: boolean;
  /** Cases listed at most. Default 20. */
  readonly maxCases?: number;
  /** Later places listed per case at most. Default 5. */
  readonly maxPlaces?: number;
}

/**
 * The trajectory diff for the console: a count, then each case that parts from the baseline with
 * its first divergence and the places that follow, each with how often the baseline's own runs
 * part there.
 */
export function formatDivergences(
  comparison: TrajectoryComparison,
  options: DivergenceReportOptions = {},
): string {
  const paint = (code: string, text: string) =>
    options.color === true ? `\u001b[${code}m${text}\u001b[0m` : text;
  const maxCases = options.maxCases ?? 20;
  const maxPlaces = options.maxPlaces ?? 5;
  const out = [`Trajectories: ${divergenceSummary(comparison)}`];
  const ordered = casesToShow(comparison);
  for (const divergence of ordered.slice(0, maxCases)) {
    const id = printable(divergence.id);
    if (divergence.error !== undefined) {
      out.push(`${paint("31", "✗")} ${id}: not compared: ${printable(divergence.error)}`);
      continue;
    }
    const [first, ...rest] = divergence.places;
    const mark = divergence.regressions > 0 ? paint("31", "✗") : paint("2", "~");
    const kind = divergence.regressions > 0 ? "parts from the baseline" : "noise only";
    out.push(`${mark} ${id}: ${kind}`);
    out.push(
      `    ${printable(differenceText(first.difference))}  (${noiseText(first, divergence)})`,
    );
    // The two calls where the runs part, one above the other.
    const row = divergence.rows?.find((candidate) => candidate.first === true);
    if (row !== undefined) {
      const side = (label: string, call: AlignedCall | undefined) =>
        `      ${label} ${call === undefined ? "(no call)" : printable(alignedCallText(call))}`;
      out.push(side("baseline", row.baseline), side("new     ", row.current));
    }
    for (const at of rest.slice(0, maxPlaces)) {
      out.push(
        `      then ${printable(differenceText(at.difference))}  (${noiseText(at, divergence)})`,
      );
    }
    if (rest.length > maxPlaces) out.push(`      … and ${rest.length - maxPlaces} more`);
  }
  if (ordered.length > maxCases) {
    out.push(`… and ${ordered.length - maxCases} more cases (--json lists them all)`);
  }
  const only = [
    [comparison.onlyInBaseline, "only in the baseline"],
    [comparison.onlyInCurrent, "only in the new run"],
  ] as const;
  for (const [ids, side] of only) {
    if (ids.length === 0) continue;
    const listed = ids.slice(0, 10).map(printable).join(", ");
    out.push(
      `${ids.length} case${ids.length === 1 ? "" : "s"} ${side}: ${listed}${ids.length > 10 ? ", …" : ""}`,
    );
  }
  return out.join("\n");
}

/** One call of an aligned row on one line: `refund_order({"order":"A1","amount":30})`. */
export function alignedCallText(call: AlignedCall): string {
  const text = formatToolCall(call, { maxArgumentsLength: 100 });
  return `${text}${call.isError === true ? " (tool error)" : ""}`;
}

/** The cases a report shows first: those with regressions (or not compared), then the noise. */
export function casesToShow(comparison: TrajectoryComparison): CaseDivergence[] {
  return [
    ...comparison.diverged.filter((divergence) => divergence.regressions > 0 || divergence.error),
    ...comparison.diverged.filter(
      (divergence) => divergence.regressions === 0 && divergence.error === undefined,
    ),
  ];
}

/** Rows shown per case at most, in reports. */
export const maxShownRows = 60;
