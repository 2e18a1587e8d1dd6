import type { Pair, ScoreMatrix } from "./score-matrix.js";

/** Largest side {@link clearBestAssignment} takes: at most 4!/0! = 24 assignments to try. */
export const smallAssignmentSide = 4;

/** Totals closer than this are a tie: the caller's exact method then makes its own choice. */
const tieMargin = 1e-9;

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
  const large = byRow ? cols : rows;
  const pick = new Array<number>(small).fill(0);
  let best = -1;
  let bestMask = -1;
  let bestPick: number[] = [];
  let runnerUp = -1;

  const consider = () => {
    let total = 0;
    let mask = 0;
    for (let i = 0; i < small; i++) {
      const cell = byRow ? i * cols + pick[i] : pick[i] * cols + i;
      if (weight[cell] > 0) {
        total += weight[cell];
        mask |= 1 << cell;
      }
    }
    // The same positive pairs from another assignment (differing in 0 pairs): the same result.
    if (mask === bestMask) return;
    if (total > best) {
      runnerUp = best;
      best = total;
      bestMask = mask;
      bestPick = pick.slice();
    } else if (total > runnerUp) runnerUp = total;
  };
  const place = (i: number, used: number) => {
    if (i === small) {
      consider();
      return;
    }
    for (let j = 0; j < large; j++) {
      if ((used & (1 << j)) !== 0) continue;
      pick[i] = j;
      place(i + 1, used | (1 << j));
    }
  };
  place(0, 0);
  if (runnerUp > best - tieMargin) return undefined;

  const pairs: Pair[] = [];
  if (byRow) {
    for (let r = 0; r < rows; r++) {
      const score = weight[r * cols + bestPick[r]];
      if (score > 0) pairs.push({ row: r, col: bestPick[r], score });
    }
  } else {
    const colOf = new Array<number>(rows).fill(-1);
    for (let c = 0; c < cols; c++) colOf[bestPick[c]] = c;
    for (let r = 0; r < rows; r++) {
      const c = colOf[r];
      if (c >= 0 && weight[r * cols + c] > 0)
        pairs.push({ row: r, col: c, score: weight[r * cols + c] });
    }
  }
  return pairs;
}
