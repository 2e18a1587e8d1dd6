import type { Numbers } from "../algorithms/buffers.js";
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
  /**
   * Class of each row (by position in `rows`): rows of one class score alike against anything.
   * Read by position only; the array may be longer than `rows`.
   */
  readonly rowClasses: readonly number[];
  readonly colClasses: readonly number[];
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
  /** Pair comparisons that may still be made before `maxPairEvaluations` is reached. */
  evaluationsLeft(): number;
  /** The comparison budget this matrix enforces. */
  readonly maxPairEvaluations: number;
  fillRow(row: number, target: Numbers): void;
  /**
   * Pairs of a row class and a column class of group `group` likely to score 1 (by
   * `perfectKeys`): a warm start for large assignments. Empty without the option.
   */
  likelyPerfect?(group: number): (readonly [row: number, col: number])[];
}

/** What the matrix needs of a call: its tool's name and type. */
export interface NamedCall {
  readonly name: string;
  readonly type: ToolCall["type"];
}

export interface ToolCallMatrixOptions<
  E extends NamedCall = ToolCall,
  C extends NamedCall = ToolCall,
> {
  expected: readonly E[];
  called: readonly C[];
  /** The score of one expected call against one call of the same tool, in [0, 1]. */
  score: (expected: E, called: C, row: number, col: number) => number;
  /**
   * A key such that calls with equal keys score the same against anything; lets large inputs
   * compute each distinct pair once. Without it, every call is its own class. `classKey` serves
   * both sides; `expectedKey` and `calledKey` override it per side.
   */
  classKey?: (call: E | C) => string;
  expectedKey?: (call: E) => string;
  calledKey?: (call: C) => string;
  /**
   * Which calls can pair at all: those whose keys are equal. Default: the same type and name.
   * The group is named after its first expected call.
   */
  groupKey?: (call: E | C) => string;
  /** Pair scores computed at most before a `LimitExceededError`. */
  maxPairEvaluations: number;
  /**
   * Keys such that an expected call and a call with equal keys likely score 1 (identical
   * arguments): only a hint for `likelyPerfect`, whose pairs are scored before they are used.
   */
  perfectKeys?: { readonly expected: (call: E) => string; readonly called: (call: C) => string };
}

// Below this many cells, deduplicating calls by key costs more than it saves; a flat cache of
// every pair is kept instead.
const DEDUPLICATE_ABOVE_CELLS = 4096;
// Per-group caches beyond this many entries are not kept (the evaluation budget still applies).
const MAX_CACHE_ENTRIES = 1 << 22;

function typeAndName(call: NamedCall): string {
  return `${call.type}\u0000${call.name}`;
}

interface MutableGroup {
  name: string;
  type: ToolCall["type"];
  rows: number[];
  cols: number[];
}

/** Class ids of the calls at `indices`, by key, in order of first appearance; returns the count. */
function classify<T>(
  indices: readonly number[],
  calls: readonly T[],
  key: (call: T) => string,
  classes: number[],
): number {
  const ids = new Map<string, number>();
  for (const index of indices) {
    const k = key(calls[index]);
    let id = ids.get(k);
    if (id === undefined) {
      id = ids.size;
      ids.set(k, id);
    }
    classes.push(id);
  }
  return ids.size;
}

function identity(length: number): number[] {
  const classes = new Array<number>(length);
  for (let i = 0; i < length; i++) classes[i] = i;
  return classes;
}

