import { partialOrderPairs, StateLimitError } from "../algorithms/partial-order.js";
import type { Pair } from "../algorithms/score-matrix.js";
import { InvalidOptionError, LimitExceededError } from "../core/errors.js";
import type {
  AlignmentAlgorithm,
  ArgumentVerdict,
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
import { isValueMatcher } from "../matchers/value-matchers.js";
import { toExpectedCalls } from "./expected-calls.js";
import type { ExpectedCall, ExpectedCallsInput } from "./expected-calls.js";
import { resolveMatchLimits } from "./limits.js";
import type { MatchLimits, ResolvedMatchLimits } from "./limits.js";
import { buildMatchDetails } from "./match-details.js";
import type { PairExplanation } from "./match-details.js";
import { enumOption, numberOption, optionsObject, rejectUnknownOptions } from "./options.js";
import { pairToolCalls } from "./pairing.js";
import type { Pairing } from "./pairing.js";
import { toolCallMatrix } from "./tool-call-matrix.js";

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
          message: (error as Error).message,
        });
      }
      paths.push({
        pattern,
        rule: isValueMatcher(rule)
          ? rule
          : mode(`${option}.paths[${JSON.stringify(source)}]`, rule),
      });
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
      perTool.set(name, {
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
  if (given.normalizeName !== undefined && typeof given.normalizeName !== "function") {
    throw new InvalidOptionError({
      option: "normalizeName",
      value: given.normalizeName,
      message: "normalizeName must be a function",
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
  };
  resolvedCache.set(options, resolved);
  return resolved;
}

// Pair scores are multiples of 2^-20: every sum of them is exact in floating point, so the
// optimal total (and every unordered score) cannot depend on the order of the lists.
const QUANTUM = 2 ** -20;

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
      tools: Array.isArray(trajectory.tools) ? (trajectory.tools as ToolSpec[]) : [],
    };
  }
  return { calls: toToolCalls(actual, { field: "actual" }), tools: [] };
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
  names: readonly string[],
  constraints: MatchConstraints,
): Violation[] {
  const violations: Violation[] = [];
  const forbidden = new Set(constraints.forbiddenTools ?? []);
  const counts = new Map<string, number>();
  names.forEach((name, index) => {
    if (forbidden.has(name)) violations.push({ kind: "forbidden-tool", calledIndex: index, name });
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    const max = constraints.maxCalls?.[name];
    if (max !== undefined && count === max + 1)
      violations.push({ kind: "too-many-calls", calledIndex: index, name, count: 0, max });
    if (constraints.maxTotalCalls !== undefined && index === constraints.maxTotalCalls) {
      violations.push({
        kind: "too-many-total-calls",
        calledIndex: index,
        count: calls.length,
        max: constraints.maxTotalCalls,
      });
    }
    if (constraints.redundantCalls === "forbid" && index > 0) {
      const previous = calls[index - 1];
      const call = calls[index];
      if (names[index - 1] === name && jsonEquals(previous.inputParameters, call.inputParameters)) {
        violations.push({
          kind: "redundant-call",
          calledIndex: index,
          previousIndex: index - 1,
          name,
        });
      }
    }
  });
  // The count of a too-many-calls violation is the final count.
  for (let i = 0; i < violations.length; i++) {
    const violation = violations[i];
    if (violation.kind === "too-many-calls")
      violations[i] = { ...violation, count: counts.get(violation.name) ?? 0 };
  }
  for (const [name, min] of Object.entries(constraints.minCalls ?? {})) {
    const count = counts.get(name) ?? 0;
    if (count < min) violations.push({ kind: "too-few-calls", name, count, min });
  }
  return violations;
}

function sentence(items: readonly string[], limit = 4): string {
  if (items.length <= limit) return items.join("; ");
  return `${items.slice(0, limit).join("; ")}; and ${items.length - limit} more`;
}

function describeVerdict(name: string, verdict: ArgumentVerdict): string {
  const show = (value: JsonValue | undefined) => JSON.stringify(value);
  switch (verdict.verdict) {
    case "missing":
      return `${name} lacks ${verdict.path}${verdict.note ? ` (${verdict.note})` : ""}`;
    case "unexpected":
      return `${name} has unexpected ${verdict.path} = ${show(verdict.actual)}`;
    default:
      return `${name} ${verdict.path} is ${show(verdict.actual)}, expected ${verdict.note?.startsWith("expected ") ? verdict.note.slice(9) : show(verdict.expected)}`;
  }
}

