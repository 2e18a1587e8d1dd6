/**
 * Two runs of one case compared call by call, as a code diff compares two files: the calls both
 * runs open with identically (under the run's rules) and the ones they close with are set aside,
 * the calls between are aligned optimally (same tool; the closest arguments and outputs; nearer
 * positions on ties), and what remains is named: calls added and dropped, arguments changed by
 * path, outputs changed, calls moved (off the longest run of pairs kept in order), calls made
 * together that are now apart and the reverse. The first difference is where the runs part.
 */
import { assignmentWork, optimalAssignment } from "../algorithms/optimal-assignment.js";
import { LimitExceededError } from "../core/errors.js";
import type { ArgumentVerdict } from "../core/explanation.js";
import { jsonEquals } from "../core/json.js";
import type { JsonValue } from "../core/json.js";
import type {
  AlignedCall,
  AlignedRow,
  Difference,
  TrajectoryDiff,
} from "../core/trajectory-diff.js";
import { compareArguments } from "../matchers/compare-arguments.js";
import { outputSaysError } from "../metrics/call-scope.js";
import type { DiffRules } from "./diff-rules.js";
import { rulesOfTool } from "./diff-rules.js";
import type { DiffCall, DiffRun, DiffTurn } from "./diff-run.js";

export interface DiffTrajectoriesOptions {
  readonly baseline: DiffRun;
  readonly candidate: DiffRun;
  /** From `resolveDiffOptions`. */
  readonly rules: DiffRules;
  /** Give the two runs call by call too (`rows`), for reports. Default false. */
  readonly align?: boolean;
}

/** Alignments larger than this are refused (a few seconds of work) rather than run. */
export const maxDiffAssignmentWork = 2e8;

/** A call ready to compare: its tool's name as compared, and where it sits. */
interface Placed {
  readonly call: DiffCall;
  readonly name: string;
  /** Its position among the turn's calls (all of them, as people count from 0). */
  readonly position: number;
  readonly step: number;
  /** Whether it opens a step (the previous compared call was made apart from it). */
  readonly opens: boolean;
  readonly error: boolean;
  /** Which call of its tool in the turn it is (1-based), for its place. */
  readonly occurrence: number;
}

/**
 * The turn's calls as compared. `grouped`: both runs say which calls were made together; when one
 * does not (a plain call list), every call stands alone on both sides, so that grouping is not
 * compared where it is not known.
 */
function placedCalls(turn: DiffTurn | undefined, rules: DiffRules, grouped: boolean): Placed[] {
  const placed: Placed[] = [];
  if (turn === undefined) return placed;
  const { normalizeName, inScope, errorOutput } = rules.match;
  const seen = new Map<string, number>();
  turn.calls.forEach((call, position) => {
    const name = normalizeName === undefined ? call.name : normalizeName(call.name);
    if (inScope !== undefined && !inScope(name)) return;
    const step = (grouped ? turn.steps?.[position] : undefined) ?? -1 - position;
    const occurrence = (seen.get(name) ?? 0) + 1;
    seen.set(name, occurrence);
    const error =
      call.isError === true ||
      (errorOutput !== undefined && outputSaysError(call.output, errorOutput));
    const previous = placed.at(-1);
    placed.push({
      call,
      name,
      position,
      step,
      opens: previous === undefined || previous.step !== step,
      error,
      occurrence,
    });
  });
  return placed;
}

/** How two calls of one tool compare: arguments in [0, 1], and whether the outputs agree. */
interface Likeness {
  readonly arguments: number;
  readonly output: boolean;
}

function likeness(before: Placed, after: Placed, rules: DiffRules): Likeness {
  const tool = rulesOfTool(rules, before.name);
  const a = before.call;
  const b = after.call;
  let args: number;
  if (a.invalidArguments !== undefined || b.invalidArguments !== undefined) {
    args = a.invalidArguments === b.invalidArguments ? 1 : 0;
  } else if (jsonEquals(a.arguments, b.arguments)) {
    args = 1;
  } else {
    args = compareArguments(a.arguments, b.arguments, {
      rules: tool.arguments,
      schema: tool.schema,
      coerceTypes: rules.match.coerceTypes,
      schemaDefaults: rules.match.schemaDefaults,
    });
  }
  const output =
    !rules.outputs ||
    (before.error === after.error && outputsAgree(a.output, b.output, tool.output));
  return { arguments: args, output };
}

