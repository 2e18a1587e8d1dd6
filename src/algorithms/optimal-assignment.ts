import { zeros } from "./buffers.js";
import type { Numbers } from "./buffers.js";
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

/** The scores as a dense row-major array; 0 marks pairs that cannot be made. */
function denseWeights(matrix: ScoreMatrix): Numbers {
  const weight = zeros(matrix.rows * matrix.cols);
  for (let r = 0; r < matrix.rows; r++) {
    if (!matrix.candidates) {
      for (let c = 0; c < matrix.cols; c++) {
        const score = matrix.score(r, c);
        if (score > 0) weight[r * matrix.cols + c] = score;
      }
      continue;
    }
    for (const c of matrix.candidates(r)) {
      const score = matrix.score(r, c);
      if (score > 0) weight[r * matrix.cols + c] = score;
    }
  }
  return weight;
}

/**
 * The Hungarian algorithm in its shortest-augmenting-path form (one row at a time, potentials on
 * both sides), for unit capacities: O(n²m) in the worst case, and close to O(nm) when most rows
 * find a free best column at once, as real tool-call matrices do. With scores ≥ 0 and 0 standing
 * for "no pair", a min-cost assignment of the smaller side is a maximum-weight matching; the
 * zero-score pairs are then dropped.
 */
function hungarian(weight: Numbers, rows: number, cols: number): Flow[] {
  const transposed = rows > cols;
  const n = transposed ? cols : rows;
  const m = transposed ? rows : cols;
  // 1-based, as the algorithm's bookkeeping uses index 0 as the virtual start column.
  const u = zeros(n + 1);
  const v = zeros(m + 1);
  const owner = zeros(m + 1); // owner[j]: the row assigned to column j, 0 if none
  const way = zeros(m + 1);
  const minimum = zeros(m + 1);
  const used = zeros(m + 1);
  const cost = transposed
    ? (i: number, j: number) => -weight[(j - 1) * cols + (i - 1)]
    : (i: number, j: number) => -weight[(i - 1) * cols + (j - 1)];

  for (let i = 1; i <= n; i++) {
    owner[0] = i;
    let j0 = 0;
    minimum.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = owner[j0];
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j] === 1) continue;
        const reduced = cost(i0, j) - u[i0] - v[j];
        if (reduced < minimum[j]) {
          minimum[j] = reduced;
          way[j] = j0;
        }
        if (minimum[j] < delta) {
          delta = minimum[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j] === 1) {
          u[owner[j]] += delta;
          v[j] -= delta;
        } else {
          minimum[j] -= delta;
        }
      }
      j0 = j1;
    } while (owner[j0] !== 0);
    do {
      const j1 = way[j0];
      owner[j0] = owner[j1];
      j0 = j1;
    } while (j0 !== 0);
  }

  const flows: Flow[] = [];
  for (let j = 1; j <= m; j++) {
    if (owner[j] === 0) continue;
    const row = transposed ? j - 1 : owner[j] - 1;
    const col = transposed ? owner[j] - 1 : j - 1;
    const score = weight[row * cols + col];
    if (score > 0) flows.push({ row, col, count: 1, score });
  }
  flows.sort((a, b) => a.row - b.row);
  return flows;
}

/**
 * Maximum-weight bipartite b-matching: pairs rows with columns (each up to its capacity) so that
 * the total score is as high as possible, using only pairs that score above 0. With unit
 * capacities this is the assignment problem, solved by the Hungarian algorithm; otherwise it is
 * solved exactly as a min-cost flow by successive shortest paths (Dijkstra with potentials),
 * stopping as soon as one more pair would not raise the total. Ties are broken deterministically,
 * so the same input always gives the same pairs.
 */
export function maxWeightFlow(matrix: ScoreMatrix, options: MaxWeightFlowOptions = {}): Flow[] {
  const rows = matrix.rows;
  const cols = matrix.cols;
  if (rows === 0 || cols === 0) return [];
  const rowCapacity = options.rowCapacity ?? new Array<number>(rows).fill(1);
  const colCapacity = options.colCapacity ?? new Array<number>(cols).fill(1);
  const weight = denseWeights(matrix);
  if (rowCapacity.every((c) => c === 1) && colCapacity.every((c) => c === 1)) {
    return hungarian(weight, rows, cols);
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
      // Among equally near nodes the highest index wins: the sink, then columns, then rows. A
      // free column reached by a tight edge then ends the search at once, instead of after every
      // free row (all at distance 0) has been expanded.
      let u = -1;
      let best = Infinity;
      for (let v = 0; v < nodes; v++) {
        if (done[v] === 0 && distance[v] <= best && distance[v] !== Infinity) {
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