function buildReason(
  result: Omit<MatchResult, "reason">,
  expected: readonly ExpectedCall[],
): string {
  const scoreText = `${result.scoreKind} ${Number(result.score.toFixed(3))}`;
  if (result.exact && result.violations.length === 0 && result.schemaViolations.length === 0) {
    return `All ${expected.length} expected calls were made as expected (order: ${result.order}; ${scoreText}).`;
  }
  const matched = result.pairs.filter((pair) => pair.score === 1).length;
  const parts: string[] = [];
  const missing = result.missing.map(
    (m) => m.name + (m.nearest ? " (made, but not as expected)" : ""),
  );
  if (missing.length > 0) parts.push(`missing: ${sentence(missing)}`);
  if (result.outOfOrder.length > 0)
    parts.push(`out of order: ${sentence(result.outOfOrder.map((m) => m.name))}`);
  if (result.unexpected.length > 0)
    parts.push(`not expected: ${sentence(result.unexpected.map((u) => u.name))}`);
  const differences = result.pairs.flatMap((pair) =>
    pair.arguments.filter((v) => v.verdict !== "match").map((v) => describeVerdict(pair.name, v)),
  );
  for (const m of result.missing) {
    if (m.nearest)
      differences.push(
        ...m.nearest.arguments
          .filter((v) => v.verdict !== "match")
          .map((v) => describeVerdict(m.name, v)),
      );
    if (m.nearest?.output?.verdict === "mismatch") differences.push(`${m.name} output differs`);
  }
  for (const pair of result.pairs)
    if (pair.output?.verdict === "mismatch") differences.push(`${pair.name} output differs`);
  if (differences.length > 0) parts.push(`differences: ${sentence(differences)}`);
  if (result.violations.length > 0)
    parts.push(
      `violations: ${sentence(result.violations.map((v) => v.kind + ("name" in v ? ` (${v.name})` : "")))}`,
    );
  if (result.schemaViolations.length > 0) {
    parts.push(
      `schema: ${sentence(result.schemaViolations.map((v) => `${v.name} ${v.path} ${v.message}`))}`,
    );
  }
  return `${matched} of ${expected.length} expected calls matched (order: ${result.order}; ${scoreText}). ${parts.join(". ")}.`;
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
  const carriedTools = [...caseTools, ...trajectoryTools];
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
  const names = normalize
    ? calls.map((call) => normalize(call.name))
    : calls.map((call) => call.name);
  const expectedNames = normalize
    ? expectedCalls.map((call) => normalize(call.name))
    : expectedCalls.map((call) => call.name);

  const definitions = new Map<string, JsonObject>();
  for (const tool of [...resolved.tools, ...carriedTools]) {
    const name = normalize ? normalize(tool.name) : tool.name;
    if (!definitions.has(name) && isJsonObject(tool.parameters))
      definitions.set(name, tool.parameters);
  }
  const rulesFor = (name: string): ToolCompiled => resolved.perTool.get(name) ?? resolved.defaults;

  // Calls that failed and were retried (toolErrors "retry") are attempts, not calls to score.
  const retried = new Uint8Array(calls.length);
  const violations: Violation[] = [];
  if (resolved.toolErrors === "retry") {
    calls.forEach((call, index) => {
      if (call.isError !== true) return;
      const retriedLater = names.some((name, later) => later > index && name === names[index]);
      if (retriedLater) retried[index] = 1;
      else
        violations.push({
          kind: "unretried-error",
          calledIndex: index,
          name: names[index],
        });
    });
  }

  const rows = expectedCalls.map((_call, index) => ({
    name: expectedNames[index],
    type: "FUNCTION" as const,
    index,
  }));
  const cols = calls.map((call, index) => ({
    name: names[index],
    type: "FUNCTION" as const,
    index,
    call,
  }));
  const pairScore = (row: (typeof rows)[number], col: (typeof cols)[number]): number => {
    const call = col.call;
    if (retried[col.index] === 1) return 0;
    if (call.isError === true && resolved.toolErrors !== "ignore") return 0;
    const e = expectedCalls[row.index];
    const rules = rulesFor(row.name);
    let score = compareArguments(e.arguments, call.inputParameters, {
      rules: rules.arguments,
      schema: definitions.get(row.name),
    });
    if (score > 0 && e.output !== undefined && rules.output.mode !== "ignore") {
      if (compareArguments(e.output, call.output, { rules: rules.output }) < 1) score = 0;
    }
    return quantize(score);
  };
  const matrix = toolCallMatrix({
    expected: rows,
    called: cols,
    score: pairScore,
    expectedKey: (row) => {
      const e = expectedCalls[row.index];
      // Matchers have no stable text; calls holding them are each their own class.
      return JSON.stringify([e.arguments, e.output ?? null], (_key, value: unknown) =>
        isValueMatcher(value) ? `\u0000matcher${row.index}` : value,
      );
    },
    calledKey: (col) =>
      JSON.stringify([
        col.call.inputParameters,
        col.call.output,
        col.call.isError === true,
        retried[col.index],
      ]),
    maxPairEvaluations: resolved.limits.maxPairEvaluations,
  });

  const algorithm = algorithmOf(order);
  let pairing: Pairing;
  if (order === "partial") {
    let pairs: Pair[];
    try {
      pairs = partialOrderPairs(matrix, {
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
    pairing = { pairs, total: total(pairs) };
  } else {
    const base = pairToolCalls(
      matrix,
      algorithm as Exclude<AlignmentAlgorithm, "partial-order">,
      resolved.limits,
    );
    pairing = { pairs: base.pairs, total: total(base.pairs) };
  }

  const explainPair = (row: (typeof rows)[number], col: (typeof cols)[number]): PairExplanation => {
    const e = expectedCalls[row.index];
    const rules = rulesFor(row.name);
    const verdicts: ArgumentVerdict[] = [];
    compareArguments(e.arguments, col.call.inputParameters, {
      rules: rules.arguments,
      schema: definitions.get(row.name),
      verdicts,
    });
    const explanation: {
      arguments: ArgumentVerdict[];
      output?: PairExplanation["output"];
      isError?: boolean;
    } = { arguments: verdicts };
    if (e.output !== undefined && rules.output.mode !== "ignore") {
      const same = compareArguments(e.output, col.call.output, { rules: rules.output }) === 1;
      explanation.output = {
        verdict: same ? "match" : "mismatch",
        expected: (isValueMatcher(e.output)
          ? e.output.toJSON()
          : JSON.parse(JSON.stringify(e.output))) as JsonValue,
        actual: col.call.output,
      };
    }
    if (col.call.isError === true) explanation.isError = true;
    return explanation;
  };
  const details = buildMatchDetails({
    algorithm,
    expected: rows,
    called: cols,
    matrix,
    pairing,
    explainPair,
  });

  // Retried attempts are neither unexpected calls nor part of precision's denominator.
  const unexpected = details.unexpected.filter((item) => retried[item.calledIndex] !== 1);
  const mismatches = details.mismatches.filter(
    (m) => !(m.kind === "unexpected-call" && retried[m.calledIndex] === 1),
  );
  const consideredCalls = calls.length - retried.reduce((n, r) => n + r, 0);
  const sum = pairing.total;
  const recall = expectedCalls.length === 0 ? 1 : sum / expectedCalls.length;
  const precision =
    consideredCalls === 0 ? (expectedCalls.length === 0 ? 1 : 0) : sum / consideredCalls;
  const f1 = precision === 0 || recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);

  violations.push(...checkConstraints(calls, names, resolved.constraints));
  const schemaViolations: CallSchemaViolation[] = [];
  calls.forEach((call, index) => {
    const name = names[index];
    const schema = definitions.get(name);
    if (!schema) return;
    for (const violation of resolved.validator.validate(schema, call.inputParameters)) {
      schemaViolations.push({ ...violation, calledIndex: index, name });
    }
  });

  const perfect = details.pairs.every((pair) => pair.score === 1);
  const allExpectedPaired = details.pairs.length === expectedCalls.length;
  const allCallsPaired = details.pairs.length === consideredCalls;
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
  const raw =
    scoreKind === "exact"
      ? exact
        ? 1
        : 0
      : scoreKind === "precision"
        ? precision
        : scoreKind === "recall"
          ? recall
          : f1;
  const score = failedByViolation ? 0 : raw;

  const result: Omit<MatchResult, "reason"> = {
    ...details,
    unexpected,
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
  };
  return { ...result, reason: buildReason(result, expectedCalls) };
}
