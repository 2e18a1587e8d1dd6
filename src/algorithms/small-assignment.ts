import type { Pair, ScoreMatrix } from "./score-matrix.js";

/** Largest side {@link clearBestAssignment} takes: at most 4!/0! = 24 assignments to try. */
export const smallAssignmentSide = 4;

/** Totals closer than this are a tie: the caller's exact method then makes its own choice. */
const tieMargin = 1e-9;

// Scratch for the search (it calls nothing out, so nothing re-enters it): the weights, the
// choice being tried and the best one, and the best totals so far. Allocating them per call
// cost more than the search on the small groups most cases have.
const weight = new Array<number>(smallAssignmentSide * smallAssignmentSide).fill(0);
const pick = new Array<number>(smallAssignmentSide).fill(0);
const bestPick = new Array<number>(smallAssignmentSide).fill(0);
let small = 0;
let large = 0;
let width = 0;
let byRow = true;
let best = -1;
let bestMask = -1;
let runnerUp = -1;

/** Tries every choice of members `i..` of the smaller side, with `total` and `mask` so far. */
function search(i: number, used: number, total: number, mask: number): void {
  if (i === small) {
    // The same positive pairs from another assignment (differing in 0 pairs): the same result.
    if (mask === bestMask) return;
    if (total > best) {
      runnerUp = best;
      best = total;
      bestMask = mask;
      for (let k = 0; k < small; k++) bestPick[k] = pick[k];
    } else if (total > runnerUp) runnerUp = total;
    return;
  }
  for (let j = 0; j < large; j++) {
    if ((used & (1 << j)) !== 0) continue;
    pick[i] = j;
    const cell = byRow ? i * width + j : j * width + i;
    const w = weight[cell];
    // Positive pairs are added in member order, as a total over the members would be.
    if (w > 0) search(i + 1, used | (1 << j), total + w, mask | (1 << cell));
    else search(i + 1, used | (1 << j), total, mask);
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
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) weight[r * cols + c] = Math.max(0, matrix.score(r, c));
  }
  // The smaller side picks distinct members of the other; `pick[i]` is member i's choice.
  byRow = rows <= cols;
  small = byRow ? rows : cols;
  large = byRow ? cols : rows;
  width = cols;
  best = -1;
  bestMask = -1;
  runnerUp = -1;
  search(0, 0, 0, 0);
  if (runnerUp > best - tieMargin) return undefined;

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
