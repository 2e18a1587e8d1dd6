import { partialOrderPairs, StateLimitError } from "../algorithms/partial-order.js";
import type { Pair } from "../algorithms/score-matrix.js";
import { InvalidInputError, InvalidOptionError, LimitExceededError } from "../core/errors.js";
import type {
  AlignmentAlgorithm,
  ArgumentVerdict,
  PairDetail,
  ToolCallMatchDetails,
} from "../core/explanation.js";
import { isJsonObject, jsonEquals } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { ToolSpec } from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import { compareArguments } from "../matchers/compare-arguments.js";
import type { ArgumentMode, ArgumentRule, CompiledRules } from "../matchers/compare-arguments.js";
import { compilePathPattern } from "../matchers/path-rules.js";
import { SchemaValidator } from "../matchers/schema-validation.js";
import type { SchemaViolation } from "../matchers/schema-validation.js";
import { isValueMatcher, toExpectedValue } from "../matchers/value-matchers.js";
import { toExpectedCalls } from "./expected-calls.js";
import type { ExpectedCall, ExpectedCallsInput } from "./expected-calls.js";
import { resolveMatchLimits } from "./limits.js";
import type { MatchLimits, ResolvedMatchLimits } from "./limits.js";
import { buildMatchDetails } from "./match-details.js";
import type { PairExplanation } from "./match-details.js";
import { enumOption, numberOption, optionsObject, rejectUnknownOptions } from "./options.js";
import { pairToolCalls } from "./pairing.js";
import { toolCallMatrix } from "./tool-call-matrix.js";
import type { ToolCallMatrix } from "./tool-call-matrix.js";

/**
 * How the order of calls counts:
 * - `any`: a multiset; optimal pairing, order ignored;
 * - `in-order`: the expected calls must appear in that order, other calls may come between;
 * - `strict`: the exact sequence, position by position;
 * - `subset`: every call made must be expected; expected calls may be left out;
 * - `superset`: every expected call must be made; other calls are fine;
 * - `partial`: a partial order, from groups (`[[a, b], [c]]`) or `after` ids.
 */
export type OrderMode = "any" | "in-order" | "strict" | "subset" | "superset" | "partial";

/** Which number is the score. */
export type ScoreKind = "f1" | "precision" | "recall" | "exact";

/** A mode for a whole value (`"subset"`), or a mode with rules for paths inside it. */
export type RulesInput =
  | ArgumentMode
  | { readonly mode?: ArgumentMode; readonly paths?: Readonly<Record<string, ArgumentRule>> };

/** Rules for the calls of one tool. */
export interface ToolRules {
  readonly arguments?: RulesInput;
  readonly output?: RulesInput;
}

/** Limits on the calls made, checked in the same pass. */
export interface MatchConstraints {
  /** Tools that must not be called at all. */
  readonly forbiddenTools?: readonly string[];
  /** Fewest calls per tool. */
  readonly minCalls?: Readonly<Record<string, number>>;
  /** Most calls per tool. */
  readonly maxCalls?: Readonly<Record<string, number>>;
  /** Most calls in all. */
  readonly maxTotalCalls?: number;
  /** Whether the same call (tool and arguments) may be repeated back to back. Default `"allow"`. */
  readonly redundantCalls?: "allow" | "forbid";
}

export interface MatchOptions {
  /** How order counts. Default `"any"`, or `"partial"` when the expected calls say so. */
  order?: OrderMode;
  /**
   * Which number is the score. Default `"f1"`; `"recall"` for `in-order`, `superset` and
   * `partial` (extra calls are allowed there), `"precision"` for `subset`.
   */
  score?: ScoreKind;
  /** How arguments compare, for every call. Default `"exact"`. */
  arguments?: RulesInput;
  /** How outputs compare, for expected calls that give one. Default `"ignore"`. */
  output?: RulesInput;
  /** Rules per tool name, over the ones above. */
  toolRules?: Readonly<Record<string, ToolRules>>;
  /** Tool definitions (JSON Schema in `parameters`): arguments are validated and compared by them. */
  tools?: readonly ToolSpec[];
  /** What a call the tool reported as an error means: nothing (default), a failed call, or a call that must be retried. */
  toolErrors?: "ignore" | "fail" | "retry";
  constraints?: MatchConstraints;
  /** Whether a constraint violation (or an unretried error) fails the case (score 0). Default `"fail"`. */
  onViolation?: "fail" | "report";
  /** Whether arguments that break the tool's schema fail the case (score 0). Default `"report"`. */
  onSchemaViolation?: "fail" | "report";
  /** Applied to every tool name on both sides before matching (`createNameNormalizer()`). */
  normalizeName?: (name: string) => string;
  /** Minimum passing score. Default 0.5. */
  threshold?: number;
  /** Bounds for pathological inputs; `maxOrderStates` bounds partial-order alignment. */
  limits?: MatchLimits & { maxOrderStates?: number };
}

