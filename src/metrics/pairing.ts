import { axionFirstFitPairs, deepevalGreedyPairs } from "../algorithms/greedy.js";
import {
  AssignmentScoresError,
  AssignmentWorkError,
  capacitatedAssignment,
} from "../algorithms/capacitated-assignment.js";
import { assignmentWork, maxWeightFlow } from "../algorithms/optimal-assignment.js";
import type { Flow } from "../algorithms/optimal-assignment.js";
import { positionalPairs } from "../algorithms/positional.js";
import { clearBestAssignment } from "../algorithms/small-assignment.js";
import type { Pair, ScoreMatrix } from "../algorithms/score-matrix.js";
import { weightedLcs } from "../algorithms/weighted-lcs.js";
import type { AlignmentAlgorithm } from "../core/explanation.js";
import { LimitExceededError } from "../core/errors.js";
import type { ResolvedMatchLimits } from "./limits.js";
import type { ToolCallMatrix, ToolGroup } from "./tool-call-matrix.js";

export interface Pairing {
  /** The pairs, in row (expected) order. */
  readonly pairs: readonly Pair[];
  /** The sum of the pair scores, accumulated the way the algorithm's reference does. */
  readonly total: number;
}

function sumInRowOrder(pairs: readonly Pair[]): number {
  let total = 0;
  for (const pair of pairs) total += pair.score;
  return total;
}

/**
 * One call on one side: the optimal pairing takes the best-scoring call on the other side, the
 * first of equals (the choice the assignment algorithm makes, found without it).
 */
function bestSingle(matrix: ScoreMatrix, group: ToolGroup): Pair[] {
  let best: Pair | undefined;
  if (group.rows.length === 1) {
    const row = group.rows[0];
    for (const col of group.cols) {
      const score = matrix.score(row, col);
      if (score > 0 && (best === undefined || score > best.score)) best = { row, col, score };
    }
  } else {
    const col = group.cols[0];
    for (const row of group.rows) {
      const score = matrix.score(row, col);
      if (score > 0 && (best === undefined || score > best.score)) best = { row, col, score };
    }
  }
  return best === undefined ? [] : [best];
}

/** Above this many pairs of calls, a group is assigned over classes, searching only as needed. */
const largeGroupCells = 4096;

/**
 * Optimal assignment within one tool's calls, over classes of identical calls: a b-matching whose
 * flows are then spread over the calls so that identical calls pair in list order.
 */
function assignGroup(
  matrix: ToolCallMatrix,
  group: ToolGroup,
  groupIndex: number,
  limits: ResolvedMatchLimits,
): Pair[] {
  if (group.rows.length === 0 || group.cols.length === 0) return [];
  const large = group.rows.length * group.cols.length > largeGroupCells;
  // Small groups are refused up front on an estimate; large ones count their work as they go.
  if (!large) {
    const work = assignmentWork(group.rowClassCount, group.colClassCount);
    if (work > limits.maxAssignmentWork) throw assignmentLimit(group, work, limits);
  }
  if (group.rows.length === 1 || group.cols.length === 1) return bestSingle(matrix, group);
  if (
    !large &&
    group.rowClassCount === group.rows.length &&
    group.colClassCount === group.cols.length
  ) {
    // Every call is its own class: a plain assignment within the group.
    const { rows, cols } = group;
    const within: ScoreMatrix = {
      rows: rows.length,
      cols: cols.length,
      score: (r, c) => matrix.score(rows[r], cols[c]),
    };
    // A few calls a side (most cases): every assignment is tried, which costs less than setting
    // up the Hungarian algorithm; on a tie, that algorithm decides as before.
    const clear = clearBestAssignment(within);
    if (clear !== undefined) {
      return clear.map((pair) => ({ row: rows[pair.row], col: cols[pair.col], score: pair.score }));
    }
    const flows = maxWeightFlow(within);
    return flows.map((flow) => ({ row: rows[flow.row], col: cols[flow.col], score: flow.score }));
  }
  // Members of each class, ascending; the first stands for the class.
  const rowMembers: number[][] = Array.from({ length: group.rowClassCount }, () => []);
  group.rows.forEach((row, position) => rowMembers[group.rowClasses[position]].push(row));
  const colMembers: number[][] = Array.from({ length: group.colClassCount }, () => []);
  group.cols.forEach((col, position) => colMembers[group.colClasses[position]].push(col));

  const classScore = (r: number, c: number) => matrix.score(rowMembers[r][0], colMembers[c][0]);
  const rowCapacity = rowMembers.map((members) => members.length);
  const colCapacity = colMembers.map((members) => members.length);
  let flows: Flow[];
  if (!large) {
    flows = maxWeightFlow(
      { rows: group.rowClassCount, cols: group.colClassCount, score: classScore },
      { rowCapacity, colCapacity },
    );
  } else {
    // Many calls of one tool: identical ones paired first, the search reaching only what is
    // left, its work counted as it goes.
    try {
      flows = capacitatedAssignment({
        rows: group.rowClassCount,
        cols: group.colClassCount,
        rowCapacity,
        colCapacity,
        score: classScore,
        likelyPerfect: matrix.likelyPerfect?.(groupIndex) ?? [],
        maxWork: limits.maxAssignmentWork,
        maxScores: matrix.evaluationsLeft(),
      });
    } catch (error) {
      if (error instanceof AssignmentWorkError) throw assignmentLimit(group, undefined, limits);
      if (error instanceof AssignmentScoresError) {
        // Decided from the sizes, before the comparisons: the same limit, without the wait.
        throw new LimitExceededError({
          limit: "maxPairEvaluations",
          maximum: matrix.maxPairEvaluations,
          message: `optimal pairing of ${group.rows.length} expected and ${group.cols.length} called '${group.name}' calls (${group.rowClassCount} × ${group.colClassCount} distinct, not all of them made as expected) needs at least ${error.needed} more pair comparisons, over limits.maxPairEvaluations (${matrix.maxPairEvaluations}); raise it or split the case`,
        });
      }
      throw error;
    }
  }

  // Each row class hands its members, in order, to its column classes in the order they first
  // occur; each column class then pairs the rows it received with its own members, in order.
  const received: { row: number; score: number }[][] = Array.from(
    { length: group.colClassCount },
    () => [],
  );
  const byRowClass = new Map<number, Flow[]>();
  for (const flow of flows) {
    const list = byRowClass.get(flow.row) ?? [];
    list.push(flow);
    byRowClass.set(flow.row, list);
  }
  for (const [rowClass, list] of byRowClass) {
    const members = rowMembers[rowClass];
    list.sort((a, b) => colMembers[a.col][0] - colMembers[b.col][0]);
    let next = 0;
    for (const flow of list) {
      for (let k = 0; k < flow.count; k++) {
        (received[flow.col] as { row: number; score: number }[]).push({
          row: members[next++],
          score: flow.score,
        });
      }
    }
  }
  const pairs: Pair[] = [];
  received.forEach((rows, colClass) => {
    rows.sort((a, b) => a.row - b.row);
    const members = colMembers[colClass];
    rows.forEach(({ row, score }, k) => pairs.push({ row, col: members[k], score }));
  });
  return pairs;
}

