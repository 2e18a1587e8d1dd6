/**
 * The calls a case is aligned over, and how: the calls in scope (an expected call's scope, failed
 * calls retried, error outputs), the score matrix masked to them, steps kept apart, and the
 * calls checked against the tools' schemas; indices mapped back to the case's.
 */
import { partialOrderPairs, StateLimitError } from "../algorithms/partial-order.js";
import { maxStepColumns, steppedOrderPairs } from "../algorithms/stepped-order.js";
import type { Pair, ScoreMatrix } from "../algorithms/score-matrix.js";
import { InvalidOptionError, LimitExceededError } from "../core/errors.js";
import type { AlignmentAlgorithm, ArgumentVerdict } from "../core/explanation.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { ToolCall } from "../core/tool-call.js";
import { normalizerAt } from "../matchers/compare-arguments.js";
import type { LinearRegExp } from "../matchers/linear-regex.js";
import type { SchemaValidator } from "../matchers/schema-validation.js";
import { expectedJson } from "../matchers/value-matchers.js";
import type { ExpectedCall, ExpectedCalls } from "./expected-calls.js";
import type {
  CompareArgumentsFunction,
  OrderMode,
  ResolvedMatchOptions,
  ToolCompiled,
} from "./match-options.js";
import type { CallSchemaViolation, MatchResult } from "./match-result.js";
import { pairToolCalls } from "./pairing.js";
import type { PairingAlgorithm } from "./pairing.js";
import type { ToolCallMatrix } from "./tool-call-matrix.js";

export const plainName = (call: { name: string }): string => call.name;

// Shared empties: most cases have no retried calls and no schema violations.
export const noCalls: ReadonlySet<number> = new Set();

export const noSchemaViolations: readonly CallSchemaViolation[] = Object.freeze([]);

/** `matrix` where the `skipped` calls pair with nothing. */
function withoutCalls(matrix: ToolCallMatrix, skipped: ReadonlySet<number>): ToolCallMatrix {
  return masked(matrix, (_row, col) => !skipped.has(col));
}

/** `matrix` where only the pairs `allowed` says may pair score above 0. */
function masked(
  matrix: ToolCallMatrix,
  allowed: (row: number, col: number) => boolean,
): ToolCallMatrix {
  return {
    rows: matrix.rows,
    cols: matrix.cols,
    groups: matrix.groups,
    maxPairEvaluations: matrix.maxPairEvaluations,
    groupOfRow: (row) => matrix.groupOfRow(row),
    groupOfCol: (col) => matrix.groupOfCol(col),
    candidates: (row) => matrix.candidates(row).filter((col) => allowed(row, col)),
    evaluationsToScoreAll: () => matrix.evaluationsToScoreAll(),
    evaluationsLeft: () => matrix.evaluationsLeft(),
    score: (row, col) => (allowed(row, col) ? matrix.score(row, col) : 0),
    fillRow(row, target) {
      matrix.fillRow(row, target);
      for (let col = 0; col < matrix.cols; col++) if (!allowed(row, col)) target[col] = 0;
    },
  };
}

/**
 * A pair's argument score by the tool's own `compare`: true is 1, false 0, a number in [0, 1] as
 * it is; anything else is an error naming the rule. Explained as one verdict on the whole.
 */
export function ownComparison(
  compare: CompareArgumentsFunction,
  e: ExpectedCall,
  call: ToolCall,
  nameOf: (call: { name: string }) => string,
  verdicts: ArgumentVerdict[] | undefined,
): number {
  const given = compare(call.inputParameters, expectedJson(e.arguments));
  const score = given === true ? 1 : given === false ? 0 : given;
  if (typeof score !== "number" || !(score >= 0 && score <= 1)) {
    throw new InvalidOptionError({
      option: `toolRules.${nameOf(e)}.compare`,
      value: given,
      message: `toolRules.${nameOf(e)}.compare must return true, false or a number in [0, 1], got ${JSON.stringify(given)}`,
    });
  }
  verdicts?.push({
    path: "$",
    verdict: score === 1 ? "match" : "mismatch",
    expected: expectedJson(e.arguments),
    actual: call.inputParameters,
    note: `compared by toolRules.${nameOf(e)}.compare (score ${score})`,
  });
  return score;
}

/** The step of each expected call and each call, numbered 0, 1, ... in order. */
export interface Steps {
  readonly expected: readonly number[];
  readonly called: readonly number[];
}

/** Steps renumbered densely in order of first appearance (steps left empty drop out). */
function dense(steps: readonly number[]): number[] {
  const numbers = new Map<number, number>();
  return steps.map((step) => {
    let number = numbers.get(step);
    if (number === undefined) numbers.set(step, (number = numbers.size));
    return number;
  });
}