/** A constraint the calls broke, located by call index where there is one. */
export type Violation =
  | { readonly kind: "forbidden-tool"; readonly calledIndex: number; readonly name: string }
  | {
      readonly kind: "too-few-calls";
      readonly name: string;
      readonly count: number;
      readonly min: number;
    }
  | {
      readonly kind: "too-many-calls";
      readonly calledIndex: number;
      readonly name: string;
      readonly count: number;
      readonly max: number;
    }
  | {
      readonly kind: "too-many-total-calls";
      readonly calledIndex: number;
      readonly count: number;
      readonly max: number;
    }
  | {
      readonly kind: "redundant-call";
      readonly calledIndex: number;
      readonly previousIndex: number;
      readonly name: string;
    }
  | { readonly kind: "unretried-error"; readonly calledIndex: number; readonly name: string };

/** A schema violation of one call made. */
export type CallSchemaViolation = SchemaViolation & {
  readonly calledIndex: number;
  readonly name: string;
};

/**
 * Every view of one alignment: the score and the numbers it comes from, whether the calls match
 * exactly, the pairs with per-argument verdicts, what is missing, extra or out of order, the
 * constraints and schemas broken, and a sentence saying why.
 */
export interface MatchResult extends ToolCallMatchDetails {
  readonly score: number;
  readonly scoreKind: ScoreKind;
  readonly exact: boolean;
  readonly success: boolean;
  readonly threshold: number;
  readonly order: OrderMode;
  readonly violations: readonly Violation[];
  readonly schemaViolations: readonly CallSchemaViolation[];
  readonly reason: string;
}

interface ToolCompiled {
  readonly arguments: CompiledRules;
  readonly output: CompiledRules;
}

export interface ResolvedMatchOptions {
  readonly order: OrderMode | undefined;
  readonly score: ScoreKind | undefined;
  readonly defaults: ToolCompiled;
  readonly perTool: ReadonlyMap<string, ToolCompiled>;
  readonly tools: readonly ToolSpec[];
  readonly toolErrors: "ignore" | "fail" | "retry";
  readonly constraints: MatchConstraints;
  readonly onViolation: "fail" | "report";
  readonly onSchemaViolation: "fail" | "report";
  readonly normalizeName: ((name: string) => string) | undefined;
  readonly threshold: number;
  readonly limits: ResolvedMatchLimits;
  readonly maxOrderStates: number;
  readonly validator: SchemaValidator;
  /** The definitions of `tools`, by (normalized) name. */
  readonly definitions: ReadonlyMap<string, JsonObject>;
}

const orderModes: readonly OrderMode[] = [
  "any",
  "in-order",
  "strict",
  "subset",
  "superset",
  "partial",
];
const scoreKinds: readonly ScoreKind[] = ["f1", "precision", "recall", "exact"];
const knownOptions = [
  "order",
  "score",
  "arguments",
  "output",
  "toolRules",
  "tools",
  "toolErrors",
  "constraints",
  "onViolation",
  "onSchemaViolation",
  "normalizeName",
  "threshold",
  "limits",
];

function mode(option: string, value: unknown): ArgumentMode {
  if (value === "exact" || value === "subset" || value === "superset" || value === "ignore")
    return value;
  if (
    isJsonObject(value) &&
    Object.keys(value).length === 1 &&
    typeof value.fuzzy === "number" &&
    value.fuzzy >= 0 &&
    value.fuzzy <= 1
  ) {
    return { fuzzy: value.fuzzy };
  }
  throw new InvalidOptionError({
    option,
    value,
    message: `${option} must be "exact", "subset", "superset", "ignore" or { fuzzy: 0..1 }, got ${JSON.stringify(value)}`,
  });
}

