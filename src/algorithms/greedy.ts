import { candidatesOf } from "./score-matrix.js";
import type { Pair, ScoreMatrix } from "./score-matrix.js";

/**
 * Skips columns already used, per shared candidate list, so that pairing many identical calls
 * stays linear instead of rescanning the used prefix for every row.
 */
class UsedColumns {
  private readonly used: Uint8Array;
  private readonly firstFree = new Map<readonly number[], number>();

  constructor(cols: number) {
    this.used = new Uint8Array(cols);
  }

  start(candidates: readonly number[]): number {
    let index = this.firstFree.get(candidates) ?? 0;
    while (index < candidates.length && this.used[candidates[index]] === 1) index++;
    this.firstFree.set(candidates, index);
    return index;
  }

  isUsed(col: number): boolean {
    return this.used[col] === 1;
  }

  use(col: number): void {
    this.used[col] = 1;
  }
}

export interface DeepevalGreedyOptions {
  /**
   * The highest score a pair can have. Once a row finds it, no later column can beat it (ties
   * keep the earliest), so the scan stops. Default `Infinity` (scan everything).
   */
  maxScore?: number;
}

/**
 * The greedy pairing of deepeval's unordered tool correctness: each row in order takes the unused
 * column with the strictly highest score (ties keep the earliest column), if that score is above
 * 0. Used columns are tracked by position. Not optimal; it exists to reproduce deepeval's numbers.
 */
export function deepevalGreedyPairs(
  matrix: ScoreMatrix,
  options: DeepevalGreedyOptions = {},
): Pair[] {
  const maxScore = options.maxScore ?? Infinity;
  const used = new UsedColumns(matrix.cols);
  const pairs: Pair[] = [];
  for (let row = 0; row < matrix.rows; row++) {
    const candidates = candidatesOf(matrix, row);
    let bestScore = 0;
    let bestCol = -1;
    for (let index = used.start(candidates); index < candidates.length; index++) {
      const col = candidates[index];
      if (used.isUsed(col)) continue;
      const score = matrix.score(row, col);
      if (score > bestScore) {
        bestScore = score;
        bestCol = col;
        if (score >= maxScore) break;
      }
    }
    if (bestCol >= 0) {
      used.use(bestCol);
      pairs.push({ row, col: bestCol, score: bestScore });
    }
  }
  return pairs;
}

/**
 * The first-fit pairing of axion's flexible-order tool correctness: each row in order takes the
 * first unused column whose score is above 0. Reproduces axion; not optimal.
 */
export function axionFirstFitPairs(matrix: ScoreMatrix): Pair[] {
  const used = new UsedColumns(matrix.cols);
  const pairs: Pair[] = [];
  for (let row = 0; row < matrix.rows; row++) {
    const candidates = candidatesOf(matrix, row);
    for (let index = used.start(candidates); index < candidates.length; index++) {
      const col = candidates[index];
      if (used.isUsed(col)) continue;
      const score = matrix.score(row, col);
      if (score > 0) {
        used.use(col);
        pairs.push({ row, col, score });
        break;
      }
    }
  }
  return pairs;
}
