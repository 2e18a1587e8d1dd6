import type { Pair, ScoreMatrix } from "./score-matrix.js";

/**
 * Pairs row i with column i for every position both lists have, keeping pairs whose score is
 * above 0 (the same tool at the same position). The basis of exact-sequence matching.
 */
export function positionalPairs(matrix: ScoreMatrix): Pair[] {
  const pairs: Pair[] = [];
  const length = Math.min(matrix.rows, matrix.cols);
  for (let index = 0; index < length; index++) {
    const score = matrix.score(index, index);
    if (score > 0) pairs.push({ row: index, col: index, score });
  }
  return pairs;
}