/** A path rule: a mode, a matcher, or a matcher in its JSON form (`{"$match": "any"}`). */
function pathRule(option: string, rule: unknown): ArgumentRule {
  if (isValueMatcher(rule)) return rule;
  if (isJsonObject(rule) && Object.hasOwn(rule, "$match")) {
    try {
      return toExpectedValue(rule, { field: option }) as ArgumentRule;
    } catch (error) {
      throw new InvalidOptionError({ option, value: rule, message: (error as Error).message });
    }
  }
  return mode(option, rule);
}

function compileRules(option: string, input: unknown, fallback: CompiledRules): CompiledRules {
  if (input === undefined) return fallback;
  if (typeof input === "string" || (isJsonObject(input) && "fuzzy" in input)) {
    return { mode: mode(option, input), paths: [] };
  }
  if (!isJsonObject(input) && !(typeof input === "object" && input !== null)) {
    throw new InvalidOptionError({
      option,
      value: input,
      message: `${option} must be a mode or { mode, paths }`,
    });
  }
  const record = input as { mode?: unknown; paths?: unknown };
  rejectUnknownOptions(option, record, ["mode", "paths"]);
  const paths: { pattern: ReturnType<typeof compilePathPattern>; rule: ArgumentRule }[] = [];
  if (record.paths !== undefined) {
    if (typeof record.paths !== "object" || record.paths === null) {
      throw new InvalidOptionError({
        option: `${option}.paths`,
        value: record.paths,
        message: `${option}.paths must map path patterns to rules`,
      });
    }
    for (const [source, rule] of Object.entries(record.paths as Record<string, unknown>)) {
      let pattern: ReturnType<typeof compilePathPattern>;
      try {
        pattern = compilePathPattern(source);
      } catch (error) {
        throw new InvalidOptionError({
          option: `${option}.paths`,
          value: source,
          message: `${option}.paths: ${(error as Error).message}`,
        });
      }
      paths.push({ pattern, rule: pathRule(`${option}.paths[${JSON.stringify(source)}]`, rule) });
    }
  }
  return {
    mode: record.mode === undefined ? fallback.mode : mode(`${option}.mode`, record.mode),
    // Own path rules first: they are more specific than the fallback's.
    paths: [...paths, ...fallback.paths],
  };
}

