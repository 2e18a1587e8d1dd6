import { candidatesOf } from "./score-matrix.js";
import { weightedLcs } from "./weighted-lcs.js";
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
 * A valid pairing's total, found greedily: each column, in order, takes the best-scoring row still
 * open (ties to the row whose settled set is smallest as a number: earlier rows first). Often
 * optimal when calls follow the order, which makes it a strong bound.
 */
function greedyTotal(
  matrix: ScoreMatrix,
  rowsOf: readonly (readonly number[])[],
  closure: readonly bigint[],
  bits: readonly bigint[],
): number {
  let settled = 0n;
  let total = 0;
  for (let col = 0; col < matrix.cols; col++) {
    let best = -1;
    let bestScore = 0;
    for (const row of rowsOf[col]) {
      if ((settled & bits[row]) !== 0n) continue;
      const score = matrix.score(row, col);
      if (score > bestScore || (score === bestScore && best >= 0 && closure[row] < closure[best])) {
        best = row;
        bestScore = score;
      }
    }
    if (best >= 0) {
      settled |= closure[best];
      total += bestScore;
    }
  }
  return total;
}

/**
 * For each row, the first row interchangeable with it (itself if none): rows are interchangeable when
 * they have the same predecessors and successors and score the same against every column (a
 * group of identical parallel calls). Pairing them in index order loses nothing and keeps the
 * states from multiplying by the ways to choose among copies.
 */
function interchangeableRows(
  matrix: ScoreMatrix,
  predecessors: readonly (readonly number[])[],
  rowsOf: readonly (readonly number[])[],
): number[] {
  const rows = matrix.rows;
  const successors: number[][] = Array.from({ length: rows }, () => []);
  for (let row = 0; row < rows; row++)
    for (const before of predecessors[row] ?? []) successors[before].push(row);
  const colsOf: number[][] = Array.from({ length: rows }, () => []);
  rowsOf.forEach((list, col) => {
    for (const row of list) colsOf[row].push(col);
  });
  const classOf = new Array<number>(rows);
  const firstWithKey = new Map<string, number>();
  const sameScores = (a: number, b: number): boolean => {
    const cols = colsOf[a];
    if (cols.length !== colsOf[b].length) return false;
    return cols.every(
      (col, k) => colsOf[b][k] === col && matrix.score(a, col) === matrix.score(b, col),
    );
  };
  for (let row = 0; row < rows; row++) {
    const sorted = (list: readonly number[]) => [...list].sort((a, b) => a - b).join(",");
    // A cheap fingerprint of the row's scores; equality is then checked for real.
    let hash = colsOf[row].length;
    for (const col of colsOf[row]) {
      hash = (Math.imul(hash, 31) + col) | 0;
      hash = (Math.imul(hash, 31) + Math.round(matrix.score(row, col) * 1e9)) | 0;
    }
    const key = `${sorted(predecessors[row] ?? [])}|${sorted(successors[row])}|${hash}`;
    const first = firstWithKey.get(key);
    if (first === undefined) firstWithKey.set(key, row);
    classOf[row] = first !== undefined && sameScores(first, row) ? first : row;
  }
  return classOf;
}

/** The rows in an order that respects `predecessors` (ties by index): a linear extension. */
function linearExtension(predecessors: readonly (readonly number[])[], rows: number): number[] {
  const waiting = new Array<number>(rows).fill(0);
  const successors: number[][] = Array.from({ length: rows }, () => []);
  for (let row = 0; row < rows; row++) {
    for (const before of predecessors[row] ?? []) {
      waiting[row]++;
      successors[before].push(row);
    }
  }
  // Rows become ready in index order; a binary heap would only matter for huge wide orders.
  const ready: number[] = [];
  for (let row = rows - 1; row >= 0; row--) if (waiting[row] === 0) ready.push(row);
  const order: number[] = [];
  while (ready.length > 0) {
    let at = 0;
    for (let k = 1; k < ready.length; k++) if (ready[k] < ready[at]) at = k;
    const row = ready[at];
    ready[at] = ready[ready.length - 1];
    ready.pop();
    order.push(row);
    for (const after of successors[row]) if (--waiting[after] === 0) ready.push(after);
  }
  return order;
}

/** `matrix` with its rows taken in `order`. */
function reorderRows(matrix: ScoreMatrix, order: readonly number[]): ScoreMatrix {
  return {
    rows: order.length,
    cols: matrix.cols,
    score: (row, col) => matrix.score(order[row], col),
    ...(matrix.candidates
      ? {
          candidates: (row: number) =>
            (matrix.candidates as (r: number) => readonly number[])(order[row]),
        }
      : {}),
  };
}

/**
 * Drops every state that another one dominates: a state whose settled rows include all of
 * another's, with no higher total, can do nothing the other cannot do at least as well (every row
 * still open to it is open to the other). What remains is the Pareto frontier of (settled rows,
 * total), which for groups in sequence is a handful of states per column instead of thousands.
 */
function withoutDominated(states: State[]): State[] {
  if (states.length < 2) return states;
  // Highest total first (ties in the order offered), so a dominating state is met first.
  const order = states.map((_, index) => index);
  order.sort((a, b) => states[b].total - states[a].total || a - b);
  const frontier: State[] = [];
  for (const index of order) {
    const state = states[index];
    let dominated = false;
    for (const other of frontier) {
      if ((other.ideal & ~state.ideal) === 0n) {
        dominated = true;
        break;
      }
    }
    if (!dominated) frontier.push(state);
  }
  return frontier;
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

  const bits = Array.from({ length: rows }, (_, row) => 1n << BigInt(row));
  const classOf = interchangeableRows(matrix, options.predecessors, rowsOf);
  // Per state, which classes already offered their first open row (stamped, not cleared).
  const offered = new Array<number>(rows).fill(-1);
  let stamp = 0;

  // Branch and bound: a state that cannot reach the total of a known valid pairing, even if
  // every later column paired at its best score, is dropped. The known pairing is the in-order
  // alignment along one linear extension of the order, which is valid under the partial order.
  const suffix = new Array<number>(matrix.cols + 1).fill(0);
  for (let col = matrix.cols - 1; col >= 0; col--) {
    let top = 0;
    for (const row of rowsOf[col]) top = Math.max(top, matrix.score(row, col));
    suffix[col] = suffix[col + 1] + top;
  }
  const known = Math.max(
    weightedLcs(reorderRows(matrix, linearExtension(options.predecessors, rows))).total,
    greedyTotal(matrix, rowsOf, closure, bits),
  );
  // Sums taken in another order may differ in the last bits; never prune on such a hair.
  const floor = known - 1e-9 * (1 + known);

  let states = 1;
  const layers: State[][] = [[{ total: 0, previous: -1, row: -1, ideal: 0n }]];
  for (let col = 0; col < matrix.cols; col++) {
    const previous = layers[col];
    const next: State[] = [];
    const byIdeal = new Map<bigint, number>();
    const reachable = suffix[col + 1];
    const offer = (state: State): void => {
      if (state.total + reachable < floor) return;
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
      stamp++;
      for (const row of rowsOf[col]) {
        if ((state.ideal & bits[row]) !== 0n) continue;
        // Of interchangeable rows (all listed here, ascending), only the first one still open
        // may pair: the others would give the same totals from states that differ only by
        // which copy was used.
        if (offered[classOf[row]] === stamp) continue;
        offered[classOf[row]] = stamp;
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
    const kept = withoutDominated(next);
    states += kept.length;
    if (states > maxStates) throw new StateLimitError(states, maxStates);
    layers.push(kept);
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
