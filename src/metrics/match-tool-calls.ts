import { partialOrderPairs, StateLimitError } from "../algorithms/partial-order.js";
import { maxStepColumns, steppedOrderPairs } from "../algorithms/stepped-order.js";
import type { Pair, ScoreMatrix } from "../algorithms/score-matrix.js";
import { InvalidInputError, InvalidOptionError, LimitExceededError } from "../core/errors.js";
import { unparsedArgumentsNote } from "../core/explanation.js";
import type { AlignmentAlgorithm, ArgumentVerdict } from "../core/explanation.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import type { ToolSpec } from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import { compareArguments, normalizerAt } from "../matchers/compare-arguments.js";
import type { LinearRegExp } from "../matchers/linear-regex.js";
import type { SchemaValidator } from "../matchers/schema-validation.js";
import { expectedJson, isValueMatcher } from "../matchers/value-matchers.js";
import { toExpectedCalls } from "./expected-calls.js";
import type { ExpectedCall, ExpectedCalls, ExpectedCallsInput } from "./expected-calls.js";
import { stepsOf } from "./expected-calls.js";
import { checkConstraints, hasConstraints, retriedCalls } from "./match-constraints.js";
import { buildMatchDetails } from "./match-details.js";
import type { OrderAllows, PairExplanation } from "./match-details.js";
import { resolveMatchOptions, toolDefinitions } from "./match-options.js";
import type {
  CompareArgumentsFunction,
  MatchOptions,
  OrderMode,
  ResolvedMatchOptions,
  ScoreKind,
  ToolCompiled,
} from "./match-options.js";
import { buildReason, exactReason } from "./match-reason.js";
import type { LeftOutCall } from "./match-reason.js";
import type { CallSchemaViolation, MatchResult, ToolCallScore, Violation } from "./match-result.js";
import { pairToolCalls } from "./pairing.js";
import type { PairingAlgorithm } from "./pairing.js";
import { smallCaseTotal } from "./small-case-total.js";
import { toolCallMatrix } from "./tool-call-matrix.js";
import type { ToolCallMatrix } from "./tool-call-matrix.js";

// Pair scores are multiples of 2^-32 (2/3 becomes 0.66666666674): a double holds any sum of up
// to 2^21 of them exactly, so the optimal total (and every unordered score) cannot depend on the
// order in which the lists were given.
const QUANTUM = 2 ** -32;

function quantize(score: number): number {
  if (score >= 1) return 1;
  if (score <= 0) return 0;
  const q = Math.round(score / QUANTUM) * QUANTUM;
  return Math.min(Math.max(q, QUANTUM), 1 - QUANTUM);
}

interface ActualInput {
  readonly calls: readonly ToolCall[];
  readonly tools: readonly ToolSpec[];
  /** The step of each call, when a transcript gave them. */
  readonly steps?: readonly number[] | undefined;
}

/** The calls made, validated; a transcript's steps only when `withSteps` (`order: "steps"`). */
function readActual(actual: unknown, field: string, withSteps: boolean): ActualInput {
  if (
    !Array.isArray(actual) &&
    isJsonObject(actual) &&
    Array.isArray((actual as { calls?: unknown }).calls)
  ) {
    // A trajectory from parseTrajectory: its calls, and the tool definitions it carried.
    const trajectory = actual as unknown as { calls: unknown; tools?: unknown; steps?: unknown };
    const calls = toToolCalls(trajectory.calls, { field: `${field}.calls` });
    return {
      calls,
      tools: trajectory.tools === undefined ? [] : toolList(trajectory.tools, `${field}.tools`),
      steps: withSteps ? stepsOf(trajectory.steps, calls.length) : undefined,
    };
  }
  return { calls: toToolCalls(actual, { field }), tools: [] };
}

/** Validates a list of tool definitions; only `name` and `parameters` matter here. */
function toolList(value: unknown, field: string): readonly ToolSpec[] {
  if (!Array.isArray(value)) {
    throw new InvalidInputError({ field, message: `${field} must be a list of tool definitions` });
  }
  value.forEach((tool: unknown, index) => {
    if (!isJsonObject(tool) || typeof tool.name !== "string") {
      throw new InvalidInputError({
        field: `${field}[${index}]`,
        message: `${field}[${index}] must be a tool definition { name, description?, parameters? }`,
      });
    }
  });
  return value as ToolSpec[];
}

