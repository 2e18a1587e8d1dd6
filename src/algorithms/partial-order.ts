import { candidatesOf } from "./score-matrix.js";
import type { Pair, ScoreMatrix } from "./score-matrix.js";

/** Thrown when a partial order is too wide to align exactly within the state budget. */
export class StateLimitError extends RangeError {
  constructor(
    readonly states: number,
    readonly maximum: number,
  ) {
    super(`aligning this partial order needs more than ${maximum} states (${states} reached)`);
    this.name = "StateLimitError";
  }
}

export interface PartialOrderOptions {
  /**
   * For each row, the rows that must come before it (when both are paired). Rows with no
   * predecessors may go anywhere relative to each other.
   */
  predecessors: readonly (readonly number[])[];
  /** DP states (order ideals × positions) at most before a `StateLimitError`. Default 2·10⁶. */
  maxStates?: number;
}

interface State {
  total: number;
  /** Index of the previous state entry, in the previous column's list; -1 at the start. */
  previous: number;
  /** The row paired with this column, or -1. */
  row: number;
  ideal: bigint;
}

/**
 * The best pairing of rows (expected calls under a partial order) with columns (calls in the
 * order they were made) that respects the order: when row `u` must precede row `v` and both are
 * paired, `u`'s column comes first. Unpaired rows and columns are allowed. Exact: a dynamic
 * program over the columns whose state is the set of rows already settled, which is always an
 * order ideal (pairing a row settles all its ancestors: pairing them later would break the
 * order). Layered groups (`[[a, b], [c]]`) have few ideals; wide antichains have many, hence
 * the state budget.
 */
export function partialOrderPairs(matrix: ScoreMatrix, options: PartialOrderOptions): Pair[] {
  const rows = matrix.rows;
  const maxStates = options.maxStates ?? 2_000_000;
  // Each row with all its ancestors, as a bit set.
  const closure: bigint[] = new Array<bigint>(rows).fill(0n);
  const visiting = new Uint8Array(rows);
  const done = new Uint8Array(rows);
  const closeOver = (row: number): bigint => {
    if (done[row] === 1) return closure[row];
    if (visiting[row] === 1)
      throw new RangeError(`the order of expected calls has a cycle through row ${row}`);
    visiting[row] = 1;
    let set = 1n << BigInt(row);
    for (const before of options.predecessors[row] ?? []) set |= closeOver(before);
    visiting[row] = 0;
    done[row] = 1;
    closure[row] = set;
    return set;
  };
  for (let row = 0; row < rows; row++) closeOver(row);

  // The rows each column can pair with.
  const rowsOf: number[][] = Array.from({ length: matrix.cols }, () => []);
  for (let row = 0; row < rows; row++)
    for (const col of candidatesOf(matrix, row)) rowsOf[col].push(row);

  let states = 1;
  const layers: State[][] = [[{ total: 0, previous: -1, row: -1, ideal: 0n }]];
  for (let col = 0; col < matrix.cols; col++) {
    const previous = layers[col];
    const next: State[] = [];
    const byIdeal = new Map<bigint, number>();
    const offer = (state: State): void => {
      const at = byIdeal.get(state.ideal);
      if (at === undefined) {
        byIdeal.set(state.ideal, next.length);
        next.push(state);
      } else if (state.total > next[at].total) {
        next[at] = state;
      }
    };
    previous.forEach((state, index) => {
      offer({ total: state.total, previous: index, row: -1, ideal: state.ideal });
      for (const row of rowsOf[col]) {
        const bit = 1n << BigInt(row);
        if ((state.ideal & bit) !== 0n) continue;
        const score = matrix.score(row, col);
        if (score <= 0) continue;
        offer({
          total: state.total + score,
          previous: index,
          row,
          ideal: state.ideal | closure[row],
        });
      }
    });
    states += next.length;
    if (states > maxStates) throw new StateLimitError(states, maxStates);
    layers.push(next);
  }

  const last = layers[matrix.cols];
  let best = 0;
  last.forEach((state, index) => {
    if (state.total > last[best].total) best = index;
  });
  const pairs: Pair[] = [];
  for (let col = matrix.cols, index = best; col > 0; col--) {
    const state = layers[col][index];
    if (state.row >= 0)
      pairs.push({ row: state.row, col: col - 1, score: matrix.score(state.row, col - 1) });
    index = state.previous;
  }
  return pairs.sort((a, b) => a.row - b.row);
}
