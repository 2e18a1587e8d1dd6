import { candidatesOf } from "./score-matrix.js";
import type { Pair, ScoreMatrix } from "./score-matrix.js";

export interface MaxWeightFlowOptions {
  /** How many columns each row may take (a row standing for several identical calls). Default 1. */
  rowCapacity?: readonly number[];
  /** How many rows each column may take. Default 1. */
  colCapacity?: readonly number[];
}

/** `count` units of pairing between one row and one column. */
export interface Flow {
  readonly row: number;
  readonly col: number;
  readonly count: number;
  readonly score: number;
}

/**
 * The steps {@link maxWeightFlow} takes on a rows × cols problem, at most. Callers that take
 * untrusted input compare it with a budget before solving (toolscore's metrics refuse problems
 * over about 2·10⁹, a few seconds, with a `LimitExceededError`).
 */
export function assignmentWork(rows: number, cols: number): number {
  return Math.min(rows, cols) * (rows + cols + 2) ** 2;
}

/**
 * Maximum-weight bipartite b-matching: pairs rows with columns (each up to its capacity) so that
 * the total score is as high as possible, using only pairs that score above 0. Solved exactly as a
 * min-cost flow by successive shortest paths (Dijkstra with potentials), stopping as soon as one
 * more pair would not raise the total. Ties are broken deterministically: the lowest index wins
 * at every step, so the same input always gives the same pairs.
 */
export function maxWeightFlow(matrix: ScoreMatrix, options: MaxWeightFlowOptions = {}): Flow[] {
  const rows = matrix.rows;
  const cols = matrix.cols;
  if (rows === 0 || cols === 0) return [];
  const rowCapacity = options.rowCapacity ?? new Array<number>(rows).fill(1);
  const colCapacity = options.colCapacity ?? new Array<number>(cols).fill(1);

  // Dense weights; 0 marks pairs that cannot be made.
  const weight = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (const c of candidatesOf(matrix, r)) {
      const score = matrix.score(r, c);
      if (score > 0) weight[r * cols + c] = score;
    }
  }

  // Nodes: rows 0..rows-1, columns rows..rows+cols-1, source, sink. Edge costs are -weight.
  const source = rows + cols;
  const sink = source + 1;
  const nodes = sink + 1;
  const flow = new Int32Array(rows * cols);
  const rowUsed = new Int32Array(rows);
  const colUsed = new Int32Array(cols);
  const potential = new Float64Array(nodes);
  // Feasible starting potentials: the graph is a DAG (source -> rows -> columns -> sink).
  for (let c = 0; c < cols; c++) {
    let lowest = 0;
    for (let r = 0; r < rows; r++) {
      const w = weight[r * cols + c];
      if (w > 0 && -w < lowest) lowest = -w;
    }
    potential[rows + c] = lowest;
    if (lowest < potential[sink]) potential[sink] = lowest;
  }

  const distance = new Float64Array(nodes);
  const parent = new Int32Array(nodes);
  const done = new Uint8Array(nodes);

  for (;;) {
    distance.fill(Infinity);
    parent.fill(-1);
    done.fill(0);
    distance[source] = 0;
    const relax = (from: number, to: number, cost: number): void => {
      // Rounding can leave a reduced cost a hair below 0; clamping keeps Dijkstra sound.
      const reduced = cost + potential[from] - potential[to];
      const candidate = distance[from] + (reduced > 0 ? reduced : 0);
      if (candidate < distance[to]) {
        distance[to] = candidate;
        parent[to] = from;
      }
    };
    for (;;) {
      let u = -1;
      let best = Infinity;
      for (let v = 0; v < nodes; v++) {
        if (done[v] === 0 && distance[v] < best) {
          best = distance[v];
          u = v;
        }
      }
      if (u < 0 || u === sink) break;
      done[u] = 1;
      if (u === source) {
        for (let r = 0; r < rows; r++) {
          if (rowUsed[r] < rowCapacity[r]) relax(source, r, 0);
        }
      } else if (u < rows) {
        const base = u * cols;
        for (let c = 0; c < cols; c++) {
          const w = weight[base + c];
          if (w > 0 && done[rows + c] === 0) relax(u, rows + c, -w);
        }
      } else {
        const c = u - rows;
        for (let r = 0; r < rows; r++) {
          if (flow[r * cols + c] > 0 && done[r] === 0) {
            relax(u, r, weight[r * cols + c]);
          }
        }
        if (colUsed[c] < colCapacity[c]) relax(u, sink, 0);
      }
    }
    const toSink = distance[sink];
    if (toSink === Infinity) break;
    // The real cost of the path; a pair is worth adding only if it lowers the cost.
    if (toSink + potential[sink] - potential[source] >= 0) break;
    for (let v = 0; v < nodes; v++) {
      const d = distance[v];
      potential[v] = potential[v] + (d < toSink ? d : toSink);
    }

    // Bottleneck capacity along the path.
    let amount = Infinity;
    for (let v = sink; v !== source; v = parent[v]) {
      const u = parent[v];
      if (v === sink) amount = Math.min(amount, colCapacity[u - rows] - colUsed[u - rows]);
      else if (u === source) amount = Math.min(amount, rowCapacity[v] - rowUsed[v]);
      else if (u >= rows) amount = Math.min(amount, flow[v * cols + (u - rows)]);
    }
    for (let v = sink; v !== source; v = parent[v]) {
      const u = parent[v];
      if (v === sink) colUsed[u - rows] = colUsed[u - rows] + amount;
      else if (u === source) rowUsed[v] = rowUsed[v] + amount;
      else if (u < rows) flow[u * cols + (v - rows)] = flow[u * cols + (v - rows)] + amount;
      else flow[v * cols + (u - rows)] = flow[v * cols + (u - rows)] - amount;
    }
  }

  const flows: Flow[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const count = flow[r * cols + c];
      if (count > 0) flows.push({ row: r, col: c, count, score: weight[r * cols + c] });
    }
  }
  return flows;
}

/**
 * Optimal assignment: pairs each row with at most one column and each column with at most one
 * row, maximising the total score over pairs that score above 0. Rectangular matrices are fine.
 * Returns the pairs in row order.
 */
export function optimalAssignment(matrix: ScoreMatrix): Pair[] {
  return maxWeightFlow(matrix).map(({ row, col, score }) => ({ row, col, score }));
}
