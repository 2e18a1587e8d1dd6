/**
 * A case's alignment scored and explained: precision, recall and the score its kind asks for, the
 * order's verdict, extra calls that change state, schema violations, and the result every metric
 * reports (pairs, missing and extra calls, the reason), indices as the case gave them.
 */
import type { Pair } from "../algorithms/score-matrix.js";
import { unparsedArgumentsNote } from "../core/explanation.js";
import type { AlignmentAlgorithm, ArgumentVerdict } from "../core/explanation.js";
import type { JsonObject } from "../core/json.js";
import type { ToolCall } from "../core/tool-call.js";
import { compareArguments } from "../matchers/compare-arguments.js";
import { expectedJson } from "../matchers/value-matchers.js";
import type { ExpectedCall } from "./expected-calls.js";
import { checkConstraints } from "./match-constraints.js";
import { buildMatchDetails } from "./match-details.js";
import type { OrderAllows, PairExplanation } from "./match-details.js";
import type { OrderMode, ResolvedMatchOptions, ScoreKind, ToolCompiled } from "./match-options.js";
import { buildReason } from "./match-reason.js";
import type { LeftOutCall } from "./match-reason.js";
import type { CallSchemaViolation, MatchResult, ToolCallScore, Violation } from "./match-result.js";
import type { ToolCallMatrix } from "./tool-call-matrix.js";
import { noSchemaViolations, failureSentence, remapIndices, validateCalls } from "./call-scope.js";
import type { Steps, Scope } from "./call-scope.js";

/** What validating the inputs and aligning the calls gives, before anything is explained. */
export interface Alignment {
  readonly calls: readonly ToolCall[];
  readonly expectedCalls: readonly ExpectedCall[];
  readonly order: OrderMode;
  readonly algorithm: AlignmentAlgorithm;
  readonly matrix: ToolCallMatrix;
  readonly pairs: readonly Pair[];
  readonly sum: number;
  readonly retried: ReadonlySet<number>;
  /** Violations found while aligning (errors never retried); the constraints add theirs. */
  readonly violations: Violation[];
  readonly nameOf: (call: { name: string }) => string;
  /** Tool schemas by (normalized) name: the options', the case's and the trajectory's. */
  readonly definitions: ReadonlyMap<string, JsonObject>;
  /** Whether a call of a tool (its normalized name) may change the world (see `sideEffects`). */
  readonly changesState: (name: string) => boolean;
  /** The calls in scope, and where they were in the lists given. */
  readonly scope: Scope;
  /** The steps of both sides, for `order: "steps"`. */
  readonly steps: Steps | undefined;
  readonly rulesFor: (name: string) => ToolCompiled;
  readonly compareCall: (
    e: ExpectedCall,
    call: ToolCall,
    verdicts: ArgumentVerdict[] | undefined,
  ) => number;
}

/** The numbers of an alignment, and the constraints and schemas broken. */
interface AlignmentScores {
  readonly numbers: ToolCallScore;
  readonly violations: readonly Violation[];
  readonly schemaViolations: readonly CallSchemaViolation[];
  readonly failedByViolation: boolean;
}

export function defaultScore(order: OrderMode): ScoreKind {
  if (order === "only-expected") return "precision";
  if (order === "in-order" || order === "all-expected" || order === "partial") return "recall";
  return "f1";
}

/**
 * What an order lets go without the score counting it: calls besides the expected ones under the
 * `all-expected` family scored by recall (or exactness), expected calls not made under
 * `only-expected` scored
 * by precision (or exactness) when some call was made (none made scores precision 0).
 */
export function orderAllows(order: OrderMode, scoreKind: ScoreKind, made: number): OrderAllows {
  const extraCalls =
    (order === "all-expected" || order === "in-order" || order === "partial") &&
    (scoreKind === "recall" || scoreKind === "exact");
  const unmadeCalls =
    order === "only-expected" && (scoreKind === "exact" || (scoreKind === "precision" && made > 0));
  return { extraCalls, unmadeCalls };
}

export function recallOf(sum: number, expected: number): number {
  return expected === 0 ? 1 : sum / expected;
}

export function precisionOf(sum: number, considered: number, expected: number): number {
  return considered === 0 ? (expected === 0 ? 1 : 0) : sum / considered;
}

