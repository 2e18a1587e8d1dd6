import { InvalidOptionError } from "../core/errors.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import { compilePathPattern } from "../matchers/path-rules.js";
import type { CompiledRules } from "../matchers/compare-arguments.js";
import { knownMatchOptions, resolveMatchOptions } from "../metrics/match-options.js";
import type { MatchOptions, ResolvedMatchOptions, RulesInput } from "../metrics/match-options.js";

/** The options of a tool-call metric that decide a score, not how two calls compare. */
const scoring: readonly string[] = [
  "order",
  "score",
  "toolErrors",
  "unparsedArguments",
  "constraints",
  "sideEffects",
  "onViolation",
  "onSchemaViolation",
  "threshold",
  "limits",
];

/** The options of a tool-call metric a diff reads: how calls compare. */
const comparing = knownMatchOptions.filter((name) => !scoring.includes(name));

/** How two runs of a case are compared. */
export interface DiffOptions {
  /**
   * The run's rules for comparing calls, as a tool-call metric takes them: argument modes and
   * matchers by path, per-tool rules, tool definitions (schema-guided comparison), name
   * normalization, the tools left out. What decides a score rather than a comparison (order,
   * score, constraints, threshold) does not apply to a diff and is not read.
   */
  readonly match?: MatchOptions;
  /**
   * Argument and output paths that legitimately vary between runs (ids, timestamps), in the
   * path patterns of argument rules: `"request_id"` at any depth, `"$.meta.*"`.
   */
  readonly ignore?: readonly string[];
  /** Whether tools' outputs and errors are compared. Default true. */
  readonly outputs?: boolean;
  /** Whether each turn's final text answer is compared. Default false (wording varies by run). */
  readonly answers?: boolean;
}

/** {@link DiffOptions}, checked and compiled once for a whole comparison. */
export interface DiffRules {
  readonly match: ResolvedMatchOptions;
  readonly outputs: boolean;
  readonly answers: boolean;
}

/** A mode or rules with the ignored paths put first, so that they win over any other rule there. */
function withIgnored(
  input: RulesInput | undefined,
  fallback: "exact" | "ignore",
  ignore: readonly string[],
): RulesInput {
  if (ignore.length === 0) return input ?? fallback;
  const paths: Record<string, "ignore"> = {};
  for (const pattern of ignore) paths[pattern] = "ignore";
  if (input === undefined || typeof input === "string" || "fuzzy" in input) {
    return { mode: input ?? fallback, paths };
  }
  return { ...input, paths: { ...paths, ...input.paths } };
}

function booleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new InvalidOptionError({
      option: name,
      value,
      message: `${name} must be true or false, got ${JSON.stringify(value)}`,
    });
  }
  return value;
}

function ignoredPaths(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw new InvalidOptionError({
      option: "ignore",
      value,
      message: `ignore must be a list of argument path patterns ("request_id", "$.meta.*"), got ${JSON.stringify(value)}`,
    });
  }
  for (const pattern of value as string[]) {
    try {
      compilePathPattern(pattern);
    } catch (error) {
      throw new InvalidOptionError({
        option: "ignore",
        value: pattern,
        message: `ignore: ${(error as Error).message}`,
      });
    }
  }
  return value as string[];
}

/** Checks and compiles the options of a diff, before any run is read. */
export function resolveDiffOptions(options: DiffOptions = {}): DiffRules {
  if (!isJsonObject(options)) {
    throw new InvalidOptionError({
      option: "options",
      value: options,
      message: "the diff's options must be an object",
    });
  }
  const known = new Set(["match", "ignore", "outputs", "answers"]);
  for (const key of Object.keys(options)) {
    if (!known.has(key)) {
      throw new InvalidOptionError({
        option: key,
        value: (options as Record<string, unknown>)[key],
        message: `the diff takes match, ignore, outputs and answers; ${key} is not one of them`,
      });
    }
  }
  const ignore = ignoredPaths(options.ignore);
  const outputs = booleanOption("outputs", options.outputs, true);
  const answers = booleanOption("answers", options.answers, false);
  const given = (options.match ?? {}) as Record<string, unknown>;
  const match: Record<string, unknown> = {};
  for (const key of comparing) if (given[key] !== undefined) match[key] = given[key];
  match.arguments = withIgnored(given.arguments as RulesInput | undefined, "exact", ignore);
  match.output = outputs
    ? withIgnored(given.output as RulesInput | undefined, "exact", ignore)
    : "ignore";
  return {
    match: resolveMatchOptions(match, "match"),
    outputs,
    answers,
  };
}

/** The rules that compare one tool's arguments and outputs, and its schema when one is known. */
export function rulesOfTool(
  rules: DiffRules,
  name: string,
): {
  readonly arguments: CompiledRules;
  readonly output: CompiledRules;
  readonly schema: JsonObject | undefined;
} {
  const own = rules.match.perTool.get(name) ?? rules.match.defaults;
  return {
    arguments: own.arguments,
    output: own.output,
    schema: rules.match.definitions.size === 0 ? undefined : rules.match.definitions.get(name),
  };
}