/** The limit error of a group whose optimal pairing takes more work than allowed. */
function assignmentLimit(
  group: ToolGroup,
  estimate: number | undefined,
  limits: ResolvedMatchLimits,
): LimitExceededError {
  const steps =
    estimate === undefined
      ? `takes more than ${limits.maxAssignmentWork.toExponential(1)} steps`
      : `needs about ${estimate.toExponential(1)} steps`;
  return new LimitExceededError({
    limit: "maxAssignmentWork",
    maximum: limits.maxAssignmentWork,
    message: `optimal pairing of ${group.rows.length} expected and ${group.cols.length} called '${group.name}' calls (${group.rowClassCount} × ${group.colClassCount} distinct) ${steps}, over limits.maxAssignmentWork (${limits.maxAssignmentWork.toExponential(1)}); raise it or use greedy matching`,
  });
}

/** The alignments `pairToolCalls` computes (the others have their own code). */
export type PairingAlgorithm = Exclude<
  AlignmentAlgorithm,
  "partial-order" | "ragas-sequence" | "ragas-set"
>;

/**
 * Pairs expected calls with calls made using one of the alignment algorithms. Only calls of the
 * same tool ever pair; pairs are by index.
 */
export function pairToolCalls(
  matrix: ToolCallMatrix,
  algorithm: PairingAlgorithm,
  limits: ResolvedMatchLimits,
): Pairing {
  switch (algorithm) {
    case "deepeval-greedy": {
      const pairs = deepevalGreedyPairs(matrix, { maxScore: 1 });
      return { pairs, total: sumInRowOrder(pairs) };
    }
    case "axion-first-fit": {
      const pairs = axionFirstFitPairs(matrix);
      return { pairs, total: sumInRowOrder(pairs) };
    }
    case "positional": {
      // Position i pairs with position i whenever it is the same tool, even if the pair scores 0,
      // so that the details can say what differed.
      const sameTool: ScoreMatrix = {
        rows: matrix.rows,
        cols: matrix.cols,
        score: (row, col) => (matrix.groupOfRow(row) === matrix.groupOfCol(col) ? 1 : 0),
      };
      const pairs = positionalPairs(sameTool).map(({ row, col }) => ({
        row,
        col,
        score: matrix.score(row, col),
      }));
      return { pairs, total: sumInRowOrder(pairs) };
    }
    case "weighted-lcs": {
      const cells = (matrix.rows + 1) * (matrix.cols + 1);
      if (cells > limits.maxAlignmentCells) {
        throw new LimitExceededError({
          limit: "maxAlignmentCells",
          maximum: limits.maxAlignmentCells,
          message: `ordered alignment of ${matrix.rows} expected with ${matrix.cols} called tool calls needs ${cells} table cells, over limits.maxAlignmentCells (${limits.maxAlignmentCells}); raise it or split the case`,
        });
      }
      // Ordered alignment scores every pair of the same tool; refuse now rather than midway.
      const needed = matrix.evaluationsToScoreAll();
      if (needed > matrix.maxPairEvaluations) {
        throw new LimitExceededError({
          limit: "maxPairEvaluations",
          maximum: matrix.maxPairEvaluations,
          message: `ordered alignment of ${matrix.rows} expected with ${matrix.cols} called tool calls needs ${needed} pair comparisons, over limits.maxPairEvaluations (${matrix.maxPairEvaluations}); raise it or split the case`,
        });
      }
      return weightedLcs(matrix);
    }
    case "optimal-assignment": {
      // Gathered by row rather than sorted: pairs come out in row order.
      const byRow = new Array<Pair | undefined>(matrix.rows);
      matrix.groups.forEach((group, groupIndex) => {
        for (const pair of assignGroup(matrix, group, groupIndex, limits)) byRow[pair.row] = pair;
      });
      const pairs: Pair[] = [];
      for (const pair of byRow) if (pair !== undefined) pairs.push(pair);
      return { pairs, total: sumInRowOrder(pairs) };
    }
  }
}