/** Precision, recall, F1, exactness and the score of an alignment, under the options. */
export function scoreAlignment(
  alignment: Alignment,
  resolved: ResolvedMatchOptions,
): AlignmentScores {
  const { calls, expectedCalls, order, pairs, sum, retried, nameOf, definitions } = alignment;
  // Retried attempts are neither unexpected calls nor part of precision's denominator.
  const consideredCalls = calls.length - retried.size;
  const recall = recallOf(sum, expectedCalls.length);
  const precision = precisionOf(sum, consideredCalls, expectedCalls.length);

  const { violations } = alignment;
  checkConstraints(calls, nameOf, resolved.constraints, violations);
  if (orderAllows(order, resolved.score ?? defaultScore(order), consideredCalls).extraCalls) {
    extraStateChanges(alignment, violations);
  }
  const schemaViolations =
    definitions.size === 0
      ? noSchemaViolations
      : validateCalls(calls, nameOf, definitions, resolved.validator, alignment.rulesFor);

  let perfect = true;
  for (const pair of pairs) if (pair.score !== 1) perfect = false;
  const allExpectedPaired = pairs.length === expectedCalls.length;
  const allCallsPaired = pairs.length === consideredCalls;
  let exact: boolean;
  switch (order) {
    case "only-expected":
      exact = perfect && allCallsPaired;
      break;
    case "all-expected":
    case "in-order":
    case "partial":
      exact = perfect && allExpectedPaired;
      break;
    default:
      exact = perfect && allExpectedPaired && allCallsPaired;
  }
  const failing = resolved.failingSchemaViolations;
  const failedByViolation =
    (resolved.onViolation === "fail" && violations.length > 0) ||
    (failing.size > 0 && schemaViolations.some((v) => failing.has(v.kind)));
  return {
    numbers: numbersOf(
      { algorithm: alignment.algorithm, order, precision, recall, exact, failedByViolation },
      resolved,
    ),
    violations,
    schemaViolations,
    failedByViolation,
  };
}

/** The score and verdict from precision, recall and exactness, under the options. */
export function numbersOf(
  alignment: {
    readonly algorithm: AlignmentAlgorithm;
    readonly order: OrderMode;
    readonly precision: number;
    readonly recall: number;
    readonly exact: boolean;
    readonly failedByViolation: boolean;
  },
  resolved: ResolvedMatchOptions,
): ToolCallScore {
  const { algorithm, order, precision, recall, exact, failedByViolation } = alignment;
  const f1 = precision === 0 || recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const scoreKind = resolved.score ?? defaultScore(order);
  let score: number;
  if (failedByViolation) score = 0;
  else if (scoreKind === "exact") score = exact ? 1 : 0;
  else if (scoreKind === "precision") score = precision;
  else if (scoreKind === "recall") score = recall;
  else score = f1;
  return {
    algorithm,
    precision,
    recall,
    f1,
    score,
    scoreKind,
    exact: exact && !failedByViolation,
    // A violation that fails the case fails it, whatever threshold the case has.
    success: !failedByViolation && score >= resolved.threshold,
    threshold: resolved.threshold,
    order,
  };
}

/** A pair of calls explained: each argument's verdict, the output's, and a reported error. */
function explainPair(alignment: Alignment, e: ExpectedCall, call: ToolCall): PairExplanation {
  const { nameOf, rulesFor, compareCall } = alignment;
  const rules = rulesFor(nameOf(e));
  let verdicts: ArgumentVerdict[] = [];
  compareCall(e, call, verdicts);
  if (call.invalidArguments !== undefined && verdicts.some((v) => v.verdict !== "match")) {
    // The agent's arguments did not parse: say so, not that every argument is missing.
    verdicts = [
      {
        path: "$",
        verdict: "mismatch",
        expected: expectedJson(e.arguments),
        actual: call.invalidArguments,
        note: unparsedArgumentsNote,
      },
    ];
  }
  if (e.output === undefined || rules.output.mode === "ignore") {
    return call.isError === true ? { arguments: verdicts, isError: true } : { arguments: verdicts };
  }
  const same = compareArguments(e.output, call.output, { rules: rules.output }) === 1;
  const output = {
    verdict: same ? ("match" as const) : ("mismatch" as const),
    expected: expectedJson(e.output),
    actual: call.output,
  };
  return call.isError === true
    ? { arguments: verdicts, output, isError: true }
    : { arguments: verdicts, output };
}