function outputsAgree(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  rules: ReturnType<typeof rulesOfTool>["output"],
): boolean {
  const a = before ?? null;
  const b = after ?? null;
  return jsonEquals(a, b) || compareArguments(a, b, { rules }) === 1;
}

function identical(before: Placed, after: Placed, rules: DiffRules): boolean {
  if (before.name !== after.name || before.opens !== after.opens) return false;
  const same = likeness(before, after, rules);
  return same.arguments === 1 && same.output;
}

/** The pairs of one turn: baseline position → candidate position (indices into the placed lists). */
interface TurnPairs {
  readonly ofBaseline: Int32Array;
  readonly ofCandidate: Int32Array;
  /** The middle's pairs that fall off the longest run kept in order: moved. */
  readonly moved: ReadonlySet<number>;
}

/** Indices (into `values`) of a longest strictly increasing subsequence. */
function longestIncreasing(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const before = new Int32Array(values.length).fill(-1);
  for (let at = 0; at < values.length; at++) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (values[tails[middle]] < values[at]) low = middle + 1;
      else high = middle;
    }
    if (low > 0) before[at] = tails[low - 1];
    tails[low] = at;
  }
  const kept = new Set<number>();
  for (let at = tails.at(-1) ?? -1; at !== -1; at = before[at]) kept.add(at);
  return kept;
}

function pairTurn(baseline: Placed[], candidate: Placed[], rules: DiffRules): TurnPairs {
  const ofBaseline = new Int32Array(baseline.length).fill(-1);
  const ofCandidate = new Int32Array(candidate.length).fill(-1);
  let start = 0;
  while (
    start < baseline.length &&
    start < candidate.length &&
    identical(baseline[start], candidate[start], rules)
  ) {
    ofBaseline[start] = start;
    ofCandidate[start] = start;
    start++;
  }
  let endB = baseline.length;
  let endC = candidate.length;
  while (
    endB > start &&
    endC > start &&
    identical(baseline[endB - 1], candidate[endC - 1], rules)
  ) {
    endB--;
    endC--;
    ofBaseline[endB] = endC;
    ofCandidate[endC] = endB;
  }
  const rows = endB - start;
  const cols = endC - start;
  const moved = new Set<number>();
  if (rows === 0 || cols === 0) return { ofBaseline, ofCandidate, moved };
  if (assignmentWork(rows, cols) > maxDiffAssignmentWork) {
    throw new LimitExceededError({
      limit: "maxDiffAssignmentWork",
      maximum: maxDiffAssignmentWork,
      message: `a turn of ${baseline.length} and ${candidate.length} calls is too large to align (${rows} × ${cols} calls differ)`,
    });
  }
  // Same tool: at least 0.5, then the arguments' likeness, then the outputs'; a hair for nearness
  // so that equal calls pair in order.
  const spread = rows + cols + 1;
  const score = (row: number, col: number): number => {
    const before = baseline[start + row];
    const after = candidate[start + col];
    if (before.name !== after.name) return 0;
    const same = likeness(before, after, rules);
    return (
      0.5 + 0.3 * same.arguments + (same.output ? 0.2 : 0) - (1e-6 * Math.abs(row - col)) / spread
    );
  };
  const pairs = optimalAssignment({ rows, cols, score });
  for (const pair of pairs) {
    ofBaseline[start + pair.row] = start + pair.col;
    ofCandidate[start + pair.col] = start + pair.row;
  }
  // In the new run's order, the pairs off a longest increasing run of baseline positions moved;
  // on ties the later ones are kept, so that the call named moved is the one met first.
  const byCol = [...pairs].sort((x, y) => x.col - y.col);
  const kept = longestIncreasing(byCol.map((pair) => pair.row));
  byCol.forEach((pair, at) => {
    if (!kept.has(at)) moved.add(start + pair.row);
  });
  return { ofBaseline, ofCandidate, moved };
}

/**
 * A difference with its sort keys: the earlier of its two positions, then its position in the
 * new run (the baseline's for a dropped call), then its kind's rank.
 */
interface Keyed {
  readonly key: number;
  readonly then: number;
  readonly rank: number;
  readonly difference: Difference;
}

const ranks: Readonly<Record<Difference["kind"], number>> = {
  arguments: 0,
  output: 1,
  serial: 2,
  parallel: 3,
  moved: 4,
  dropped: 5,
  added: 6,
  answer: 7,
};

