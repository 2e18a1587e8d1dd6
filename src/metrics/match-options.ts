import { InvalidOptionError } from "../core/errors.js";
import { createNameNormalizer } from "../core/normalize-tool-name.js";
import type { NameNormalizationOptions } from "../core/normalize-tool-name.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { ToolSpec } from "../core/test-case.js";
import type { ArgumentMode, ArgumentRule, CompiledRules } from "../matchers/compare-arguments.js";
import type { TextOptions, ValueMatcher } from "../matchers/value-matchers.js";
import { MatcherMemo } from "../matchers/matcher-memo.js";
import type { LinearRegExp } from "../matchers/linear-regex.js";
import { compilePathPattern } from "../matchers/path-rules.js";
import { SchemaValidator, schemaViolationKinds } from "../matchers/schema-validation.js";
import type { SchemaViolationKind } from "../matchers/schema-validation.js";
import { isValueMatcher, textNormalizer, toExpectedValue } from "../matchers/value-matchers.js";
import { resolveMatchLimits } from "./limits.js";
import type { MatchLimits, ResolvedMatchLimits } from "./limits.js";
import {
  booleanOption,
  camelKeys,
  enumOption,
  numberOption,
  shareOption,
  optionsObject,
  oldOrderNames,
  rejectUnknownOptions,
} from "../core/options.js";
import {
  resolveConstraints,
  patternOption,
  resolveSideEffects,
  scopeOf,
} from "./constraint-options.js";

/**
 * How the order of calls counts:
 * - `any`: a multiset; optimal pairing, order ignored;
 * - `in-order`: the expected calls must appear in that order, other calls may come between;
 * - `strict`: the exact sequence, position by position;
 * - `only-expected`: every call made must be expected; expected calls may be left out (read from
 *   its old name `subset`);
 * - `all-expected`: every expected call must be made; other calls are fine (old name `superset`);
 * - `partial`: a partial order, from groups (`[[a, b], [c]]`) or `after` ids;
 * - `steps`: the same steps in the same order, each step's calls in any order (agentevals'
 *   strict mode): expected steps from groups or a reference transcript's steps, the calls' from
 *   their transcript (a plain list: one call a step).
 */
export type OrderMode =
  "any" | "in-order" | "strict" | "only-expected" | "all-expected" | "partial" | "steps";

/** Which number is the score. */
export type ScoreKind = "f1" | "precision" | "recall" | "exact";

/** How strings are normalized before they compare: case, characters left out, ends trimmed. */
export interface StringsRule {
  readonly ignoreCase?: boolean;
  readonly ignoreCharacters?: string;
  readonly trim?: boolean;
}

/**
 * A mode for a whole value (`"subset"`), or a mode with rules for paths inside it, and how every
 * string under it compares (`strings`); a path's rule may be a mode, a matcher, or
 * `{ strings, mode? }`.
 */
export type RulesInput =
  | ArgumentMode
  | {
      readonly mode?: ArgumentMode;
      readonly paths?: Readonly<
        Record<
          string,
          | ArgumentMode
          | ValueMatcher
          | { readonly strings: StringsRule; readonly mode?: ArgumentMode }
        >
      >;
      readonly strings?: StringsRule;
    };

/**
 * Your own comparison of one tool's arguments, for what JSON rules cannot say: `true` (or 1) is
 * a match, `false` (or 0) a mismatch, a number in between the pair's argument score.
 */
export type CompareArgumentsFunction = (
  actualArguments: JsonObject,
  expectedArguments: JsonValue,
) => boolean | number;

