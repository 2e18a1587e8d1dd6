import { assignmentWork } from "../algorithms/optimal-assignment.js";

/** The order modes whose numbers follow from the total of the pair scores alone. */
export type TotalOrder = "any" | "only-expected" | "all-expected" | "strict";

/** Longest list {@link smallCaseTotal} takes; longer ones go the general way. */
const maxCalls = 32;
/** Largest group of one tool, on both sides, whose best assignment is found by trying them all. */
const maxTried = 4;

export interface SmallCaseInput {
  /** The tool names of the expected calls, in order. */
  readonly expected: readonly { readonly name: string }[];
  /** The tool names of the calls made, in order. */
  readonly called: readonly { readonly name: string }[];
  readonly order: TotalOrder;
  /** The score of an expected call against a call of the same tool: quantized, in [0, 1]. */
  readonly score: (row: number, col: number) => number;
  readonly maxPairEvaluations: number;
  readonly maxAssignmentWork: number;
  /**
   * Whether scoring a pair can never throw (plain expected values, no path rules), so that pairs
   * the answer does not need may go unscored. Default false: every pair the general way would
   * score is scored, so that a matcher that throws does so here too.
   */
  readonly pairsMaySkip?: boolean;
}

/** The tool number of the first of `expected[0..end)` named `name` (`tools` numbers them), or -1. */
function toolNamed(
  expected: readonly { readonly name: string }[],
  tools: readonly number[],
  end: number,
  name: string,
): number {
  for (let row = 0; row < end; row++) if (expected[row].name === name) return tools[row];
  return -1;
}

/** Indices grouped by tool: `counts[t]` of tool `t`, listed in `members` from `starts[t]` on. */
interface ToolGroups {
  readonly counts: number[];
  readonly starts: number[];
  readonly members: number[];
}

/** Groups indices `0..tools.length` by tool (`tools`, -1 for none), in their order (a counting sort). */
function groupByTool(tools: readonly number[], toolCount: number): ToolGroups {
  const counts = new Array<number>(toolCount).fill(0);
  const starts = new Array<number>(toolCount);
  const members = new Array<number>(tools.length);
  for (let i = 0; i < tools.length; i++) if (tools[i] >= 0) counts[tools[i]]++;
  let start = 0;
  for (let tool = 0; tool < toolCount; tool++) {
    starts[tool] = start;
    start += counts[tool];
  }
  for (let i = 0; i < tools.length; i++) if (tools[i] >= 0) members[starts[tools[i]]++] = i;
  // Back to where each tool's members start.
  for (let tool = 0; tool < toolCount; tool++) starts[tool] -= counts[tool];
  return { counts, starts, members };
}

/** The best assignment's total within one tool's calls; `weight` is row-major, `rows` by `cols`. */
function bestTotal(weight: readonly number[], rows: number, cols: number): number {
  if (rows === 2 && cols === 2) {
    return Math.max(weight[0] + weight[3], weight[1] + weight[2]);
  }
  const byRow = rows <= cols;
  const small = byRow ? rows : cols;
  const large = byRow ? cols : rows;
  /**
   * The best total over assignments of members `i..` of the smaller side to distinct unused members
   * of the larger one (`used` is a bit set). Every member of the smaller side can be assigned, and a
   * pair scoring 0 adds nothing, so the best total over these is the best over all matchings.
   */
  const bestFrom = (i: number, used: number): number => {
    if (i === small) return 0;
    let best = 0;
    for (let j = 0; j < large; j++) {
      if ((used & (1 << j)) !== 0) continue;
      const w = byRow ? weight[i * cols + j] : weight[j * cols + i];
      const total = w + bestFrom(i + 1, used | (1 << j));
      if (total > best) best = total;
    }
    return best;
  };
  return bestFrom(0, 0);
}

/**
 * The total score of the pairs the general alignment would choose, computed without building
 * the pairs, for small cases: for `strict`, the pairs of the same tool at the same position; for
 * the other modes, the best assignment within each tool, which is unique as a number even when
 * several assignments reach it. With quantized scores, precision, recall, F1 and exactness all
 * follow from this total (see `scoreToolCalls`). Returns undefined when the case is too large
 * for this path, or would exceed a limit: the general way then gives the answer or the error.
 */