/**
 * The steps of the calls in scope: the expected calls' from their groups or reference transcript
 * (one call a step without them), the calls' from their transcript (likewise).
 */
export function stepsInScope(
  scope: Scope,
  expected: readonly number[] | undefined,
  called: readonly number[] | undefined,
): Steps {
  const expectedAt = (row: number) => scope.expectedAt?.[row] ?? row;
  const calledAt = (col: number) => scope.calledAt?.[col] ?? col;
  return {
    expected: dense(
      scope.expected.calls.map((_, row) => expected?.[expectedAt(row)] ?? expectedAt(row)),
    ),
    called: dense(scope.calls.map((_, col) => called?.[calledAt(col)] ?? calledAt(col))),
  };
}

/** The matrix where only calls of the same step (by position) may pair. */
export function sameStepsOnly(matrix: ToolCallMatrix, steps: Steps): ToolCallMatrix {
  return masked(matrix, (row, col) => steps.expected[row] === steps.called[col]);
}

/** The calls and expected calls in scope, and where they were in the lists given. */
export interface Scope {
  readonly calls: readonly ToolCall[];
  readonly expected: ExpectedCalls;
  /** The index, in the list given, of each call kept; undefined when every call was kept. */
  readonly calledAt: readonly number[] | undefined;
  readonly expectedAt: readonly number[] | undefined;
  /** Calls and expected calls of tools out of scope, by their index in the lists given. */
  readonly ignoredCalled: readonly number[];
  /** Calls left out as not made, their arguments unparsed (`unparsedArguments: "no-call"`). */
  readonly unparsedCalled: readonly number[];
  readonly ignoredExpected: readonly number[];
  readonly allCalls: readonly ToolCall[];
  readonly allExpected: readonly ExpectedCall[];
}

/**
 * The calls of tools in scope (`onlyTools`, `ignoreTools`), on both sides: the others are left
 * out before anything is aligned; an expected call's `after` passes through the calls left out.
 * Under `unparsedArguments: "no-call"`, a call whose arguments did not parse is left out too.
 */
export function inScopeOnly(
  calls: readonly ToolCall[],
  expected: ExpectedCalls,
  resolved: Pick<ResolvedMatchOptions, "inScope" | "unparsedArguments">,
  nameOf: (call: { name: string }) => string,
): Scope {
  const { inScope } = resolved;
  const unparsedOut = resolved.unparsedArguments === "no-call";
  const unscoped: Scope = {
    calls,
    expected,
    calledAt: undefined,
    expectedAt: undefined,
    ignoredCalled: noIndices,
    unparsedCalled: noIndices,
    ignoredExpected: noIndices,
    allCalls: calls,
    allExpected: expected.calls,
  };
  if (inScope === undefined && !unparsedOut) return unscoped;
  const calledAt: number[] = [];
  const ignoredCalled: number[] = [];
  const unparsedCalled: number[] = [];
  calls.forEach((call, index) => {
    if (inScope !== undefined && !inScope(nameOf(call))) ignoredCalled.push(index);
    else if (unparsedOut && call.invalidArguments !== undefined) unparsedCalled.push(index);
    else calledAt.push(index);
  });
  const rows = expected.calls;
  const keep = rows.map((call) => inScope === undefined || inScope(nameOf(call)));
  const expectedAt: number[] = [];
  const ignoredExpected: number[] = [];
  const newIndex = new Array<number>(rows.length).fill(-1);
  keep.forEach((kept, index) => {
    if (kept) {
      newIndex[index] = expectedAt.length;
      expectedAt.push(index);
    } else ignoredExpected.push(index);
  });
  if (ignoredCalled.length === 0 && unparsedCalled.length === 0 && ignoredExpected.length === 0)
    return unscoped;
  // The kept calls an expected call must come after, through the calls left out.
  const keptBefore = new Map<number, number[]>();
  const before = (row: number): number[] => {
    let found = keptBefore.get(row);
    if (found !== undefined) return found;
    const set = new Set<number>();
    for (const p of rows[row].predecessors) {
      if (keep[p]) set.add(newIndex[p]);
      else for (const q of before(p)) set.add(q);
    }
    found = [...set].sort((a, b) => a - b);
    keptBefore.set(row, found);
    return found;
  };
  return {
    calls: calledAt.map((index) => calls[index]),
    expected: {
      calls: expectedAt.map((row) => ({ ...rows[row], predecessors: before(row) })),
      partial: expected.partial,
    },
    calledAt,
    expectedAt,
    ignoredCalled,
    unparsedCalled,
    ignoredExpected,
    allCalls: calls,
    allExpected: rows,
  };
}

/** Calls whose output matches `pattern` marked as tool errors (a copy when any is). */
/** Whether an output matches the `errorOutput` pattern (a string as it is, anything else as JSON). */
export function outputSaysError(output: JsonValue | undefined, pattern: LinearRegExp): boolean {
  return pattern.test(typeof output === "string" ? output : JSON.stringify(output ?? null));
}