/** Rules for the calls of one tool. */
export interface ToolRules {
  readonly arguments?: RulesInput;
  readonly output?: RulesInput;
  /** Replaces the argument comparison for this tool (code only). */
  readonly compare?: CompareArgumentsFunction;
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
  /**
   * How order counts. Default `"any"`, or `"partial"` when the expected calls say so. The old
   * names `"subset"` and `"superset"` are read as `"only-expected"` and `"all-expected"`.
   */
  order?: OrderMode | "subset" | "superset";
  /**
   * Which number is the score. Default `"f1"`; `"recall"` for `in-order`, `all-expected` and
   * `partial` (extra calls are allowed there), `"precision"` for `only-expected`.
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
  /**
   * Whether a tool's schema may read a value as the type it declares when comparing (`"10"` as 10
   * for an integer, `"true"` as true, an enum's spelling in another case). Default true; false
   * compares values as they are (the schema still reports `wrong-type`).
   */
  coerceTypes?: boolean;
  /**
   * Whether an optional parameter's schema `default` stands in for the parameter when one side
   * leaves it out (a call that omits it matches an expected value equal to the default, and one
   * that passes the default matches an expectation without it). Default true; false requires
   * every parameter where it is expected and nowhere else, as BFCL does.
   */
  schemaDefaults?: boolean;
  /**
   * What a call the tool reported as an error means: nothing (default), a failed call, a call that
   * must be retried, or nothing at all (`"skip"`: every failed call is left out of the scoring,
   * retried or not, and listed in `ignored`).
   */
  toolErrors?: "ignore" | "fail" | "retry" | "skip";
  /**
   * A call whose output matches this regular expression (a string as it is, any other value as
   * its JSON text) is a tool error, as if `isError` were set: for transcripts that report failures
   * only as text (`"^Error:"`).
   */
  errorOutput?: string;
  /**
   * What a call whose arguments text is not JSON is: a call of its tool whose arguments all
   * differ (`"mismatch"`, the default), or a call not made (`"no-call"`: left out of the scoring
   * and the constraints, listed in `ignored`), as BFCL counts an answer that does not decode.
   */
  unparsedArguments?: "mismatch" | "no-call";
  /**
   * Which tools change the world, for the orders that allow extra calls (`in-order`, `superset`,
   * `partial`): an extra call of a read-only tool is let go, an extra call of any other fails the
   * case (a violation, `called[1] refund: an extra call of a tool that changes state`). `readOnly`
   * and `changesState` name tools by globs and win over what tool definitions say
   * (`readOnly`, MCP's `readOnlyHint`); a tool nothing declares is `undeclared` (default
   * `"changes-state"`: a double refund fails unless a tool is declared read-only).
   */
  sideEffects?: SideEffectsOptions;
  /** Only calls of these tools are scored (globs on names: `"get_*"`); the others are left out. */
  onlyTools?: readonly string[];
  /** Calls of these tools are left out of the scoring, on both sides (globs on names). */
  ignoreTools?: readonly string[];
  constraints?: MatchConstraints;
  /** Whether a constraint violation (or an unretried error) fails the case (score 0). Default `"fail"`. */
  onViolation?: "fail" | "report";
  /**
   * Whether arguments that break the tool's schema fail the case (score 0): every violation
   * (`"fail"`), none (`"report"`, the default: they are listed only), or the kinds named in
   * `{ fail: [...] }` (`"unknown-argument"`, `"wrong-type"`, `"missing-required"`,
   * `"invalid-value"`, `"invalid-schema"`), the others listed only.
   */
  onSchemaViolation?: "fail" | "report" | { readonly fail: readonly SchemaViolationKind[] };
  /** Applied to every tool name on both sides before matching (`createNameNormalizer()`). */
  normalizeName?: (name: string) => string;
  /**
   * The same as data, for configs and datasets: `true` for `createNameNormalizer()`'s defaults,
   * or its options (`{ aliases: { "math.factorial": "factorial" }, dottedNames: "underscore" }`).
   * Not with `normalizeName`.
   */
  normalizeNames?: boolean | NameNormalizationOptions;
  /** Minimum passing score. Default 1: a case passes only when every expected call was made as expected. */
  threshold?: number;
  /** Bounds for pathological inputs; `maxOrderStates` bounds partial-order alignment. */
  limits?: MatchLimits & { maxOrderStates?: number };
}

