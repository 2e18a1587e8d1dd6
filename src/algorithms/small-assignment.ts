import type { Pair, ScoreMatrix } from "./score-matrix.js";

/** Largest side {@link clearBestAssignment} takes: at most 4!/0! = 24 assignments to try. */
export const smallAssignmentSide = 4;

/** Totals closer than this are a tie: the caller's exact method then makes its own choice. */
const tieMargin = 1e-9;

/** The search's state: the weights, the choice being tried and the best one, the best totals. */
interface Search {
  readonly weight: number[];
  readonly pick: number[];
  readonly bestPick: number[];
  readonly small: number;
  readonly large: number;
  readonly width: number;
  readonly byRow: boolean;
  best: number;
  bestMask: number;
  runnerUp: number;
}

/** Tries every choice of members `i..` of the smaller side, with `total` and `mask` so far. */
function search(state: Search, i: number, used: number, total: number, mask: number): void {
  if (i === state.small) {
    // The same positive pairs from another assignment (differing in 0 pairs): the same result.
    if (mask === state.bestMask) return;
    if (total > state.best) {
      state.runnerUp = state.best;
      state.best = total;
      state.bestMask = mask;
      for (let k = 0; k < state.small; k++) state.bestPick[k] = state.pick[k];
    } else if (total > state.runnerUp) state.runnerUp = total;
    return;
  }
  for (let j = 0; j < state.large; j++) {
    if ((used & (1 << j)) !== 0) continue;
    state.pick[i] = j;
    const cell = state.byRow ? i * state.width + j : j * state.width + i;
    const w = state.weight[cell];
    // Positive pairs are added in member order, as a total over the members would be.
    if (w > 0) search(state, i + 1, used | (1 << j), total + w, mask | (1 << cell));
    else search(state, i + 1, used | (1 << j), total, mask);
  }
}

/**
 * The maximum-weight matching of a small matrix (both sides at most {@link smallAssignmentSide};
 * scores ≥ 0, a 0 meaning "no pair"), found by trying every assignment of the smaller side, when
 * one set of positive pairs beats every other by more than a rounding error. Any exact method
 * (the Hungarian algorithm of `maxWeightFlow`) returns that same set then, so callers may use
 * either; on a tie this returns undefined, and the caller's exact method decides as it always
 * has. Pairs come in row order.
 */
export function clearBestAssignment(matrix: ScoreMatrix): Pair[] | undefined {
  const { rows, cols } = matrix;
  if (rows > smallAssignmentSide || cols > smallAssignmentSide) return undefined;
  if (rows === 0 || cols === 0) return [];
  const weight = new Array<number>(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) weight[r * cols + c] = Math.max(0, matrix.score(r, c));
  }
  // The smaller side picks distinct members of the other; `pick[i]` is member i's choice.
  const byRow = rows <= cols;
  const small = byRow ? rows : cols;
  const state: Search = {
    weight,
    pick: new Array<number>(small).fill(0),
    bestPick: new Array<number>(small).fill(0),
    small,
    large: byRow ? cols : rows,
    width: cols,
    byRow,
    best: -1,
    bestMask: -1,
    runnerUp: -1,
  };
  search(state, 0, 0, 0, 0);
  if (state.runnerUp > state.best - tieMargin) return undefined;
  const { bestPick } = state;

  const pairs: Pair[] = [];
  if (byRow) {
    for (let r = 0; r < rows; r++) {
      const score = weight[r * cols + bestPick[r]];
      if (score > 0) pairs.push({ row: r, col: bestPick[r], score });
    }
  } else {
    for (let r = 0; r < rows; r++) {
      let c = 0;
      while (c < cols && bestPick[c] !== r) c++;
      if (c < cols && weight[r * cols + c] > 0)
        pairs.push({ row: r, col: c, score: weight[r * cols + c] });
    }
  }
  return pairs;
}