/** Builds the lazy similarity matrix of two lists of tool calls. */
export function toolCallMatrix<E extends NamedCall = ToolCall, C extends NamedCall = ToolCall>(
  options: ToolCallMatrixOptions<E, C>,
): ToolCallMatrix {
  const { expected, called, score, maxPairEvaluations } = options;
  const groupKey = options.groupKey ?? typeAndName;
  const rows = expected.length;
  const cols = called.length;
  const byKey = new Map<string, number>();
  const mutableGroups: MutableGroup[] = [];
  // Plain arrays: on small inputs, allocating typed arrays costs more than the whole scoring.
  const rowGroup = new Array<number>(rows);
  const colGroup = new Array<number>(cols);
  const rowPosition = new Array<number>(rows);
  const colPosition = new Array<number>(cols);

  for (let row = 0; row < rows; row++) {
    const call = expected[row];
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
  }
  for (let col = 0; col < cols; col++) {
    const group = byKey.get(groupKey(called[col]));
    colGroup[col] = group ?? -1;
    if (group === undefined) continue;
    const target = mutableGroups[group];
    colPosition[col] = target.cols.length;
    target.cols.push(col);
  }

  const expectedKey = options.expectedKey ?? options.classKey;
  const calledKey = options.calledKey ?? options.classKey;
  const deduplicate =
    expectedKey !== undefined && calledKey !== undefined && rows * cols > DEDUPLICATE_ABOVE_CELLS;
  // Without deduplication every call is its own class: one shared identity serves every group.
  const everyCall = deduplicate ? [] : identity(Math.max(rows, cols));
  const groups: ToolGroup[] = mutableGroups.map((group) => {
    if (!deduplicate) {
      return {
        name: group.name,
        type: group.type,
        rows: group.rows,
        cols: group.cols,
        rowClasses: everyCall,
        colClasses: everyCall,
        rowClassCount: group.rows.length,
        colClassCount: group.cols.length,
      };
    }
    const rowClasses: number[] = [];
    const colClasses: number[] = [];
    return {
      name: group.name,
      type: group.type,
      rows: group.rows,
      cols: group.cols,
      rowClasses,
      colClasses,
      rowClassCount: classify(group.rows, expected, expectedKey, rowClasses),
      colClassCount: classify(group.cols, called, calledKey, colClasses),
    };
  });

  if (!deduplicate && rows * cols <= DEDUPLICATE_ABOVE_CELLS) {
    return new SmallMatrix(
      rows,
      cols,
      groups,
      rowGroup,
      colGroup,
      (row, col) => score(expected[row], called[col], row, col),
      maxPairEvaluations,
    );
  }
  const caches = groups.map((group) => {
    const size = group.rowClassCount * group.colClassCount;
    return size > 0 && size <= MAX_CACHE_ENTRIES ? new Float64Array(size).fill(Number.NaN) : null;
  });
  const matrix = new ClassMatrix(
    rows,
    cols,
    groups,
    rowGroup,
    colGroup,
    (row, col) => score(expected[row], called[col], row, col),
    maxPairEvaluations,
    caches,
    rowPosition,
    colPosition,
  );
  const keys = options.perfectKeys;
  if (keys !== undefined) {
    matrix.likelyPerfect = (g) => likelyPerfectPairs(groups[g], expected, called, keys);
  }
  return matrix;
}

/** The class pairs of a group whose first members have equal keys (see `likelyPerfect`). */
function likelyPerfectPairs<E, C>(
  group: ToolGroup,
  expected: readonly E[],
  called: readonly C[],
  keys: { readonly expected: (call: E) => string; readonly called: (call: C) => string },
): (readonly [number, number])[] {
  const rowClassesByKey = new Map<string, number[]>();
  const seenRow = new Uint8Array(group.rowClassCount);
  group.rows.forEach((row, position) => {
    const rowClass = group.rowClasses[position];
    if (seenRow[rowClass] === 1) return;
    seenRow[rowClass] = 1;
    const key = keys.expected(expected[row]);
    const list = rowClassesByKey.get(key);
    if (list === undefined) rowClassesByKey.set(key, [rowClass]);
    else list.push(rowClass);
  });
  const pairs: (readonly [number, number])[] = [];
  const seenCol = new Uint8Array(group.colClassCount);
  group.cols.forEach((col, position) => {
    const colClass = group.colClasses[position];
    if (seenCol[colClass] === 1) return;
    seenCol[colClass] = 1;
    for (const rowClass of rowClassesByKey.get(keys.called(called[col])) ?? []) {
      pairs.push([rowClass, colClass]);
    }
  });
  return pairs;
}

/** What both matrix shapes share: groups, the evaluation budget, and the derived views. */
abstract class BaseMatrix implements ToolCallMatrix {
  private evaluations = 0;