/** See `MatchOptions.sideEffects`. */
export interface SideEffectsOptions {
  /** Tools whose calls change nothing (globs: `"get_*"`). */
  readonly readOnly?: readonly string[];
  /** Tools whose calls may change something (globs), whatever their definitions say. */
  readonly changesState?: readonly string[];
  /** What a tool nothing declares is. Default `"changes-state"`. */
  readonly undeclared?: "read-only" | "changes-state";
}

/** `sideEffects`, resolved: whether the options alone call a tool read-only (undefined: silent). */
export interface ResolvedSideEffects {
  readonly declared: (name: string) => boolean | undefined;
  readonly undeclared: "read-only" | "changes-state";
}

/** The argument and output rules of one tool, compiled. */
export interface ToolCompiled {
  readonly arguments: CompiledRules;
  readonly output: CompiledRules;
  readonly compare?: CompareArgumentsFunction;
}

export interface ResolvedMatchOptions {
  readonly order: OrderMode | undefined;
  readonly score: ScoreKind | undefined;
  readonly defaults: ToolCompiled;
  readonly perTool: ReadonlyMap<string, ToolCompiled>;
  readonly tools: readonly ToolSpec[];
  readonly coerceTypes: boolean;
  readonly schemaDefaults: boolean;
  readonly toolErrors: "ignore" | "fail" | "retry" | "skip";
  /** Output text that makes a call a tool error, when set. */
  readonly errorOutput: LinearRegExp | undefined;
  readonly unparsedArguments: "mismatch" | "no-call";
  /** Whether a tool name is in scope, when `onlyTools` or `ignoreTools` is set. */
  readonly inScope: ((name: string) => boolean) | undefined;
  readonly constraints: MatchConstraints;
  readonly sideEffects: ResolvedSideEffects;
  readonly onViolation: "fail" | "report";
  /** The kinds of schema violation that fail the case (none under `"report"`). */
  readonly failingSchemaViolations: ReadonlySet<SchemaViolationKind>;
  readonly normalizeName: ((name: string) => string) | undefined;
  readonly threshold: number;
  readonly limits: ResolvedMatchLimits;
  readonly maxOrderStates: number;
  readonly validator: SchemaValidator;
  /** The matchers the cases' `{"$match": ...}` objects make, made once per text. */
  readonly matchers: MatcherMemo;
  /** The definitions of `tools`, by (normalized) name. */
  readonly definitions: ReadonlyMap<string, JsonObject>;
}

const orderModes: readonly OrderMode[] = [
  "any",
  "in-order",
  "strict",
  "only-expected",
  "all-expected",
  "partial",
  "steps",
];

const scoreKinds: readonly ScoreKind[] = ["f1", "precision", "recall", "exact"];

/** The options `matchToolCalls` takes. */
export const knownMatchOptions: readonly string[] = [
  "order",
  "score",
  "arguments",
  "output",
  "toolRules",
  "tools",
  "coerceTypes",
  "schemaDefaults",
  "toolErrors",
  "errorOutput",
  "unparsedArguments",
  "onlyTools",
  "ignoreTools",
  "constraints",
  "sideEffects",
  "onViolation",
  "onSchemaViolation",
  "normalizeName",
  "normalizeNames",
  "threshold",
  "limits",
];

/**
 * What a case's `metricOptions` may set of these: matching rules and the threshold; a name
 * normalizer is code, and the limits and which tools change state are the run's (a dataset may
 * come from a stranger).
 */
export const matchCaseOptions: readonly string[] = knownMatchOptions.filter(
  (name) => name !== "normalizeName" && name !== "limits" && name !== "sideEffects",
);

