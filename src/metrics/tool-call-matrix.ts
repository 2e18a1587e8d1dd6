import type { ScoreMatrix } from "../algorithms/score-matrix.js";
import { LimitExceededError } from "../core/errors.js";
import type { ToolCall } from "../core/tool-call.js";

/** The calls of one tool (same name and type) on both sides. */
export interface ToolGroup {
  readonly name: string;
  readonly type: ToolCall["type"];
  /** Indices of the expected calls of this tool, ascending. */
  readonly rows: readonly number[];
  /** Indices of the calls made to this tool, ascending. */
  readonly cols: readonly number[];
  /** Class of each row (by position in `rows`): rows of one class score alike against anything. */
  readonly rowClasses: Int32Array;
  readonly colClasses: Int32Array;
  readonly rowClassCount: number;
  readonly colClassCount: number;
}

/**
 * The similarity of every expected call to every call made, computed lazily and only where the
 * names and types agree. Identical calls (by `classKey`) share one computation, so 10,000 copies of
 * a call cost one comparison, and a budget stops runaway work with a `LimitExceededError`.
 */
export interface ToolCallMatrix extends ScoreMatrix {
  readonly groups: readonly ToolGroup[];
  /** The group index of an expected call. */
  groupOfRow(row: number): number;
  /** The group index of a call made, or -1 if nothing of that tool was expected. */
  groupOfCol(col: number): number;
  /** The calls made to the same tool as expected call `row`, ascending. */
  candidates(row: number): readonly number[];
  /** How many pair comparisons scoring every pair would take (each distinct pair once, if cached). */
  evaluationsToScoreAll(): number;
  /** The comparison budget this matrix enforces. */
  readonly maxPairEvaluations: number;
}

export interface ToolCallMatrixOptions {
  expected: readonly ToolCall[];
  called: readonly ToolCall[];
  /** The score of one expected call against one call of the same tool, in [0, 1]. */
  score: (expected: ToolCall, called: ToolCall) => number;
  /**
   * A key such that calls with equal keys score the same against anything; lets large inputs
   * compute each distinct pair once. Without it, every call is its own class.
   */
  classKey?: (call: ToolCall) => string;
  /** Pair scores computed at most before a `LimitExceededError`. */
  maxPairEvaluations: number;
}

// Below this many cells, deduplicating calls by key costs more than it saves.
const DEDUPLICATE_ABOVE_CELLS = 4096;
// Per-group caches beyond this many entries are not kept (the evaluation budget still applies).
const MAX_CACHE_ENTRIES = 1 << 22;

function groupKey(call: ToolCall): string {
  return `${call.type}\u0000${call.name}`;
}

interface MutableGroup {
  name: string;
  type: ToolCall["type"];
  rows: number[];
  cols: number[];
}

function classify(
  indices: readonly number[],
  calls: readonly ToolCall[],
  key: ((call: ToolCall) => string) | undefined,
): [Int32Array, number] {
  const classes = new Int32Array(indices.length);
  if (!key) {
    classes.forEach((_, position) => (classes[position] = position));
    return [classes, indices.length];
  }
  const ids = new Map<string, number>();
  indices.forEach((index, position) => {
    const k = key(calls[index]);
    let id = ids.get(k);
    if (id === undefined) {
      id = ids.size;
      ids.set(k, id);
    }
    classes[position] = id;
  });
  return [classes, ids.size];
}

/** Builds the lazy similarity matrix of two lists of tool calls. */
export function toolCallMatrix(options: ToolCallMatrixOptions): ToolCallMatrix {
  const { expected, called, score, maxPairEvaluations } = options;
  const byKey = new Map<string, number>();
  const mutableGroups: MutableGroup[] = [];
  const rowGroup = new Int32Array(expected.length);
  const colGroup = new Int32Array(called.length).fill(-1);
  const rowPosition = new Int32Array(expected.length);
  const colPosition = new Int32Array(called.length);

  expected.forEach((call, row) => {
    const key = groupKey(call);
    let group = byKey.get(key);
    if (group === undefined) {
      group = mutableGroups.length;
      byKey.set(key, group);
      mutableGroups.push({ name: call.name, type: call.type, rows: [], cols: [] });
    }
    const target = mutableGroups[group];
    rowGroup[row] = group;
    rowPosition[row] = target.rows.length;
    target.rows.push(row);
  });
  called.forEach((call, col) => {
    const group = byKey.get(groupKey(call));
    if (group === undefined) return;
    const target = mutableGroups[group];
    colGroup[col] = group;
    colPosition[col] = target.cols.length;
    target.cols.push(col);
  });

  const deduplicate =
    options.classKey !== undefined && expected.length * called.length > DEDUPLICATE_ABOVE_CELLS;
  const classKey = deduplicate ? options.classKey : undefined;
  const groups: ToolGroup[] = mutableGroups.map((group) => {
    const [rowClasses, rowClassCount] = classify(group.rows, expected, classKey);
    const [colClasses, colClassCount] = classify(group.cols, called, classKey);
    return { ...group, rowClasses, colClasses, rowClassCount, colClassCount };
  });
  const caches = groups.map((group) => {
    const size = group.rowClassCount * group.colClassCount;
    return size > 0 && size <= MAX_CACHE_ENTRIES ? new Float64Array(size).fill(Number.NaN) : null;
  });

  let evaluations = 0;
  const evaluate = (row: number, col: number): number => {
    if (++evaluations > maxPairEvaluations) {
      throw new LimitExceededError({
        limit: "maxPairEvaluations",
        maximum: maxPairEvaluations,
        message: `comparing ${expected.length} expected with ${called.length} called tool calls needs more than ${maxPairEvaluations} pair comparisons; raise limits.maxPairEvaluations or split the case`,
      });
    }
    return score(expected[row], called[col]);
  };

  return {
    rows: expected.length,
    cols: called.length,
    groups,
    groupOfRow: (row) => rowGroup[row],
    groupOfCol: (col) => colGroup[col],
    candidates: (row) => groups[rowGroup[row]].cols,
    maxPairEvaluations,
    evaluationsToScoreAll: () =>
      groups.reduce(
        (sum, group, g) =>
          sum +
          (caches[g]
            ? group.rowClassCount * group.colClassCount
            : group.rows.length * group.cols.length),
        0,
      ),
    score(row, col) {
      const g = rowGroup[row];
      if (colGroup[col] !== g) return 0;
      const cache = caches[g];
      if (!cache) return evaluate(row, col);
      const group = groups[g];
      const index =
        group.rowClasses[rowPosition[row]] * group.colClassCount +
        group.colClasses[colPosition[col]];
      const cached = cache[index];
      if (cached === cached) return cached; // not NaN: computed before
      const value = evaluate(row, col);
      cache[index] = value;
      return value;
    },
    fillRow(row, target) {
      target.fill(0);
      const g = rowGroup[row];
      const group = groups[g];
      const cache = caches[g];
      const base = cache ? group.rowClasses[rowPosition[row]] * group.colClassCount : 0;
      const cols = group.cols;
      for (let position = 0; position < cols.length; position++) {
        const col = cols[position];
        if (!cache) {
          target[col] = evaluate(row, col);
          continue;
        }
        const index = base + group.colClasses[position];
        let value = cache[index];
        if (value !== value) {
          value = evaluate(row, col);
          cache[index] = value;
        }
        target[col] = value;
      }
    },
  };
}