function argumentDifferences(before: DiffCall, after: DiffCall, rules: DiffRules, name: string) {
  if (before.invalidArguments !== undefined || after.invalidArguments !== undefined) {
    return [
      {
        path: "$",
        before: before.invalidArguments ?? before.arguments,
        after: after.invalidArguments ?? after.arguments,
      },
    ];
  }
  const tool = rulesOfTool(rules, name);
  const verdicts: ArgumentVerdict[] = [];
  compareArguments(before.arguments, after.arguments, {
    rules: tool.arguments,
    schema: tool.schema,
    coerceTypes: rules.match.coerceTypes,
    schemaDefaults: rules.match.schemaDefaults,
    verdicts,
  });
  const changed = verdicts
    .filter((verdict) => verdict.verdict !== "match")
    .map((verdict) => ({
      path: verdict.path,
      ...(verdict.verdict === "unexpected" || verdict.expected === undefined
        ? {}
        : { before: verdict.expected }),
      ...(verdict.verdict === "missing" || verdict.actual === undefined
        ? {}
        : { after: verdict.actual }),
    }));
  // A rule that scores the whole value (fuzzy text) may leave no path to name.
  return changed.length > 0
    ? changed
    : [{ path: "$", before: before.arguments, after: after.arguments }];
}

/** The calls made in the same step as `at`, other than it. */
function stepMates(placed: Placed[], at: number): number[] {
  const mates: number[] = [];
  const { step } = placed[at];
  for (let other = at - 1; other >= 0 && placed[other].step === step; other--) mates.push(other);
  for (let other = at + 1; other < placed.length && placed[other].step === step; other++) {
    mates.push(other);
  }
  return mates;
}

function turnDifferences(
  turn: number,
  baseline: Placed[],
  candidate: Placed[],
  rules: DiffRules,
  rows: AlignedRow[] | undefined,
): Keyed[] {
  const out: Keyed[] = [];
  const { ofBaseline, ofCandidate, moved } = pairTurn(baseline, candidate, rules);
  const push = (key: number, difference: Difference): void => {
    const then =
      difference.kind === "dropped"
        ? difference.baselineCall
        : difference.kind === "answer"
          ? 0
          : difference.call;
    out.push({ key, then, rank: ranks[difference.kind], difference });
  };
  const changed: boolean[] = [];
  for (let b = 0; b < baseline.length; b++) {
    const had = out.length;
    const before = baseline[b];
    const c = ofBaseline[b];
    const at = `${turn}|`;
    const tool = `${before.name}#${before.occurrence}`;
    if (c === -1) {
      push(b, {
        kind: "dropped",
        turn,
        place: `${at}dropped|${tool}`,
        name: before.call.name,
        baselineCall: before.position + 1,
        arguments: before.call.arguments,
      });
      continue;
    }
    const after = candidate[c];
    const key = Math.min(b, c);
    const paired = {
      turn,
      name: after.call.name,
      call: after.position + 1,
      baselineCall: before.position + 1,
    };
    const same = likeness(before, after, rules);
    if (same.arguments < 1) {
      for (const change of argumentDifferences(before.call, after.call, rules, before.name)) {
        push(key, {
          kind: "arguments",
          ...paired,
          place: `${at}arguments|${tool}|${change.path}`,
          ...change,
        });
      }
    }
    if (!same.output) {
      push(key, {
        kind: "output",
        ...paired,
        place: `${at}output|${tool}`,
        before: before.call.output ?? null,
        after: after.call.output ?? null,
        ...(before.error || after.error
          ? { error: { before: before.error, after: after.error } }
          : {}),
      });
    }
    // Made together before, apart now (or the reverse), with a call that came earlier now.
    const lost = stepMates(baseline, b).filter((mate) => {
      const partner = ofBaseline[mate];
      return partner !== -1 && partner < c && candidate[partner].step !== after.step;
    });
    if (lost.length > 0) {
      push(key, {
        kind: "serial",
        ...paired,
        place: `${at}serial|${tool}`,
        with: lost.map((mate) => baseline[mate].call.name),
      });
    }
    const gained = stepMates(candidate, c).filter((mate) => {
      const partner = ofCandidate[mate];
      return mate < c && partner !== -1 && baseline[partner].step !== before.step;
    });
    if (gained.length > 0) {
      push(key, {
        kind: "parallel",
        ...paired,
        place: `${at}parallel|${tool}`,
        with: gained.map((mate) => candidate[mate].call.name),
      });
    }
    if (moved.has(b)) push(key, { kind: "moved", ...paired, place: `${at}moved|${tool}` });
    changed[b] = out.length > had;
  }
  for (let c = 0; c < candidate.length; c++) {
    const after = candidate[c];
    if (ofCandidate[c] !== -1) continue;
    push(c, {
      kind: "added",
      turn,
      place: `${turn}|added|${after.name}#${after.occurrence}`,
      name: after.call.name,
      call: after.position + 1,
      arguments: after.call.arguments,
    });
  }
  if (rows !== undefined) {
    alignedRows(turn, baseline, candidate, { ofBaseline, ofCandidate, moved, changed }, rows);
  }
  return out;
}