/** The name normalizer of `normalizeName` (code) or `normalizeNames` (data), never both. */
function nameNormalizerOf(code: unknown, data: unknown): ((name: string) => string) | undefined {
  if (code !== undefined && typeof code !== "function") {
    throw new InvalidOptionError({
      option: "normalizeName",
      value: code,
      message:
        "normalizeName must be a function from a tool name to a tool name; in a config or dataset, use normalizeNames",
    });
  }
  if (data === undefined || data === false) return code as ((name: string) => string) | undefined;
  if (code !== undefined) {
    throw new InvalidOptionError({
      option: "normalizeNames",
      value: data,
      message: "give normalizeName (a function) or normalizeNames (options), not both",
    });
  }
  if (data === true) return createNameNormalizer();
  if (!isJsonObject(data)) {
    throw new InvalidOptionError({
      option: "normalizeNames",
      value: data,
      message: `normalizeNames must be true, false or name normalization options ({ aliases, dottedNames, dynamicSuffix, stripMcpPrefix }), got ${JSON.stringify(data)}`,
    });
  }
  // Its keys are options, never tool names: snake_case reads as camelCase; aliases stay as given.
  const { aliases, ...rest } = data as Record<string, JsonValue | undefined>;
  const options = camelKeys(rest as JsonObject) as NameNormalizationOptions;
  return createNameNormalizer(
    aliases === undefined ? options : { ...options, aliases: aliases as Record<string, string> },
  );
}

const noKinds: ReadonlySet<SchemaViolationKind> = new Set();

const allKinds: ReadonlySet<SchemaViolationKind> = new Set(schemaViolationKinds);

/** `onSchemaViolation` read as the set of violation kinds that fail the case. */
function failingSchemaViolationsOf(value: unknown): ReadonlySet<SchemaViolationKind> {
  if (value === undefined || value === "report") return noKinds;
  if (value === "fail") return allKinds;
  const kinds = isJsonObject(value) && Object.keys(value).length === 1 ? value.fail : undefined;
  if (Array.isArray(kinds)) {
    for (const kind of kinds) {
      if (!allKinds.has(kind as SchemaViolationKind)) {
        throw new InvalidOptionError({
          option: "onSchemaViolation.fail",
          value: kind,
          message: `onSchemaViolation.fail lists the kinds of violation that fail the case: ${schemaViolationKinds.map((k) => JSON.stringify(k)).join(", ")}; got ${JSON.stringify(kind)}`,
        });
      }
    }
    return new Set(kinds as SchemaViolationKind[]);
  }
  throw new InvalidOptionError({
    option: "onSchemaViolation",
    value,
    message: `onSchemaViolation must be "fail", "report" or { fail: [kinds] }, got ${JSON.stringify(value)}`,
  });
}

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
/** A rule's `strings`: how every string compared under it is normalized. */
function stringsOption(option: string, value: unknown): (text: string) => string {
  return textNormalizer(textOptionsOf(option, value));
}

