import type { Pair } from "../algorithms/score-matrix.js";
import { InvalidInputError, InvalidOptionError } from "../core/errors.js";
import type { AlignmentAlgorithm, ArgumentVerdict } from "../core/explanation.js";
import { isJsonObject } from "../core/json.js";
import type { ToolSpec } from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import { compareArguments } from "../matchers/compare-arguments.js";
import { isValueMatcher } from "../matchers/value-matchers.js";
import { toExpectedCalls } from "./expected-calls.js";
import type { ExpectedCall, ExpectedCalls, ExpectedCallsInput } from "./expected-calls.js";
import { stepsOf } from "./expected-calls.js";
import { hasConstraints, retriedCalls } from "./match-constraints.js";
import { resolveMatchOptions, toolDefinitions } from "./match-options.js";
import type {
  MatchOptions,
  OrderMode,
  ResolvedMatchOptions,
  ToolCompiled,
} from "./match-options.js";
import { exactReason } from "./match-reason.js";
import type { MatchResult, ToolCallScore, Violation } from "./match-result.js";
import { smallCaseTotal } from "./small-case-total.js";
import { toolCallMatrix } from "./tool-call-matrix.js";
import {
  plainName,
  noCalls,
  ownComparison,
  stepsInScope,
  sameStepsOnly,
  inScopeOnly,
  withErrorOutput,
  failedCalls,
  alignCalls,
} from "./call-scope.js";
import {
  defaultScore,
  orderAllows,
  recallOf,
  precisionOf,
  scoreAlignment,
  numbersOf,
  explain,
} from "./explain-alignment.js";
import type { Alignment } from "./explain-alignment.js";

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
  return {
    read,
    given: toExpectedCalls(expected, fields.expected, withSteps, resolved.matchers),
    caseTools,
  };
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