export function withErrorOutput(
  calls: readonly ToolCall[],
  pattern: LinearRegExp | undefined,
): readonly ToolCall[] {
  if (pattern === undefined) return calls;
  let marked: ToolCall[] | undefined;
  calls.forEach((call, index) => {
    if (call.isError === true || !outputSaysError(call.output, pattern)) return;
    marked ??= [...calls];
    marked[index] = { ...call, isError: true };
  });
  return marked ?? calls;
}

/**
 * The reason's last sentence when violations fail the case: which kinds, when some schema
 * violations are only reported (`onSchemaViolation: { fail: [...] }`).
 */
export function failureSentence(
  result: Pick<MatchResult, "violations" | "schemaViolations">,
  resolved: ResolvedMatchOptions,
): string {
  const failing = resolved.failingSchemaViolations;
  if (result.schemaViolations.every((v) => failing.has(v.kind)))
    return "The case fails on these violations.";
  const kinds = [
    ...(resolved.onViolation === "fail" && result.violations.length > 0 ? ["constraint"] : []),
    ...new Set(result.schemaViolations.filter((v) => failing.has(v.kind)).map((v) => v.kind)),
  ];
  return `The case fails on its ${kinds.join(" and ")} violations; the others are reported only.`;
}

/** Rewrites the indices of a result (pairs, missing, unexpected, ... violations) in place. */
export function remapIndices(
  result: { -readonly [K in keyof MatchResult]: MatchResult[K] },
  called: (index: number) => number,
  expected: (index: number) => number,
): void {
  const remap = <T extends object>(item: T): T => {
    const copy = { ...item } as Record<string, unknown>;
    if (typeof copy.expectedIndex === "number") copy.expectedIndex = expected(copy.expectedIndex);
    if (typeof copy.calledIndex === "number") copy.calledIndex = called(copy.calledIndex);
    if (typeof copy.previousIndex === "number") copy.previousIndex = called(copy.previousIndex);
    if (typeof copy.nearest === "object" && copy.nearest !== null)
      copy.nearest = remap(copy.nearest);
    return copy as T;
  };
  result.pairs = result.pairs.map(remap);
  result.missing = result.missing.map(remap);
  result.unexpected = result.unexpected.map(remap);
  result.outOfOrder = result.outOfOrder.map(remap);
  result.mismatches = result.mismatches.map(remap);
  result.violations = result.violations.map(remap);
  result.schemaViolations = result.schemaViolations.map(remap);
}

const noIndices: readonly number[] = [];

/** The calls the tool reported as errors, by index. */
export function failedCalls(calls: readonly ToolCall[]): ReadonlySet<number> {
  let failed: Set<number> | undefined;
  calls.forEach((call, index) => {
    if (call.isError === true) (failed ??= new Set()).add(index);
  });
  return failed ?? noCalls;
}

/** The matrix without the skipped calls' columns, and the column each remaining one was. */
function keptColumns(
  matrix: ToolCallMatrix,
  skipped: ReadonlySet<number>,
): { view: ToolCallMatrix; columns: readonly number[] } {
  const columns: number[] = [];
  for (let col = 0; col < matrix.cols; col++) if (!skipped.has(col)) columns.push(col);
  const position = new Map(columns.map((col, at) => [col, at]));
  const full = new Float64Array(matrix.cols);
  const view: ToolCallMatrix = {
    rows: matrix.rows,
    cols: columns.length,
    groups: matrix.groups,
    maxPairEvaluations: matrix.maxPairEvaluations,
    groupOfRow: (row) => matrix.groupOfRow(row),
    groupOfCol: (col) => matrix.groupOfCol(columns[col]),
    candidates: (row) =>
      matrix.candidates(row).flatMap((col) => {
        const at = position.get(col);
        return at === undefined ? [] : [at];
      }),
    evaluationsToScoreAll: () => matrix.evaluationsToScoreAll(),
    evaluationsLeft: () => matrix.evaluationsLeft(),
    score: (row, col) => matrix.score(row, columns[col]),
    fillRow(row, target) {
      matrix.fillRow(row, full);
      for (let at = 0; at < columns.length; at++) target[at] = full[columns[at]];
    },
  };
  return { view, columns };
}