/** `{ ignoreCase?, ignoreCharacters?, trim? }` as given in JSON, checked; errors name `option`. */
export function textOptionsOf(option: string, value: unknown): TextOptions {
  if (!isJsonObject(value)) {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be { ignoreCase?, ignoreCharacters?, trim? }`,
    });
  }
  // Its keys are options, never argument names: snake_case (ignore_case) reads as camelCase.
  const given = camelKeys(value) as Record<string, unknown>;
  rejectUnknownOptions(option, given, ["ignoreCase", "ignoreCharacters", "trim"]);
  const ignoreCase = booleanOption(`${option}.ignoreCase`, given.ignoreCase, false);
  const trim = booleanOption(`${option}.trim`, given.trim, false);
  const ignoreCharacters = given.ignoreCharacters;
  if (ignoreCharacters !== undefined && typeof ignoreCharacters !== "string") {
    throw new InvalidOptionError({
      option: `${option}.ignoreCharacters`,
      value: ignoreCharacters,
      message: `${option}.ignoreCharacters must be a string of characters`,
    });
  }
  return { ignoreCase, trim, ...(ignoreCharacters === undefined ? {} : { ignoreCharacters }) };
}

function pathRule(option: string, rule: unknown): ArgumentRule {
  if (isValueMatcher(rule)) return rule;
  if (isJsonObject(rule) && Object.hasOwn(rule, "strings")) {
    // { strings, mode? }: strings under this path are normalized.
    const given = rule as Record<string, unknown>;
    rejectUnknownOptions(option, given, ["strings", "mode"]);
    return {
      normalize: stringsOption(`${option}.strings`, given.strings),
      ...(given.mode === undefined ? {} : { mode: mode(`${option}.mode`, given.mode) }),
    };
  }
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
  const record = input as { mode?: unknown; paths?: unknown; strings?: unknown };
  rejectUnknownOptions(option, record, ["mode", "paths", "strings"]);
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
  const normalize =
    record.strings === undefined
      ? fallback.normalize
      : stringsOption(`${option}.strings`, record.strings);
  return {
    mode: record.mode === undefined ? fallback.mode : mode(`${option}.mode`, record.mode),
    // Own path rules first: they are more specific than the fallback's.
    paths: [...paths, ...fallback.paths],
    ...(normalize === undefined ? {} : { normalize }),
  };
}

const resolvedCache = new WeakMap<object, ResolvedMatchOptions>();

/** Validates the options once per options object (remembered for that object). */
export function resolveMatchOptions(
  options: MatchOptions = {},
  /** Who takes the options, as the user named it, for errors. */
  where = "matchToolCalls",
): ResolvedMatchOptions {
  const cached = resolvedCache.get(options);
  if (cached) return cached;
  const resolved = resolveFresh(options, where);
  resolvedCache.set(options, resolved);
  return resolved;
}

function resolveFresh(options: MatchOptions, where: string): ResolvedMatchOptions {
  const given = optionsObject(where, options) as MatchOptions;
  rejectUnknownOptions(where, given, knownMatchOptions);
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
      rejectUnknownOptions(`toolRules.${name}`, rules, ["arguments", "output", "compare"]);
      const compare: unknown = (rules as { compare?: unknown }).compare;
      if (compare !== undefined && typeof compare !== "function") {
        throw new InvalidOptionError({
          option: `toolRules.${name}.compare`,
          value: compare,
          message: `toolRules.${name}.compare must be a function (actualArguments, expectedArguments) => boolean | number`,
        });
      }
      // Tool names go through the same normalization as the calls' names.
      perTool.set(given.normalizeName ? given.normalizeName(name) : name, {
        arguments: compileRules(`toolRules.${name}.arguments`, rules.arguments, defaults.arguments),
        output: compileRules(`toolRules.${name}.output`, rules.output, defaults.output),
        ...(compare === undefined ? {} : { compare: compare as CompareArgumentsFunction }),
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
      given.order === undefined
        ? undefined
        : enumOption(
            "order",
            (typeof given.order === "string" ? oldOrderNames.get(given.order) : undefined) ??
              given.order,
            orderModes,
            "any",
          ),
    score:
      given.score === undefined ? undefined : enumOption("score", given.score, scoreKinds, "f1"),
    defaults,
    perTool,
    tools,
    coerceTypes: booleanOption("coerceTypes", given.coerceTypes, true),
    schemaDefaults: booleanOption("schemaDefaults", given.schemaDefaults, true),
    toolErrors: enumOption(
      "toolErrors",
      given.toolErrors,
      ["ignore", "fail", "retry", "skip"],
      "ignore",
    ),
    errorOutput: patternOption("errorOutput", given.errorOutput),
    unparsedArguments: enumOption(
      "unparsedArguments",
      given.unparsedArguments,
      ["mismatch", "no-call"],
      "mismatch",
    ),
    inScope: scopeOf(given.onlyTools, given.ignoreTools),
    constraints: resolveConstraints(given.constraints),
    sideEffects: resolveSideEffects(given.sideEffects),
    onViolation: enumOption("onViolation", given.onViolation, ["fail", "report"], "fail"),
    failingSchemaViolations: failingSchemaViolationsOf(given.onSchemaViolation),
    normalizeName: nameNormalizerOf(given.normalizeName, given.normalizeNames),
    threshold: shareOption("threshold", given.threshold, 1),
    limits: resolveMatchLimits(matchLimits),
    maxOrderStates: numberOption("limits.maxOrderStates", maxOrderStates, 2_000_000, {
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
    }),
    validator: new SchemaValidator(),
    matchers: new MatcherMemo(),
    definitions: toolDefinitions(tools, given.normalizeName),
  };
  return resolved;
}

/** The tool definitions by (normalized) name; the first definition of a name wins. */
export function toolDefinitions(
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
