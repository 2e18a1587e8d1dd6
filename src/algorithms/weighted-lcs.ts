import { zeros } from "./buffers.js";
import type { Numbers } from "./buffers.js";
import { fillRowScores } from "./score-matrix.js";
import type { Pair, ScoreMatrix } from "./score-matrix.js";

export interface WeightedLcsOptions {
  /**
   * Tables up to this many cells are kept whole. Larger ones keep one row in every √rows and
   * recompute a block at a time while backtracking: memory O(cols·√rows) for about twice the
   * time. Default 2²² cells (32 MiB).
   */
  fullTableCells?: number;
}

export interface WeightedLcsResult {
  /** The aligned pairs, in row order. */
  readonly pairs: Pair[];
  /**
   * The sum of the pair scores, accumulated as deepeval does (cell minus diagonal neighbour,
   * from the last pair back to the first) so that the float is bit-for-bit the same.
   */
  readonly total: number;
}

const DEFAULT_FULL_TABLE_CELLS = 1 << 22;

/**
 * Weighted longest common subsequence: the order-preserving alignment of rows and columns with
 * the highest total score, with deepeval's tie-breaking. A cell is the maximum of the cell above,
 * the cell to the left, and (when the pair scores above 0) the diagonal plus the pair score.
 * Backtracking from the bottom-right corner prefers up, then left, else takes the diagonal.
 */
export function weightedLcs(
  matrix: ScoreMatrix,
  options: WeightedLcsOptions = {},
): WeightedLcsResult {
  const rows = matrix.rows;
  const cols = matrix.cols;
  const width = cols + 1;
  if (rows === 0 || cols === 0) return { pairs: [], total: 0 };

  const fullTableCells = options.fullTableCells ?? DEFAULT_FULL_TABLE_CELLS;
  // Rows per block; each block is recomputed from its first row, which is kept as a checkpoint.
  const blockRows = (rows + 1) * width <= fullTableCells ? rows : Math.ceil(Math.sqrt(rows + 1));
  const blockCount = Math.ceil(rows / blockRows);
  const checkpoints: Numbers[] = [zeros(width)];
  const block = zeros((blockRows + 1) * width);
  const rowScores = zeros(cols);

  // Fills block rows 1..count from block row 0, which holds table row `firstRow`.
  const computeBlock = (firstRow: number, count: number): void => {
    for (let offset = 1; offset <= count; offset++) {
      const row = firstRow + offset - 1; // matrix row of this table row
      const current = offset * width;
      const previous = current - width;
      fillRowScores(matrix, row, rowScores);
      block[current] = 0;
      for (let j = 1; j <= cols; j++) {
        const up = block[previous + j];
        const left = block[current + j - 1];
        let best = up > left ? up : left;
        const score = rowScores[j - 1];
        if (score > 0) {
          const diagonal = block[previous + j - 1] + score;
          if (diagonal > best) best = diagonal;
        }
        block[current + j] = best;
      }
    }
  };

  const loadBlock = (index: number): number => {
    const firstRow = index * blockRows;
    const count = Math.min(blockRows, rows - firstRow);
    const checkpoint = checkpoints[index];
    for (let k = 0; k < width; k++) block[k] = checkpoint[k];
    computeBlock(firstRow, count);
    return count;
  };

  // Forward pass, keeping the first row of every block.
  for (let index = 0; index < blockCount; index++) {
    const count = loadBlock(index);
    if (index + 1 < blockCount) checkpoints.push(block.slice(count * width, (count + 1) * width));
  }

  // Backtrack; the last block is still loaded.
  const pairs: Pair[] = [];
  let total = 0;
  let loaded = blockCount - 1;
  let i = rows;
  let j = cols;
  while (i > 0 && j > 0) {
    const index = Math.floor((i - 1) / blockRows);
    if (index !== loaded) {
      loadBlock(index);
      loaded = index;
    }
    const current = (i - index * blockRows) * width;
    const previous = current - width;
    const value = block[current + j];
    if (value === block[previous + j]) {
      i--;
    } else if (value === block[current + j - 1]) {
      j--;
    } else {
      total += value - block[previous + j - 1];
      pairs.push({ row: i - 1, col: j - 1, score: matrix.score(i - 1, j - 1) });
      i--;
      j--;
    }
  }
  pairs.reverse();
  return { pairs, total };
}