export function smallCaseTotal(input: SmallCaseInput): number | undefined {
  const { expected, called, score } = input;
  const rows = expected.length;
  const cols = called.length;
  if (rows > maxCalls || cols > maxCalls) return undefined;
  if (input.order === "strict") {
    let evaluations = 0;
    const length = Math.min(rows, cols);
    for (let i = 0; i < length; i++) if (expected[i].name === called[i].name) evaluations++;
    if (evaluations > input.maxPairEvaluations) return undefined;
    let total = 0;
    for (let i = 0; i < length; i++) if (expected[i].name === called[i].name) total += score(i, i);
    return total;
  }
  // Every call of the shorter list paired perfectly, in order, with calls of the longer one (at
  // its place, or further on past calls left out): no total can be higher (a pair scores at most
  // 1, and there are at most min(rows, cols) pairs), so that is the best total, found without
  // grouping. Taken only where no group could reach a limit (evaluations and work grow with the
  // group's size), since the general way would then report it.
  if (
    input.pairsMaySkip === true &&
    rows * cols <= input.maxPairEvaluations &&
    assignmentWork(rows, cols) <= input.maxAssignmentWork
  ) {
    let row = 0;
    let col = 0;
    let skips = Math.abs(rows - cols);
    while (row < rows && col < cols) {
      if (expected[row].name === called[col].name && score(row, col) === 1) {
        row++;
        col++;
      } else if (skips > 0) {
        skips--;
        if (rows > cols) row++;
        else col++;
      } else {
        break;
      }
    }
    if (rows <= cols ? row === rows : col === cols) return Math.min(rows, cols);
  }
  // Each tool's number, by first appearance among the expected calls; -1 for calls of others.
  // Names are compared directly: on a few calls, that costs less than hashing them.
  let toolCount = 0;
  const rowTools = new Array<number>(rows);
  for (let row = 0; row < rows; row++) {
    const tool = toolNamed(expected, rowTools, row, expected[row].name);
    rowTools[row] = tool >= 0 ? tool : toolCount++;
  }
  const colTools = new Array<number>(cols);
  for (let col = 0; col < cols; col++)
    colTools[col] = toolNamed(expected, rowTools, rows, called[col].name);
  const rowGroups = groupByTool(rowTools, toolCount);
  const colGroups = groupByTool(colTools, toolCount);
  const { counts: rowCounts, starts: rowStarts, members: rowMembers } = rowGroups;
  const { counts: colCounts, starts: colStarts, members: colMembers } = colGroups;
  let evaluations = 0;
  for (let tool = 0; tool < toolCount; tool++) {
    const r = rowCounts[tool];
    const c = colCounts[tool];
    if (c === 0) continue;
    if (assignmentWork(r, c) > input.maxAssignmentWork) return undefined;
    if (Math.min(r, c) > 1 && Math.max(r, c) > maxTried) return undefined;
    evaluations += r * c;
  }
  if (evaluations > input.maxPairEvaluations) return undefined;
  let total = 0;
  for (let tool = 0; tool < toolCount; tool++) {
    const r = rowCounts[tool];
    const c = colCounts[tool];
    if (c === 0) continue;
    const rowAt = rowStarts[tool];
    const colAt = colStarts[tool];
    if (r === 1 || c === 1) {
      // One call on either side: its best pair.
      let best = 0;
      for (let i = 0; i < r; i++) {
        for (let j = 0; j < c; j++) {
          best = Math.max(best, score(rowMembers[rowAt + i], colMembers[colAt + j]));
        }
      }
      total += best;
      continue;
    }
    const weight = new Array<number>(r * c);
    for (let i = 0; i < r; i++) {
      for (let j = 0; j < c; j++) {
        weight[i * c + j] = score(rowMembers[rowAt + i], colMembers[colAt + j]);
      }
    }
    total += bestTotal(weight, r, c);
  }
  return total;
}