/** The full result of an alignment: pairs and verdicts, unpaired calls, numbers, reason. */
export function explain(alignment: Alignment, resolved: ResolvedMatchOptions): MatchResult {
  const { calls, expectedCalls, matrix, pairs, sum, retried } = alignment;
  const details = buildMatchDetails({
    algorithm: alignment.algorithm,
    expected: expectedCalls,
    called: calls,
    matrix,
    pairing: { pairs, total: sum },
    explainPair: (e, call) => explainPair(alignment, e, call),
    skipCalled: retried,
    namesEachCallOnce: true,
    orderAllows: orderAllows(
      alignment.order,
      resolved.score ?? defaultScore(alignment.order),
      calls.length - retried.size,
    ),
  });
  const { numbers, violations, schemaViolations, failedByViolation } = scoreAlignment(
    alignment,
    resolved,
  );
  // Extra calls that change state are no longer let go: differences, and violations.
  const stateChanges = new Set<number>();
  for (const v of violations) if (v.kind === "extra-state-change") stateChanges.add(v.calledIndex);
  const unexpected =
    stateChanges.size === 0
      ? details.unexpected
      : details.unexpected.map((u) =>
          stateChanges.has(u.calledIndex)
            ? { calledIndex: u.calledIndex, name: u.name, changesState: true as const }
            : u,
        );
  const mismatches =
    stateChanges.size === 0
      ? details.mismatches
      : [
          ...details.mismatches,
          ...unexpected.flatMap((u) =>
            u.changesState === true
              ? [{ kind: "unexpected-call" as const, calledIndex: u.calledIndex, name: u.name }]
              : [],
          ),
        ];

  const result: { -readonly [K in keyof MatchResult]: MatchResult[K] } = {
    algorithm: numbers.algorithm,
    pairs: details.pairs,
    missing: details.missing,
    unexpected,
    outOfOrder: details.outOfOrder,
    mismatches,
    precision: numbers.precision,
    recall: numbers.recall,
    f1: numbers.f1,
    score: numbers.score,
    scoreKind: numbers.scoreKind,
    exact: numbers.exact,
    success: numbers.success,
    threshold: numbers.threshold,
    order: numbers.order,
    violations,
    schemaViolations,
    reason: "",
  };
  const { scope } = alignment;
  const calledAt = (index: number) => scope.calledAt?.[index] ?? index;
  const leftOut: LeftOutCall[] = [];
  for (const index of scope.unparsedCalled) {
    leftOut.push({ calledIndex: index, name: scope.allCalls[index].name, why: "unparsed" });
  }
  for (const index of [...retried].sort((a, b) => a - b)) {
    leftOut.push({
      calledIndex: calledAt(index),
      name: calls[index].name,
      why:
        resolved.toolErrors === "fail"
          ? "failed"
          : resolved.toolErrors === "skip"
            ? "skipped"
            : "retried",
    });
  }
  if (scope.calledAt !== undefined || scope.expectedAt !== undefined) {
    // Indices into the lists as given, not into the calls in scope.
    remapIndices(result, calledAt, (index) => scope.expectedAt?.[index] ?? index);
  }
  if (leftOut.length > 0 || scope.ignoredCalled.length > 0 || scope.ignoredExpected.length > 0) {
    result.ignored = {
      called: [
        ...scope.ignoredCalled.map((index) => ({
          calledIndex: index,
          name: scope.allCalls[index].name,
          why: "out-of-scope" as const,
        })),
        ...leftOut,
      ].sort((a, b) => a.calledIndex - b.calledIndex),
      expected: scope.ignoredExpected.map((index) => ({
        expectedIndex: index,
        name: scope.allExpected[index].name,
      })),
    };
  }
  // Under order "steps", a call made out of order is in another step: say which one it needed.
  const { steps } = alignment;
  const stepOf = new Map<number, number>();
  if (steps !== undefined) {
    steps.expected.forEach((step, row) => stepOf.set(scope.expectedAt?.[row] ?? row, step));
  }
  result.reason = buildReason(
    result,
    expectedCalls.length,
    failedByViolation ? failureSentence(result, resolved) : undefined,
    leftOut,
    { called: scope.ignoredCalled.length, expected: scope.ignoredExpected.length },
    steps === undefined
      ? undefined
      : (expectedIndex) => `belongs to step ${(stepOf.get(expectedIndex) ?? 0) + 1}`,
  );
  return result;
}

/**
 * Where the order lets extra calls go: each call of a tool that changes state beyond as many as
 * were expected of it (the last such calls not paired), as a violation. A call the tool reported
 * as an error changed nothing, and a retried attempt is left out.
 */
function extraStateChanges(alignment: Alignment, violations: Violation[]): void {
  const { calls, expectedCalls, pairs, retried, nameOf, changesState } = alignment;
  const expectedOf = new Map<string, number>();
  for (const e of expectedCalls) {
    const name = nameOf(e);
    expectedOf.set(name, (expectedOf.get(name) ?? 0) + 1);
  }
  const paired = new Set<number>();
  for (const pair of pairs) paired.add(pair.col);
  const made = new Map<string, number[]>();
  const unpaired = new Map<string, number[]>();
  calls.forEach((call, index) => {
    if (retried.has(index) || call.isError === true) return;
    const name = nameOf(call);
    if (!changesState(name)) return;
    const all = made.get(name);
    if (all === undefined) made.set(name, [index]);
    else all.push(index);
    if (paired.has(index)) return;
    const loose = unpaired.get(name);
    if (loose === undefined) unpaired.set(name, [index]);
    else loose.push(index);
  });
  for (const [name, indices] of made) {
    const expected = expectedOf.get(name) ?? 0;
    const surplus = indices.length - expected;
    if (surplus <= 0) continue;
    for (const calledIndex of (unpaired.get(name) ?? []).slice(-surplus)) {
      violations.push({
        kind: "extra-state-change",
        calledIndex,
        name: calls[calledIndex].name,
        made: indices.length,
        expected,
      });
    }
  }
}