function alignedCall(placed: Placed): AlignedCall {
  const { call } = placed;
  return {
    call: placed.position + 1,
    name: call.name,
    arguments: call.arguments,
    ...(call.output === undefined ? {} : { output: call.output }),
    ...(placed.error ? { isError: true } : {}),
  };
}

/**
 * The turn's calls as rows, in the new run's order, each dropped call where the baseline made it;
 * a call both made sits on one row with its partner.
 */
function alignedRows(
  turn: number,
  baseline: Placed[],
  candidate: Placed[],
  pairs: TurnPairs & { readonly changed: readonly boolean[] },
  rows: AlignedRow[],
): void {
  const { ofBaseline, ofCandidate, moved, changed } = pairs;
  const dropped = (b: number): void => {
    if (ofBaseline[b] === -1)
      rows.push({ turn, kind: "dropped", baseline: alignedCall(baseline[b]) });
  };
  let next = 0;
  for (let c = 0; c < candidate.length; c++) {
    const current = alignedCall(candidate[c]);
    const partner = ofCandidate[c];
    if (partner === -1) {
      rows.push({ turn, kind: "added", current });
      continue;
    }
    for (; next < partner; next++) dropped(next);
    const kind = moved.has(partner) ? "moved" : changed[partner] ? "changed" : "same";
    rows.push({ turn, kind, baseline: alignedCall(baseline[partner]), current });
  }
  for (; next < baseline.length; next++) dropped(next);
}

function normalizedAnswer(answer: string | undefined): string | undefined {
  return answer?.trim().replace(/\s+/g, " ");
}

/**
 * How the candidate run of a case differs from the baseline's, in reading order (see the file's
 * head); no differences when the runs are identical under the rules. Throws a
 * `LimitExceededError` for a turn too large to align.
 */
export function diffTrajectories(options: DiffTrajectoriesOptions): TrajectoryDiff {
  const { baseline, candidate, rules } = options;
  const differences: Difference[] = [];
  const rows: AlignedRow[] | undefined = options.align === true ? [] : undefined;
  const turns = Math.max(baseline.turns.length, candidate.turns.length);
  for (let index = 0; index < turns; index++) {
    const turn = index + 1;
    const before = baseline.turns[index] as DiffTurn | undefined;
    const after = candidate.turns[index] as DiffTurn | undefined;
    const grouped = before?.steps !== undefined && after?.steps !== undefined;
    const keyed = turnDifferences(
      turn,
      placedCalls(before, rules, grouped),
      placedCalls(after, rules, grouped),
      rules,
      rows,
    );
    keyed.sort((x, y) => x.key - y.key || x.then - y.then || x.rank - y.rank);
    for (const { difference } of keyed) differences.push(difference);
    if (rules.answers) {
      const was = normalizedAnswer(before?.answer);
      const now = normalizedAnswer(after?.answer);
      if (was !== now) {
        differences.push({
          kind: "answer",
          turn,
          place: `${turn}|answer`,
          before: before?.answer,
          after: after?.answer,
        });
      }
    }
  }
  return rows === undefined
    ? { differences }
    : { differences, rows: markFirst(rows, differences[0]) };
}

/** The rows with the one where the runs part marked (none for an answer's difference). */
function markFirst(rows: AlignedRow[], first: Difference | undefined): AlignedRow[] {
  if (first === undefined || first.kind === "answer") return rows;
  const at = rows.findIndex(
    (row) =>
      row.turn === first.turn &&
      (first.kind === "dropped"
        ? row.baseline?.call === first.baselineCall && row.current === undefined
        : row.current?.call === first.call),
  );
  if (at !== -1) rows[at] = { ...rows[at], first: true };
  return rows;
}