  constructor(
    readonly rows: number,
    readonly cols: number,
    readonly groups: readonly ToolGroup[],
    protected readonly rowGroup: readonly number[],
    protected readonly colGroup: readonly number[],
    private readonly compute: (row: number, col: number) => number,
    readonly maxPairEvaluations: number,
  ) {}

  protected evaluate(row: number, col: number): number {
    if (++this.evaluations > this.maxPairEvaluations) {
      throw new LimitExceededError({
        limit: "maxPairEvaluations",
        maximum: this.maxPairEvaluations,
        message: `comparing ${this.rows} expected with ${this.cols} called tool calls needs more than ${this.maxPairEvaluations} pair comparisons; raise limits.maxPairEvaluations or split the case`,
      });
    }
    return this.compute(row, col);
  }

  abstract score(row: number, col: number): number;
  abstract evaluationsToScoreAll(): number;

  evaluationsLeft(): number {
    return this.maxPairEvaluations - this.evaluations;
  }

  groupOfRow(row: number): number {
    return this.rowGroup[row];
  }

  groupOfCol(col: number): number {
    return this.colGroup[col];
  }

  candidates(row: number): readonly number[] {
    return this.groups[this.rowGroup[row]].cols;
  }

  fillRow(row: number, target: Numbers): void {
    target.fill(0);
    for (const col of this.groups[this.rowGroup[row]].cols) target[col] = this.score(row, col);
  }
}

/** Small inputs: every call its own class, one cache slot per pair. */
class SmallMatrix extends BaseMatrix {
  private readonly cache: number[];

  constructor(
    rows: number,
    cols: number,
    groups: readonly ToolGroup[],
    rowGroup: readonly number[],
    colGroup: readonly number[],
    compute: (row: number, col: number) => number,
    maxPairEvaluations: number,
  ) {
    super(rows, cols, groups, rowGroup, colGroup, compute, maxPairEvaluations);
    this.cache = new Array<number>(rows * cols).fill(Number.NaN);
  }

  score(row: number, col: number): number {
    if (this.colGroup[col] !== this.rowGroup[row]) return 0;
    const slot = row * this.cols + col;
    let value = this.cache[slot];
    if (value !== value) {
      // NaN: not computed yet.
      value = this.evaluate(row, col);
      this.cache[slot] = value;
    }
    return value;
  }

  evaluationsToScoreAll(): number {
    let sum = 0;
    for (const group of this.groups) sum += group.rows.length * group.cols.length;
    return sum;
  }
}

/**
 * Large inputs: one cache slot per pair of classes of identical calls within a tool (none when
 * even that would be too big), so 10,000 copies of a call cost one comparison.
 */
class ClassMatrix extends BaseMatrix {
  likelyPerfect?: (group: number) => (readonly [number, number])[];

  constructor(
    rows: number,
    cols: number,
    groups: readonly ToolGroup[],
    rowGroup: readonly number[],
    colGroup: readonly number[],
    compute: (row: number, col: number) => number,
    maxPairEvaluations: number,
    private readonly caches: readonly (Float64Array | null)[],
    private readonly rowPosition: readonly number[],
    private readonly colPosition: readonly number[],
  ) {
    super(rows, cols, groups, rowGroup, colGroup, compute, maxPairEvaluations);
  }

  score(row: number, col: number): number {
    const g = this.rowGroup[row];
    if (this.colGroup[col] !== g) return 0;
    const cache = this.caches[g];
    if (!cache) return this.evaluate(row, col);
    const group = this.groups[g];
    const slot =
      group.rowClasses[this.rowPosition[row]] * group.colClassCount +
      group.colClasses[this.colPosition[col]];
    let value = cache[slot];
    if (value !== value) {
      value = this.evaluate(row, col);
      cache[slot] = value;
    }
    return value;
  }

  evaluationsToScoreAll(): number {
    let sum = 0;
    this.groups.forEach((group, g) => {
      sum +=
        this.caches[g] !== null
          ? group.rowClassCount * group.colClassCount
          : group.rows.length * group.cols.length;
    });
    return sum;
  }
}