/** Pairs by the order mode; retried attempts never pair. */
export function alignCalls(
  matrix: ToolCallMatrix,
  order: OrderMode,
  algorithm: AlignmentAlgorithm,
  sides: {
    readonly expectedCalls: readonly ExpectedCall[];
    /** The step of each call, when calls of one step may come in any order among themselves. */
    readonly calledSteps: readonly number[] | undefined;
  },
  retried: ReadonlySet<number>,
  resolved: ResolvedMatchOptions,
): readonly Pair[] {
  const { expectedCalls, calledSteps } = sides;
  if (retried.size > 0 && algorithm === "positional") {
    // Pairing by position counts only the calls scored: a retried attempt takes no position.
    const { view, columns } = keptColumns(matrix, retried);
    return pairToolCalls(view, "positional", resolved.limits).pairs.map((pair) => ({
      ...pair,
      col: columns[pair.col],
    }));
  }
  const scores = retried.size === 0 ? matrix : withoutCalls(matrix, retried);
  // A partial order without a single constraint is a multiset: the assignment is exact, and fast
  // however wide the group.
  const unconstrained =
    order === "partial" && expectedCalls.every((call) => call.predecessors.length === 0);
  if (unconstrained) return pairToolCalls(scores, "optimal-assignment", resolved.limits).pairs;
  if (calledSteps !== undefined && sharesAStep(calledSteps)) {
    return orderedAcrossSteps(scores, calledSteps, resolved.maxOrderStates);
  }
  if (order !== "partial") {
    return pairToolCalls(scores, algorithm as PairingAlgorithm, resolved.limits).pairs;
  }
  try {
    return partialOrderPairs(scores, {
      predecessors: expectedCalls.map((call) => call.predecessors),
      maxStates: resolved.maxOrderStates,
    });
  } catch (error) {
    if (!(error instanceof StateLimitError)) throw error;
    throw new LimitExceededError({
      limit: "maxOrderStates",
      maximum: resolved.maxOrderStates,
      message: `${error.message}: the partial order is too wide to align exactly (large groups of unordered calls); split the groups, raise limits.maxOrderStates, or use order "any"`,
    });
  }
}

/** Whether two calls share a step. */
function sharesAStep(steps: readonly number[]): boolean {
  for (let col = 1; col < steps.length; col++) if (steps[col] === steps[col - 1]) return true;
  return false;
}

/**
 * The in-order alignment when calls of one step may come in any order among themselves: exact,
 * over the expected calls in sequence and the calls' steps (`steppedOrderPairs`); a step of more
 * calls than it takes goes to the general partial-order alignment, sides swapped (each call after
 * every call of the step before its own), whose states are bounded by `maxStates`.
 */
function orderedAcrossSteps(
  matrix: ToolCallMatrix,
  calledSteps: readonly number[],
  maxStates: number,
): Pair[] {
  // Steps are numbered densely from 0 (stepsInScope).
  const byStep: number[][] = [];
  calledSteps.forEach((step, col) => (byStep[step] ??= []).push(col));
  if (byStep.every((cols) => cols.length <= maxStepColumns)) {
    return steppedOrderPairs(matrix, calledSteps);
  }
  const rowsOfCol: number[][] = Array.from({ length: matrix.cols }, () => []);
  for (let row = 0; row < matrix.rows; row++) {
    for (const col of matrix.candidates(row)) rowsOfCol[col].push(row);
  }
  const predecessors = calledSteps.map((step) => (step === 0 ? [] : (byStep[step - 1] ?? [])));
  const swapped: ScoreMatrix = {
    rows: matrix.cols,
    cols: matrix.rows,
    score: (row, col) => matrix.score(col, row),
    candidates: (row) => rowsOfCol[row],
  };
  try {
    return partialOrderPairs(swapped, { predecessors, maxStates })
      .map((pair) => ({ row: pair.col, col: pair.row, score: pair.score }))
      .sort((a, b) => a.row - b.row);
  } catch (error) {
    if (!(error instanceof StateLimitError)) throw error;
    throw new LimitExceededError({
      limit: "maxOrderStates",
      maximum: maxStates,
      message: `${error.message}: the calls' turns are too wide to align in order exactly (over ${maxStepColumns} calls in one turn); raise limits.maxOrderStates, or use order "any"`,
    });
  }
}

/** Schema violations of every call whose tool has a definition. */
export function validateCalls(
  calls: readonly ToolCall[],
  nameOf: (call: ToolCall) => string,
  definitions: ReadonlyMap<string, JsonObject>,
  validator: SchemaValidator,
  rulesFor: (name: string) => ToolCompiled,
): readonly CallSchemaViolation[] {
  let found: CallSchemaViolation[] | undefined;
  calls.forEach((call, calledIndex) => {
    const name = nameOf(call);
    const schema = definitions.get(name);
    if (!schema) return;
    // Enum membership under the tool's string rules, as its arguments are compared.
    const rules = rulesFor(name).arguments;
    for (const violation of validator.validate(
      schema,
      call.inputParameters,
      call.numberSpellings,
      (path) => normalizerAt(rules, path),
    )) {
      (found ??= []).push({
        kind: violation.kind,
        path: violation.path,
        message: violation.message,
        calledIndex,
        name,
      });
    }
  });
  return found ?? noSchemaViolations;
}