function countMap(option: string, value: unknown): Readonly<Record<string, number>> | undefined {
  if (value === undefined) return undefined;
  if (
    !isJsonObject(value) ||
    !Object.values(value).every((n) => typeof n === "number" && Number.isInteger(n) && n >= 0)
  ) {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must map tool names to whole numbers, like { search: 2 }`,
    });
  }
  return value as Record<string, number>;
}

function resolveConstraints(value: unknown): MatchConstraints {
  if (value === undefined) return {};
  if (!isJsonObject(value))
    throw new InvalidOptionError({
      option: "constraints",
      value,
      message: "constraints must be an object",
    });
  rejectUnknownOptions("constraints", value, [
    "forbiddenTools",
    "minCalls",
    "maxCalls",
    "maxTotalCalls",
    "redundantCalls",
  ]);
  const forbidden = value.forbiddenTools as JsonValue | undefined;
  if (
    forbidden !== undefined &&
    (!Array.isArray(forbidden) || !forbidden.every((n) => typeof n === "string"))
  ) {
    throw new InvalidOptionError({
      option: "constraints.forbiddenTools",
      value: forbidden,
      message: "constraints.forbiddenTools must be a list of tool names",
    });
  }
  const minCalls = countMap("constraints.minCalls", value.minCalls);
  const maxCalls = countMap("constraints.maxCalls", value.maxCalls);
  const maxTotal =
    (value.maxTotalCalls as JsonValue | undefined) === undefined
      ? undefined
      : numberOption("constraints.maxTotalCalls", value.maxTotalCalls, 0, {
          min: 0,
          max: Number.MAX_SAFE_INTEGER,
        });
  return {
    ...(forbidden === undefined ? {} : { forbiddenTools: forbidden }),
    ...(minCalls === undefined ? {} : { minCalls }),
    ...(maxCalls === undefined ? {} : { maxCalls }),
    ...(maxTotal === undefined ? {} : { maxTotalCalls: maxTotal }),
    redundantCalls: enumOption(
      "constraints.redundantCalls",
      value.redundantCalls,
      ["allow", "forbid"] as const,
      "allow",
    ),
  };
}

const resolvedCache = new WeakMap<object, ResolvedMatchOptions>();

/** Validates the options once (and remembers the result for the same options object). */
export function resolveMatchOptions(options: MatchOptions = {}): ResolvedMatchOptions {
  const cached = resolvedCache.get(options);
  if (cached) return cached;
  const given = optionsObject("matchToolCalls", options) as MatchOptions;
  rejectUnknownOptions("matchToolCalls", given, knownOptions);
  if (given.normalizeName !== undefined && typeof given.normalizeName !== "function") {
    throw new InvalidOptionError({
      option: "normalizeName",
      value: given.normalizeName,
      message: "normalizeName must be a function",
    });
  }
  const defaults: ToolCompiled = {
    arguments: compileRules("arguments", given.arguments, { mode: "exact", paths: [] }),
    output: compileRules("output", given.output, { mode: "ignore", paths: [] }),
  };
  const perTool = new Map<string, ToolCompiled>();
  if (given.toolRules !== undefined) {
    if (!isJsonObject(given.toolRules)) {
      throw new InvalidOptionError({
        option: "toolRules",
        value: given.toolRules,
        message: "toolRules must map tool names to { arguments, output }",
      });
    }
    for (const [name, rules] of Object.entries(given.toolRules as Record<string, unknown>)) {
      if (!isJsonObject(rules))
        throw new InvalidOptionError({
          option: `toolRules.${name}`,
          value: rules,
          message: `toolRules.${name} must be { arguments?, output? }`,
        });
      rejectUnknownOptions(`toolRules.${name}`, rules, ["arguments", "output"]);
      // Tool names go through the same normalization as the calls' names.
      perTool.set(given.normalizeName ? given.normalizeName(name) : name, {
        arguments: compileRules(`toolRules.${name}.arguments`, rules.arguments, defaults.arguments),
        output: compileRules(`toolRules.${name}.output`, rules.output, defaults.output),
      });
    }
  }
  const tools = given.tools ?? [];
  if (
    !Array.isArray(tools) ||
    !tools.every((tool) => isJsonObject(tool) && typeof tool.name === "string")
  ) {
    throw new InvalidOptionError({
      option: "tools",
      value: tools,
      message: "tools must be a list of tool definitions { name, description?, parameters? }",
    });
  }
  const limits = given.limits ?? {};
  const { maxOrderStates, ...matchLimits } = limits;
  const resolved: ResolvedMatchOptions = {
    order:
      given.order === undefined ? undefined : enumOption("order", given.order, orderModes, "any"),
    score:
      given.score === undefined ? undefined : enumOption("score", given.score, scoreKinds, "f1"),
    defaults,
    perTool,
    tools,
    toolErrors: enumOption("toolErrors", given.toolErrors, ["ignore", "fail", "retry"], "ignore"),
    constraints: resolveConstraints(given.constraints),
    onViolation: enumOption("onViolation", given.onViolation, ["fail", "report"], "fail"),
    onSchemaViolation: enumOption(
      "onSchemaViolation",
      given.onSchemaViolation,
      ["fail", "report"],
      "report",
    ),
    normalizeName: given.normalizeName,
    threshold: numberOption("threshold", given.threshold, 0.5, { min: 0, max: 1 }),
    limits: resolveMatchLimits(matchLimits),
    maxOrderStates: numberOption("limits.maxOrderStates", maxOrderStates, 2_000_000, {
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
    }),
    validator: new SchemaValidator(),
    definitions: toolDefinitions(tools, given.normalizeName),
  };
  resolvedCache.set(options, resolved);
  return resolved;
}

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
}

function readActual(actual: unknown): ActualInput {
  if (
    !Array.isArray(actual) &&
    isJsonObject(actual) &&
    Array.isArray((actual as { calls?: unknown }).calls)
  ) {
    // A trajectory from parseTrajectory: its calls, and the tool definitions it carried.
    const trajectory = actual as unknown as { calls: unknown; tools?: unknown };
    return {
      calls: toToolCalls(trajectory.calls, { field: "actual.calls" }),
      tools: trajectory.tools === undefined ? [] : toolList(trajectory.tools, "actual.tools"),
    };
  }
  return { calls: toToolCalls(actual, { field: "actual" }), tools: [] };
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
  if (order === "subset") return "precision";
  if (order === "in-order" || order === "superset" || order === "partial") return "recall";
  return "f1";
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

function checkConstraints(
  calls: readonly ToolCall[],
  nameOf: (call: { name: string }) => string,
  constraints: MatchConstraints,
  violations: Violation[],
): void {
  const { forbiddenTools, minCalls, maxCalls, maxTotalCalls, redundantCalls } = constraints;
  if (
    forbiddenTools === undefined &&
    minCalls === undefined &&
    maxCalls === undefined &&
    maxTotalCalls === undefined &&
    redundantCalls !== "forbid"
  ) {
    return;
  }
  // Constraint names go through the same normalization as the calls' names.
  const byName = (record: Readonly<Record<string, number>> | undefined) =>
    new Map(Object.entries(record ?? {}).map(([name, n]) => [nameOf({ name }), n]));
  const forbidden = new Set((forbiddenTools ?? []).map((name) => nameOf({ name })));
  const most = byName(maxCalls);
  const counts = new Map<string, number>();
  const tooMany: number[] = [];
  calls.forEach((call, index) => {
    const name = nameOf(call);
    if (forbidden.has(name)) violations.push({ kind: "forbidden-tool", calledIndex: index, name });
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    const max = most.get(name);
    if (max !== undefined && count === max + 1) {
      tooMany.push(violations.length);
      violations.push({ kind: "too-many-calls", calledIndex: index, name, count, max });
    }
    if (maxTotalCalls !== undefined && index === maxTotalCalls) {
      violations.push({
        kind: "too-many-total-calls",
        calledIndex: index,
        count: calls.length,
        max: maxTotalCalls,
      });
    }
    if (redundantCalls === "forbid" && index > 0) {
      const previous = calls[index - 1];
      if (nameOf(previous) === name && jsonEquals(previous.inputParameters, call.inputParameters)) {
        violations.push({
          kind: "redundant-call",
          calledIndex: index,
          previousIndex: index - 1,
          name,
        });
      }
    }
  });
  // A too-many-calls violation sits at the first call over the maximum and reports the final count.
  for (const at of tooMany) {
    const violation = violations[at];
    if (violation.kind === "too-many-calls") {
      violations[at] = { ...violation, count: counts.get(violation.name) ?? violation.count };
    }
  }
  for (const [name, min] of byName(minCalls)) {
    const count = counts.get(name) ?? 0;
    if (count < min) violations.push({ kind: "too-few-calls", name, count, min });
  }
}

/** Joins reasons, naming at most `limit` of them (the result lists every one). */
function sentence(items: readonly string[], limit = 6): string {
  if (items.length <= limit) return items.join("; ");
  return `${items.slice(0, limit).join("; ")}; and ${items.length - limit} more (see mismatches)`;
}

const show = (value: JsonValue | undefined): string =>
  value === undefined ? "absent" : JSON.stringify(value);

function describeVerdict(verdict: ArgumentVerdict): string {
  switch (verdict.verdict) {
    case "missing":
      return `${verdict.path} missing${verdict.note ? ` (${verdict.note})` : ""}`;
    case "unexpected":
      return `${verdict.path} = ${show(verdict.actual)} not expected`;
    default: {
      const wanted = verdict.note?.startsWith("expected ")
        ? verdict.note.slice("expected ".length)
        : show(verdict.expected);
      return `${verdict.path} is ${show(verdict.actual)}, expected ${wanted}`;
    }
  }
}

/** What differed between an expected call and a call made: arguments, output, error. */
function differences(
  verdicts: readonly ArgumentVerdict[],
  output: PairDetail["output"],
  isError: boolean | undefined,
): string {
  const parts: string[] = [];
  for (const verdict of verdicts)
    if (verdict.verdict !== "match") parts.push(describeVerdict(verdict));
  if (output?.verdict === "mismatch")
    parts.push(`output is ${show(output.actual)}, expected ${show(output.expected)}`);
  if (isError === true) parts.push("the tool reported an error");
  return parts.join(", ");
}

function describeViolation(violation: Violation): string {
  switch (violation.kind) {
    case "forbidden-tool":
      return `called[${violation.calledIndex}] ${violation.name} is a forbidden tool`;
    case "too-few-calls":
      return `${violation.name} called ${violation.count} time${violation.count === 1 ? "" : "s"}, at least ${violation.min} required`;
    case "too-many-calls":
      return `${violation.name} called ${violation.count} times, at most ${violation.max} allowed (from called[${violation.calledIndex}])`;
    case "too-many-total-calls":
      return `${violation.count} calls in all, at most ${violation.max} allowed (from called[${violation.calledIndex}])`;
    case "redundant-call":
      return `called[${violation.calledIndex}] ${violation.name} repeats called[${violation.previousIndex}]`;
    case "unretried-error":
      return `called[${violation.calledIndex}] ${violation.name} failed and was not retried`;
  }
}

const rounded = (n: number): number => Math.round(n * 1000) / 1000;
const calls = (n: number): string => (n === 1 ? "1 expected call" : `${n} expected calls`);

/**
 * The reason sentence: how many expected calls matched, then every reason the score is below 1,
 * located by `expected[i]` / `called[j]` and argument path.
 */
function buildReason(
  result: Omit<MatchResult, "reason">,
  expectedCount: number,
  failed: boolean,
): string {
  const scoreText = `order: ${result.order}; ${result.scoreKind} ${rounded(result.score)}`;
  if (result.exact && result.violations.length === 0 && result.schemaViolations.length === 0) {
    if (expectedCount === 0) return `No calls were expected and none were made (${scoreText}).`;
    return `${expectedCount === 1 ? "The" : "All"} ${calls(expectedCount)} ${expectedCount === 1 ? "was" : "were"} made as expected (${scoreText}).`;
  }
  const items: string[] = [];
  let matched = 0;
  for (const pair of result.pairs) {
    if (pair.score === 1 && pair.output?.verdict !== "mismatch") {
      matched++;
      continue;
    }
    const what = differences(pair.arguments, pair.output, pair.isError);
    items.push(
      `expected[${pair.expectedIndex}] ${pair.name} paired with called[${pair.calledIndex}] (score ${rounded(pair.score)})${what ? `: ${what}` : ""}`,
    );
  }
  for (const m of result.missing) {
    if (m.nearest) {
      const what = differences(m.nearest.arguments, m.nearest.output, m.nearest.isError);
      items.push(
        `expected[${m.expectedIndex}] ${m.name} missing; called[${m.nearest.calledIndex}] differs${what ? `: ${what}` : ""}`,
      );
    } else {
      items.push(`expected[${m.expectedIndex}] ${m.name} missing`);
    }
  }
  for (const m of result.outOfOrder)
    items.push(`expected[${m.expectedIndex}] ${m.name} made out of order`);
  for (const u of result.unexpected) items.push(`called[${u.calledIndex}] ${u.name} not expected`);
  for (const v of result.violations) items.push(describeViolation(v));
  for (const v of result.schemaViolations) {
    items.push(`called[${v.calledIndex}] ${v.name} ${v.path} breaks its schema: ${v.message}`);
  }
  const head = `${matched} of ${calls(expectedCount)} matched exactly (${scoreText})`;
  const tail = failed ? " The case fails on the violations above." : "";
  return `${head}. ${sentence(items)}.${tail}`;
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

/**
 * `matchToolCalls` with options resolved beforehand (a metric resolves them once), and tool
 * definitions of this case (`availableTools`) added to the options' own.
 */
export function matchWithResolvedOptions(
  actual: unknown,
  expected: unknown,
  resolved: ResolvedMatchOptions,
  caseTools: readonly ToolSpec[] = [],
): MatchResult {
  const { calls, tools: trajectoryTools } = readActual(actual);
  toolList(caseTools, "availableTools");
  const parsed = toExpectedCalls(expected);
  if (parsed.partial && resolved.order !== undefined && resolved.order !== "partial") {
    throw new InvalidOptionError({
      option: "order",
      value: resolved.order,
      message: `the expected calls give a partial order (groups or after); order must be "partial" or left out, not ${JSON.stringify(resolved.order)}`,
    });
  }
  const order: OrderMode = parsed.partial ? "partial" : (resolved.order ?? "any");
  const expectedCalls = parsed.calls;
  const normalize = resolved.normalizeName;
  const nameOf = normalize ? (call: { name: string }) => normalize(call.name) : plainName;
  const definitions =
    caseTools.length === 0 && trajectoryTools.length === 0
      ? resolved.definitions
      : toolDefinitions([...resolved.tools, ...caseTools, ...trajectoryTools], normalize);
  const rulesFor = (name: string): ToolCompiled => resolved.perTool.get(name) ?? resolved.defaults;

  // Calls that failed and were retried (toolErrors "retry") are attempts, not calls to score.
  const violations: Violation[] = [];
  const retried =
    resolved.toolErrors === "retry" ? retriedCalls(calls, nameOf, violations) : noCalls;
  const failing = resolved.toolErrors !== "ignore";

  const compareCall = (
    e: ExpectedCall,
    call: ToolCall,
    verdicts: ArgumentVerdict[] | undefined,
  ): number =>
    compareArguments(e.arguments, call.inputParameters, {
      rules: rulesFor(nameOf(e)).arguments,
      schema: definitions.size === 0 ? undefined : definitions.get(nameOf(e)),
      verdicts,
    });
  // Scoring records nothing: only the pairs finally chosen are explained, below.
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
    maxPairEvaluations: resolved.limits.maxPairEvaluations,
  });

  const algorithm = algorithmOf(order);
  const pairs = alignCalls(matrix, order, algorithm, expectedCalls, retried, resolved);

  const explainPair = (e: ExpectedCall, call: ToolCall): PairExplanation => {
    const rules = rulesFor(nameOf(e));
    const verdicts: ArgumentVerdict[] = [];
    compareCall(e, call, verdicts);
    if (e.output === undefined || rules.output.mode === "ignore") {
      return call.isError === true
        ? { arguments: verdicts, isError: true }
        : { arguments: verdicts };
    }
    const same = compareArguments(e.output, call.output, { rules: rules.output }) === 1;
    const output = {
      verdict: same ? ("match" as const) : ("mismatch" as const),
      expected: (isValueMatcher(e.output)
        ? e.output.toJSON()
        : JSON.parse(JSON.stringify(e.output))) as JsonValue,
      actual: call.output,
    };
    return call.isError === true
      ? { arguments: verdicts, output, isError: true }
      : { arguments: verdicts, output };
  };
  const sum = total(pairs);
  const details = buildMatchDetails({
    algorithm,
    expected: expectedCalls,
    called: calls,
    matrix,
    pairing: { pairs, total: sum },
    explainPair,
    skipCalled: retried,
  });

  // Retried attempts are neither unexpected calls nor part of precision's denominator.
  const { unexpected, mismatches } = details;
  const consideredCalls = calls.length - retried.size;
  const recall = expectedCalls.length === 0 ? 1 : sum / expectedCalls.length;
  const precision =
    consideredCalls === 0 ? (expectedCalls.length === 0 ? 1 : 0) : sum / consideredCalls;
  const f1 = precision === 0 || recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);

  checkConstraints(calls, nameOf, resolved.constraints, violations);
  const schemaViolations =
    definitions.size === 0
      ? noSchemaViolations
      : validateCalls(calls, nameOf, definitions, resolved.validator);

  let perfect = true;
  for (const pair of pairs) if (pair.score !== 1) perfect = false;
  const allExpectedPaired = pairs.length === expectedCalls.length;
  const allCallsPaired = pairs.length === consideredCalls;
  let exact: boolean;
  switch (order) {
    case "subset":
      exact = perfect && allCallsPaired;
      break;
    case "superset":
    case "in-order":
    case "partial":
      exact = perfect && allExpectedPaired;
      break;
    default:
      exact = perfect && allExpectedPaired && allCallsPaired;
  }
  const failedByViolation =
    (resolved.onViolation === "fail" && violations.length > 0) ||
    (resolved.onSchemaViolation === "fail" && schemaViolations.length > 0);
  if (failedByViolation) exact = false;
  const scoreKind = resolved.score ?? defaultScore(order);
  let score: number;
  if (failedByViolation) score = 0;
  else if (scoreKind === "exact") score = exact ? 1 : 0;
  else if (scoreKind === "precision") score = precision;
  else if (scoreKind === "recall") score = recall;
  else score = f1;

  const result: { -readonly [K in keyof MatchResult]: MatchResult[K] } = {
    algorithm,
    pairs: details.pairs,
    missing: details.missing,
    unexpected,
    outOfOrder: details.outOfOrder,
    mismatches,
    precision,
    recall,
    f1,
    score,
    scoreKind,
    exact,
    success: score >= resolved.threshold,
    threshold: resolved.threshold,
    order,
    violations,
    schemaViolations,
    reason: "",
  };
  result.reason = buildReason(result, expectedCalls.length, failedByViolation);
  return result;
}

const plainName = (call: { name: string }): string => call.name;
// Shared empties: most cases have no retried calls and no schema violations.
const noCalls: ReadonlySet<number> = new Set();
const noSchemaViolations: readonly CallSchemaViolation[] = Object.freeze([]);

/** The tool definitions by (normalized) name; the first definition of a name wins. */
function toolDefinitions(
  tools: readonly ToolSpec[],
  normalize: ((name: string) => string) | undefined,
): ReadonlyMap<string, JsonObject> {
  const definitions = new Map<string, JsonObject>();
  for (const tool of tools) {
    const name = normalize ? normalize(tool.name) : tool.name;
    if (!definitions.has(name) && isJsonObject(tool.parameters)) {
      definitions.set(name, tool.parameters);
    }
  }
  return definitions;
}

/**
 * Failed calls that the agent retried (the same tool called again later): attempts, left out of
 * the scoring. A failed call never retried is an `unretried-error` violation.
 */
function retriedCalls(
  calls: readonly ToolCall[],
  nameOf: (call: ToolCall) => string,
  violations: Violation[],
): ReadonlySet<number> {
  const retried = new Set<number>();
  const seenLater = new Set<string>();
  const unretried: Violation[] = [];
  for (let index = calls.length - 1; index >= 0; index--) {
    const call = calls[index];
    const name = nameOf(call);
    if (call.isError === true) {
      if (seenLater.has(name)) retried.add(index);
      else unretried.push({ kind: "unretried-error", calledIndex: index, name });
    }
    seenLater.add(name);
  }
  violations.push(...unretried.reverse());
  return retried;
}

/** `matrix` where the `skipped` calls pair with nothing. */
function withoutCalls(matrix: ToolCallMatrix, skipped: ReadonlySet<number>): ToolCallMatrix {
  return {
    rows: matrix.rows,
    cols: matrix.cols,
    groups: matrix.groups,
    maxPairEvaluations: matrix.maxPairEvaluations,
    groupOfRow: (row) => matrix.groupOfRow(row),
    groupOfCol: (col) => matrix.groupOfCol(col),
    candidates: (row) => matrix.candidates(row),
    evaluationsToScoreAll: () => matrix.evaluationsToScoreAll(),
    score: (row, col) => (skipped.has(col) ? 0 : matrix.score(row, col)),
    fillRow(row, target) {
      matrix.fillRow(row, target);
      for (const col of skipped) target[col] = 0;
    },
  };
}

/** Pairs by the order mode; retried attempts never pair. */
function alignCalls(
  matrix: ToolCallMatrix,
  order: OrderMode,
  algorithm: AlignmentAlgorithm,
  expectedCalls: readonly ExpectedCall[],
  retried: ReadonlySet<number>,
  resolved: ResolvedMatchOptions,
): readonly Pair[] {
  const scores = retried.size === 0 ? matrix : withoutCalls(matrix, retried);
  // A partial order without a single constraint is a multiset: the assignment is exact, and fast
  // however wide the group.
  const unconstrained =
    order === "partial" && expectedCalls.every((call) => call.predecessors.length === 0);
  if (unconstrained) return pairToolCalls(scores, "optimal-assignment", resolved.limits).pairs;
  if (order !== "partial") {
    return pairToolCalls(
      scores,
      algorithm as Exclude<AlignmentAlgorithm, "partial-order">,
      resolved.limits,
    ).pairs;
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

/** Schema violations of every call whose tool has a definition. */
function validateCalls(
  calls: readonly ToolCall[],
  nameOf: (call: ToolCall) => string,
  definitions: ReadonlyMap<string, JsonObject>,
  validator: SchemaValidator,
): readonly CallSchemaViolation[] {
  let found: CallSchemaViolation[] | undefined;
  calls.forEach((call, calledIndex) => {
    const name = nameOf(call);
    const schema = definitions.get(name);
    if (!schema) return;
    for (const violation of validator.validate(schema, call.inputParameters)) {
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