function defaultScore(order: OrderMode): ScoreKind {
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
function orderAllows(order: OrderMode, scoreKind: ScoreKind, made: number): OrderAllows {
  const extraCalls =
    (order === "all-expected" || order === "in-order" || order === "partial") &&
    (scoreKind === "recall" || scoreKind === "exact");
  const unmadeCalls =
    order === "only-expected" && (scoreKind === "exact" || (scoreKind === "precision" && made > 0));
  return { extraCalls, unmadeCalls };
}

function algorithmOf(order: OrderMode): AlignmentAlgorithm {
  switch (order) {
    case "in-order":
      return "weighted-lcs";
    case "strict":
      return "positional";
    case "partial":
      return "partial-order";
    default:
      return "optimal-assignment";
  }
}

/** Exact sum of quantized scores (plain addition is exact for them). */
function total(pairs: readonly Pair[]): number {
  let sum = 0;
  for (const pair of pairs) sum += pair.score;
  return sum;
}

/**
 * Matches the calls an agent made against the expected ones and explains the result: optimal
 * pairing (or ordered alignment, by `order`), argument rules and matchers, schema-guided
 * comparison, output checks, tool-error policy and constraints, with precision, recall, F1 and
 * exactness all computed on the same pairs.
 *
 * @example
 * const result = matchToolCalls(trajectory.calls, [
 *   [{ name: "get_weather", arguments: { city: "Paris" } }, { name: "get_weather", arguments: { city: "Lyon" } }],
 *   [{ name: "book_train", arguments: { date: match.regex(/^2026-05-/) } }],
 * ]);
 * result.score; result.reason; result.pairs[0].arguments;
 */
export function matchToolCalls(
  actual: unknown,
  expected: ExpectedCallsInput,
  options: MatchOptions = {},
): MatchResult {
  return matchWithResolvedOptions(actual, expected, resolveMatchOptions(options));
}

/** What errors call the two lists: `matchToolCalls`' parameter names. */
const defaultFields = { actual: "actual", expected: "expected" };

/** What validating the inputs and aligning the calls gives, before anything is explained. */
interface Alignment {
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

/** A case's two lists, read and validated once, whichever way the case is then scored. */
interface CaseCalls {
  readonly read: ActualInput;
  readonly given: ExpectedCalls;
  readonly caseTools: readonly ToolSpec[];
}

/**
 * Validates the calls made, the case's tool definitions and the expected calls, in that order
 * (the first problem is the one reported).
 */
function readCaseCalls(
  actual: unknown,
  expected: unknown,
  resolved: ResolvedMatchOptions,
  caseTools: readonly ToolSpec[],
  fields: { readonly actual: string; readonly expected: string },
): CaseCalls {
  const withSteps = resolved.order === "steps";
  // Under in-order, calls of one step (one assistant turn) have no order among themselves.
  const read = readActual(actual, fields.actual, withSteps || resolved.order === "in-order");
  toolList(caseTools, "availableTools");
  return { read, given: toExpectedCalls(expected, fields.expected, withSteps), caseTools };
}

/** Scores the candidate pairs of a case's lists and aligns them by the order mode. */
function align(input: CaseCalls, resolved: ResolvedMatchOptions): Alignment {
  const { read, given, caseTools } = input;
  const trajectoryTools = read.tools;
  const normalize = resolved.normalizeName;
  const nameOf = normalize ? (call: { name: string }) => normalize(call.name) : plainName;
  // Failures reported only as text are tool errors; calls of tools out of scope leave both sides.
  const flagged = withErrorOutput(read.calls, resolved.errorOutput);
  const scope = inScopeOnly(flagged, given, resolved, nameOf);
  const calls = scope.calls;
  const parsed = scope.expected;
  if (
    parsed.partial &&
    resolved.order !== undefined &&
    resolved.order !== "partial" &&
    resolved.order !== "steps"
  ) {
    throw new InvalidOptionError({
      option: "order",
      value: resolved.order,
      message: `the expected calls give a partial order (groups or after); order must be "partial" or left out, not ${JSON.stringify(resolved.order)}`,
    });
  }
  const order: OrderMode =
    resolved.order === "steps" ? "steps" : parsed.partial ? "partial" : (resolved.order ?? "any");
  const expectedCalls = parsed.calls;
  const definitions =
    caseTools.length === 0 && trajectoryTools.length === 0
      ? resolved.definitions
      : toolDefinitions([...resolved.tools, ...caseTools, ...trajectoryTools], normalize);
  const rulesFor = (name: string): ToolCompiled => resolved.perTool.get(name) ?? resolved.defaults;
  const changesState = sideEffectsOf(
    resolved,
    caseTools.length === 0 && trajectoryTools.length === 0
      ? resolved.tools
      : [...resolved.tools, ...caseTools, ...trajectoryTools],
    normalize,
  );

  // Calls left out of the scoring: attempts that failed and were retried (toolErrors "retry"),
  // or every failed call (toolErrors "fail": it counts as not made, neither paired nor
  // unexpected).
  const violations: Violation[] = [];
  const retried =
    resolved.toolErrors === "retry"
      ? retriedCalls(calls, nameOf, violations)
      : resolved.toolErrors === "fail" || resolved.toolErrors === "skip"
        ? failedCalls(calls)
        : noCalls;
  const failing = resolved.toolErrors !== "ignore";

  const compareCall = (
    e: ExpectedCall,
    call: ToolCall,
    verdicts: ArgumentVerdict[] | undefined,
  ): number => {
    const rules = rulesFor(nameOf(e));
    if (rules.compare !== undefined) return ownComparison(rules.compare, e, call, nameOf, verdicts);
    return compareArguments(e.arguments, call.inputParameters, {
      rules: rules.arguments,
      schema: definitions.size === 0 ? undefined : definitions.get(nameOf(e)),
      verdicts,
      coerceTypes: resolved.coerceTypes,
      schemaDefaults: resolved.schemaDefaults,
    });
  };
  // Scoring records nothing: only the pairs finally chosen are explained, by matchToolCalls.
  const pairScore = (e: ExpectedCall, call: ToolCall): number => {
    if (call.isError === true && failing) return 0;
    let score = compareCall(e, call, undefined);
    const outputRules = rulesFor(nameOf(e)).output;
    if (score > 0 && e.output !== undefined && outputRules.mode !== "ignore") {
      if (compareArguments(e.output, call.output, { rules: outputRules }) < 1) score = 0;
    }
    return quantize(score);
  };
  let matcherIds: Map<object, number> | undefined;
  const matrix = toolCallMatrix<ExpectedCall>({
    expected: expectedCalls,
    called: calls,
    score: pairScore,
    groupKey: nameOf,
    expectedKey: (e) =>
      // Matchers have no stable text; each matcher object is its own class.
      JSON.stringify([e.arguments, e.output ?? null], (_key, value: unknown) => {
        if (!isValueMatcher(value)) return value;
        matcherIds ??= new Map();
        let id = matcherIds.get(value);
        if (id === undefined) matcherIds.set(value, (id = matcherIds.size));
        return `\u0000matcher${id}`;
      }),
    calledKey: (call) => JSON.stringify([call.inputParameters, call.output, call.isError === true]),
    // Calls with the arguments expected most often score 1: large assignments pair them first.
    perfectKeys: {
      expected: (e) => JSON.stringify(e.arguments),
      called: (call) => JSON.stringify(call.inputParameters),
    },
    maxPairEvaluations: resolved.limits.maxPairEvaluations,
  });

  const algorithm = algorithmOf(order);
  const stepped =
    order === "steps" ? stepsInScope(scope, parsed.steps ?? given.steps, read.steps) : undefined;
  const turns =
    order === "in-order" && read.steps !== undefined
      ? stepsInScope(scope, undefined, read.steps).called
      : undefined;
  const pairs = alignCalls(
    stepped === undefined ? matrix : sameStepsOnly(matrix, stepped),
    order,
    algorithm,
    { expectedCalls, calledSteps: turns },
    retried,
    resolved,
  );
  return {
    calls,
    expectedCalls,
    order,
    algorithm,
    matrix,
    pairs,
    sum: total(pairs),
    retried,
    violations,
    nameOf,
    rulesFor,
    compareCall,
    definitions,
    changesState,
    scope,
    steps: stepped,
  };
}

/**
 * Whether a tool changes the world: as the options' `sideEffects` name it, else as the first
 * definition that says (`readOnly`: the options' tools, the case's, the transcript's), else as
 * `sideEffects.undeclared` says.
 */
function sideEffectsOf(
  resolved: ResolvedMatchOptions,
  tools: readonly ToolSpec[],
  normalize: ((name: string) => string) | undefined,
): (name: string) => boolean {
  const said = new Map<string, boolean>();
  for (const tool of tools) {
    if (typeof tool.readOnly !== "boolean") continue;
    const name = normalize ? normalize(tool.name) : tool.name;
    if (!said.has(name)) said.set(name, tool.readOnly);
  }
  const { declared, undeclared } = resolved.sideEffects;
  return (name) => !(declared(name) ?? said.get(name) ?? undeclared === "read-only");
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

function recallOf(sum: number, expected: number): number {
  return expected === 0 ? 1 : sum / expected;
}

function precisionOf(sum: number, considered: number, expected: number): number {
  return considered === 0 ? (expected === 0 ? 1 : 0) : sum / considered;
}

/** Precision, recall, F1, exactness and the score of an alignment, under the options. */
function scoreAlignment(alignment: Alignment, resolved: ResolvedMatchOptions): AlignmentScores {
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
function numbersOf(
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

/**
 * `matchToolCalls` with options resolved beforehand (a metric resolves them once), and tool
 * definitions of this case (`availableTools`) added to the options' own; `fields` names the two
 * lists in error messages (a metric says `toolsCalled[0].name`, not `actual[0].name`).
 */
export function matchWithResolvedOptions(
  actual: unknown,
  expected: unknown,
  resolved: ResolvedMatchOptions,
  caseTools: readonly ToolSpec[] = [],
  fields: { readonly actual: string; readonly expected: string } = defaultFields,
): MatchResult {
  return explain(
    align(readCaseCalls(actual, expected, resolved, caseTools, fields), resolved),
    resolved,
  );
}

/** The full result of an alignment: pairs and verdicts, unpaired calls, numbers, reason. */
function explain(alignment: Alignment, resolved: ResolvedMatchOptions): MatchResult {
  const { calls, expectedCalls, matrix, pairs, sum, retried, nameOf, rulesFor, compareCall } =
    alignment;
  const explainPair = (e: ExpectedCall, call: ToolCall): PairExplanation => {
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
      return call.isError === true
        ? { arguments: verdicts, isError: true }
        : { arguments: verdicts };
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
  };
  const details = buildMatchDetails({
    algorithm: alignment.algorithm,
    expected: expectedCalls,
    called: calls,
    matrix,
    pairing: { pairs, total: sum },
    explainPair,
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
 * The numbers of `matchToolCalls` (score, precision, recall, F1, exactness, success) without the
 * explanation: no pairs, verdicts, missing or extra calls, violations or reason. The same inputs
 * give the same numbers (tested); this takes about half the time, for runs that only need the
 * score (gates over many cases, the explanation asked for the failures only).
 *
 * @example
 * const { score, success } = scoreToolCalls(trajectory, expected, { order: "in-order" });
 * if (!success) failures.push(matchToolCalls(trajectory, expected, { order: "in-order" }).reason);
 */
export function scoreToolCalls(
  actual: unknown,
  expected: ExpectedCallsInput,
  options: MatchOptions = {},
): ToolCallScore {
  const resolved = resolveMatchOptions(options);
  const calls = readCaseCalls(actual, expected, resolved, [], defaultFields);
  return (
    smallCase(calls, resolved)?.numbers ?? scoreAlignment(align(calls, resolved), resolved).numbers
  );
}

/**
 * For a caller that needs an exact match's numbers and reason only, and everything else
 * explained: an exact match found the quick way (`smallCase`), with its reason, or the full
 * result (`matchWithResolvedOptions`), the lists read once either way. Both ways give the same
 * numbers and reason (property-tested).
 */
export function matchUnlessExact(
  actual: unknown,
  expected: unknown,
  resolved: ResolvedMatchOptions,
  caseTools: readonly ToolSpec[],
  fields: { readonly actual: string; readonly expected: string },
):
  | { readonly exact: { readonly numbers: ToolCallScore; readonly reason: string } }
  | { readonly exact?: undefined; readonly result: MatchResult } {
  const calls = readCaseCalls(actual, expected, resolved, caseTools, fields);
  const quick = caseTools.length === 0 ? smallCase(calls, resolved) : undefined;
  if (quick !== undefined && quick.numbers.exact) {
    return {
      exact: { numbers: quick.numbers, reason: exactReason(quick.numbers, quick.counts) },
    };
  }
  return { result: explain(align(calls, resolved), resolved) };
}

/**
 * Whether the options leave the pair scores to the argument rules alone: no per-tool rules,
 * schemas, name normalization, tool-error policy, output comparison or constraints.
 */
function scoresByArgumentsOnly(resolved: ResolvedMatchOptions): boolean {
  return (
    resolved.perTool.size === 0 &&
    resolved.definitions.size === 0 &&
    resolved.normalizeName === undefined &&
    resolved.toolErrors === "ignore" &&
    resolved.errorOutput === undefined &&
    resolved.inScope === undefined &&
    resolved.unparsedArguments === "mismatch" &&
    resolved.defaults.output.mode === "ignore" &&
    !hasConstraints(resolved.constraints)
  );
}

/**
 * `scoreToolCalls`' numbers (and the number of expected calls) for small cases under plain
 * options, from the total of the chosen
 * pairs' scores without building the pairs (see `smallCaseTotal`): with quantized scores, every
 * pair is perfect exactly when the total equals the number of pairs the mode requires, so the
 * total decides exactness too. Undefined when the case is not one of these; the general way then
 * scores it. A property test holds the two ways to the same numbers.
 */
function smallCase(
  input: CaseCalls,
  resolved: ResolvedMatchOptions,
):
  | {
      readonly numbers: ToolCallScore;
      readonly counts: { readonly expected: number; readonly made: number };
    }
  | undefined {
  const order = resolved.order ?? "any";
  if (
    order === "in-order" ||
    order === "partial" ||
    order === "steps" ||
    !scoresByArgumentsOnly(resolved)
  ) {
    return undefined;
  }
  const { calls, tools } = input.read;
  const parsed = input.given;
  if (tools.length > 0 || parsed.partial) return undefined;
  // Extra calls of a tool that changes state are violations: the general way names them.
  if (
    orderAllows(order, resolved.score ?? defaultScore(order), calls.length).extraCalls &&
    hasStateChangingSurplus(calls, parsed.calls, resolved)
  ) {
    return undefined;
  }
  const rules = resolved.defaults.arguments;
  const limits = resolved.limits;
  const named = parsed.calls;
  const argumentsAt = (row: number) => named[row].arguments;
  const n = named.length;
  const total = smallCaseTotal({
    expected: named,
    called: calls,
    order,
    score: (row, col) =>
      quantize(compareArguments(argumentsAt(row), calls[col].inputParameters, { rules })),
    maxPairEvaluations: limits.maxPairEvaluations,
    maxAssignmentWork: limits.maxAssignmentWork,
    // Plain JSON compared without path rules: no matcher that could throw.
    pairsMaySkip: parsed.plain === true && rules.paths.length === 0,
  });
  if (total === undefined) return undefined;
  const m = calls.length;
  const exact =
    order === "only-expected"
      ? total === m
      : order === "all-expected"
        ? total === n
        : total === n && total === m;
  const numbers = numbersOf(
    {
      algorithm: algorithmOf(order),
      order,
      precision: precisionOf(total, m, n),
      recall: recallOf(total, n),
      exact,
      failedByViolation: false,
    },
    resolved,
  );
  return { numbers, counts: { expected: n, made: m } };
}

/**
 * Whether more calls of some tool that changes state were made than were expected of it (failed
 * calls counted too: the general way, which leaves them out, then decides).
 */
function hasStateChangingSurplus(
  calls: readonly ToolCall[],
  expected: readonly ExpectedCall[],
  resolved: ResolvedMatchOptions,
): boolean {
  const surplus = new Map<string, number>();
  for (const call of calls) surplus.set(call.name, (surplus.get(call.name) ?? 0) + 1);
  for (const e of expected) surplus.set(e.name, (surplus.get(e.name) ?? 0) - 1);
  // No tool definitions on this way: the options alone say.
  const changesState = sideEffectsOf(resolved, [], undefined);
  for (const [name, count] of surplus) if (count > 0 && changesState(name)) return true;
  return false;
}

const plainName = (call: { name: string }): string => call.name;
// Shared empties: most cases have no retried calls and no schema violations.
const noCalls: ReadonlySet<number> = new Set();
const noSchemaViolations: readonly CallSchemaViolation[] = Object.freeze([]);

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
function ownComparison(
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
interface Steps {
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
function stepsInScope(
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
function sameStepsOnly(matrix: ToolCallMatrix, steps: Steps): ToolCallMatrix {
  return masked(matrix, (row, col) => steps.expected[row] === steps.called[col]);
}

/** The calls and expected calls in scope, and where they were in the lists given. */
interface Scope {
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
function inScopeOnly(
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
function withErrorOutput(
  calls: readonly ToolCall[],
  pattern: LinearRegExp | undefined,
): readonly ToolCall[] {
  if (pattern === undefined) return calls;
  let marked: ToolCall[] | undefined;
  calls.forEach((call, index) => {
    if (call.isError === true) return;
    const text = typeof call.output === "string" ? call.output : JSON.stringify(call.output);
    if (!pattern.test(text)) return;
    marked ??= [...calls];
    marked[index] = { ...call, isError: true };
  });
  return marked ?? calls;
}

/**
 * The reason's last sentence when violations fail the case: which kinds, when some schema
 * violations are only reported (`onSchemaViolation: { fail: [...] }`).
 */
function failureSentence(
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
function remapIndices(
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
function failedCalls(calls: readonly ToolCall[]): ReadonlySet<number> {
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
function alignCalls(
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
function validateCalls(
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
