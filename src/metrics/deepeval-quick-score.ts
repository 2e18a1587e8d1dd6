import { jsonEquals } from "../core/json.js";
import type { ToolCall } from "../core/tool-call.js";
import { deepevalCompareParams } from "../matchers/deepeval-compare-params.js";

/** Which of deepeval's three computations applies. */
export type DeepevalMode = "default" | "ordering" | "exact";

/** What the quick score needs to know of the resolved options. */
export interface QuickScoreOptions {
  readonly mode: DeepevalMode;
  readonly useParameters: boolean;
  readonly useOutput: boolean;
  /** Only the greedy pairing has a quick path; optimal pairing goes through the matrix. */
  readonly greedy: boolean;
  /** The pair comparisons and alignment cells allowed (`limits`); the quick path stays inside. */
  readonly maxPairEvaluations: number;
  readonly maxAlignmentCells: number;
}

/**
 * Cases with at most this many (expected × called) pairs are scored directly. Beyond it the lazy
 * matrix, which compares each distinct pair once and enforces the limits as it goes, is faster.
 */
export const QUICK_SCORE_MAX_PAIRS = 256;

/**
 * deepeval's score of one expected call against one call made: 0 for another tool; in exact mode
 * 1 or 0; else the parameters' partial credit, and 0 when a compared output differs. Shared by
 * the quick path and the full computation, so the two cannot drift apart.
 */
export function deepevalPairScore(
  e: ToolCall,
  c: ToolCall,
  options: Pick<QuickScoreOptions, "mode" | "useParameters" | "useOutput">,
): number {
  if (e.name !== c.name || e.type !== c.type) return 0;
  if (options.mode === "exact") {
    return (!options.useParameters || jsonEquals(e.inputParameters, c.inputParameters)) &&
      (!options.useOutput || jsonEquals(e.output, c.output))
      ? 1
      : 0;
  }
  let value = 1;
  if (options.useParameters) value *= deepevalCompareParams(e.inputParameters, c.inputParameters);
  if (options.useOutput && !jsonEquals(e.output, c.output)) value = 0;
  return value;
}

/**
 * Where a quick score writes its pairing, when asked (2 × expected.length + 1 numbers): for
 * expected call `row`, the call made it paired with at `2 × row` (-1 for none) and the pair's
 * score at `2 × row + 1`; last, the total as the full computation accumulates it.
 */
export type QuickPairing = number[];

/** Each expected call in turn takes the unused call with the strictly highest score above 0. */
function greedyTotal(
  expected: readonly ToolCall[],
  called: readonly ToolCall[],
  options: QuickScoreOptions,
  pairing: QuickPairing | undefined,
): number {
  // Plain arrays: a typed array of this size costs more to allocate than the scoring.
  const used = new Array<number>(called.length).fill(0);
  let total = 0;
  let row = 0;
  for (const e of expected) {
    let best = 0;
    let bestCol = -1;
    for (let col = 0; col < called.length; col++) {
      if (used[col] === 1) continue;
      const score = deepevalPairScore(e, called[col], options);
      if (score > best) {
        best = score;
        bestCol = col;
        if (score >= 1) break;
      }
    }
    if (bestCol >= 0) {
      used[bestCol] = 1;
      total += best;
    }
    if (pairing !== undefined) {
      pairing[2 * row] = bestCol;
      pairing[2 * row + 1] = best;
    }
    row++;
  }
  return total;
}

/**
 * The weighted LCS total, with the same table, the same backtracking and the same float
 * accumulation (cell minus diagonal, last pair first) as `weightedLcs`, so the bits agree.
 */
function lcsTotal(
  expected: readonly ToolCall[],
  called: readonly ToolCall[],
  options: QuickScoreOptions,
  pairing: QuickPairing | undefined,
): number {
  if (pairing !== undefined) for (let row = 0; row < expected.length; row++) pairing[2 * row] = -1;
  const rows = expected.length;
  const cols = called.length;
  const width = cols + 1;
  // Row 0 and column 0 stay 0.
  const table = new Array<number>((rows + 1) * width).fill(0);
  for (let i = 1; i <= rows; i++) {
    const current = i * width;
    const previous = current - width;
    const e = expected[i - 1];
    for (let j = 1; j <= cols; j++) {
      const up = table[previous + j];
      const left = table[current + j - 1];
      let best = up > left ? up : left;
      const score = deepevalPairScore(e, called[j - 1], options);
      if (score > 0) {
        const diagonal = table[previous + j - 1] + score;
        if (diagonal > best) best = diagonal;
      }
      table[current + j] = best;
    }
  }
  let total = 0;
  let i = rows;
  let j = cols;
  while (i > 0 && j > 0) {
    const current = i * width;
    const value = table[current + j];
    if (value === table[current - width + j]) i--;
    else if (value === table[current + j - 1]) j--;
    else {
      total += value - table[current - width + j - 1];
      if (pairing !== undefined) {
        // The pair's own score: the difference of the cells may differ from it in the last bit.
        pairing[2 * (i - 1)] = j - 1;
        pairing[2 * (i - 1) + 1] = deepevalPairScore(expected[i - 1], called[j - 1], options);
      }
      i--;
      j--;
    }
  }
  return total;
}

/**
 * deepeval's deterministic tool-calling score of a small case, computed directly: no matrix, no
 * pairs, no explanation. Returns `undefined` when the case is too large for this path (or the
 * pairing is optimal); the full computation then gives the same number with its details. With
 * `pairing` (2 × expected.length + 1 numbers), the default and ordering modes write the pairing the
 * full computation would find there, to explain the score from.
 */
export function quickDeepevalScore(
  expected: readonly ToolCall[],
  called: readonly ToolCall[],
  options: QuickScoreOptions,
  pairing?: QuickPairing,
): number | undefined {
  if (options.mode === "exact") {
    // Position by position: linear at any size. The full computation compares at most the
    // shorter list's length of pairs, so it refuses a case only when that is over the budget.
    if (Math.min(expected.length, called.length) > options.maxPairEvaluations) return undefined;
    if (expected.length === 0) return called.length === 0 ? 1 : 0;
    if (expected.length !== called.length) return 0;
    for (let index = 0; index < expected.length; index++) {
      if (deepevalPairScore(expected[index], called[index], options) !== 1) return 0;
    }
    return 1;
  }
  const pairs = expected.length * called.length;
  if (
    pairs > QUICK_SCORE_MAX_PAIRS ||
    pairs > options.maxPairEvaluations ||
    (expected.length + 1) * (called.length + 1) > options.maxAlignmentCells
  ) {
    return undefined;
  }
  if (expected.length === 0) {
    if (pairing !== undefined) pairing[0] = 0;
    return called.length === 0 ? 1 : 0;
  }
  let total: number;
  if (options.mode === "ordering") total = lcsTotal(expected, called, options, pairing);
  else if (options.greedy) total = greedyTotal(expected, called, options, pairing);
  else return undefined;
  if (pairing !== undefined) pairing[2 * expected.length] = total;
  return total / expected.length;
}
