import type { Numbers } from "./buffers.js";

/**
 * Similarities between rows (expected calls) and columns (calls made). A score of 0 or less means
 * the two cannot pair. Algorithms only ever pair by index.
 */
export interface ScoreMatrix {
  readonly rows: number;
  readonly cols: number;
  score(row: number, col: number): number;
  /**
   * The columns that can pair with `row` at all, ascending. When given, algorithms look only
   * there, so calls of other tools cost nothing. Omitted: every column is a candidate.
   */
  candidates?(row: number): readonly number[];
  /**
   * Writes the score of every column of `row` into `target` (0 where the pair cannot be made).
   * Optional: algorithms that need whole rows use it when present, as one tight loop is much
   * faster than a call per cell.
   */
  fillRow?(row: number, target: Numbers): void;
}

/** One row paired with one column, with the pair's score. */
export interface Pair {
  readonly row: number;
  readonly col: number;
  readonly score: number;
}

/** A matrix over a plain array of rows, for tests and small problems. */
export function denseScoreMatrix(values: readonly (readonly number[])[]): ScoreMatrix {
  const cols = values[0]?.length ?? 0;
  values.forEach((row, index) => {
    if (row.length !== cols) {
      throw new RangeError(`row ${index} has ${row.length} columns; row 0 has ${cols}`);
    }
  });
  return {
    rows: values.length,
    cols,
    score: (row, col) => values[row][col],
  };
}

/** Fills `target` with the scores of one row, through `fillRow` when the matrix has it. */
export function fillRowScores(matrix: ScoreMatrix, row: number, target: Numbers): void {
  if (matrix.fillRow) {
    matrix.fillRow(row, target);
    return;
  }
  if (!matrix.candidates) {
    for (let col = 0; col < matrix.cols; col++) target[col] = matrix.score(row, col);
    return;
  }
  target.fill(0);
  for (const col of matrix.candidates(row)) target[col] = matrix.score(row, col);
}

const allColumnsCache = new WeakMap<ScoreMatrix, readonly number[]>();

/** The candidate columns of a row: the matrix's own list, or every column. */
export function candidatesOf(matrix: ScoreMatrix, row: number): readonly number[] {
  if (matrix.candidates) return matrix.candidates(row);
  let all = allColumnsCache.get(matrix);
  if (!all) {
    all = Array.from({ length: matrix.cols }, (_, index) => index);
    allColumnsCache.set(matrix, all);
  }
  return all;
}
