/** The options of a match's constraints and side effects, read and checked: counts, patterns, globs, scopes. */
import { InvalidOptionError } from "../core/errors.js";
import { isJsonObject } from "../core/json.js";
import type { JsonValue } from "../core/json.js";
import { globMatches } from "../matchers/glob.js";
import { linearRegExp } from "../matchers/linear-regex.js";
import type { LinearRegExp } from "../matchers/linear-regex.js";
import { camelKeys, enumOption, numberOption, rejectUnknownOptions } from "../core/options.js";
import type { MatchConstraints, ResolvedSideEffects } from "./match-options.js";

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

export function resolveConstraints(given: unknown): MatchConstraints {
  if (given === undefined) return {};
  if (!isJsonObject(given))
    throw new InvalidOptionError({
      option: "constraints",
      value: given,
      message: "constraints must be an object",
    });
  // Its keys are options (forbidden_tools reads as forbiddenTools); its counts' keys are tools.
  const value = camelKeys(given);
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

/**
 * A regular expression given as a string, checked here (an invalid one names the option), for the
 * linear-time engine: tool outputs are data, and no output may make it run for long.
 */
export function patternOption(option: string, value: unknown): LinearRegExp | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be a regular expression as a non-empty string, got ${JSON.stringify(value)}`,
    });
  }
  try {
    return linearRegExp(value);
  } catch (error) {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} is not a valid regular expression: ${(error as Error).message}`,
    });
  }
}

/** A glob on tool names (`*` any characters, `?` one), checked; a test of a name. */
function globOf(option: string, value: unknown): (name: string) => boolean {
  if (typeof value !== "string" || value === "") {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be a tool name or a glob such as "get_*", got ${JSON.stringify(value)}`,
    });
  }
  return (name) => globMatches(value, name);
}

function globList(option: string, value: unknown): ((name: string) => boolean)[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be a list of tool names or globs`,
    });
  }
  return value.map((item: unknown, at) => globOf(`${option}[${at}]`, item));
}

/** `sideEffects`, checked: globs of read-only tools and of tools that change state. */
export function resolveSideEffects(value: unknown): ResolvedSideEffects {
  if (value === undefined) return { declared: () => undefined, undeclared: "changes-state" };
  if (!isJsonObject(value)) {
    throw new InvalidOptionError({
      option: "sideEffects",
      value,
      message:
        'sideEffects must be an object such as { readOnly: ["get_*"], changesState: ["refund_*"], undeclared: "changes-state" }',
    });
  }
  // Its keys are options: read_only reads as readOnly.
  const given = camelKeys(value);
  rejectUnknownOptions("sideEffects", given, ["readOnly", "changesState", "undeclared"]);
  const readOnly = globList("sideEffects.readOnly", given.readOnly) ?? [];
  const changesState = globList("sideEffects.changesState", given.changesState) ?? [];
  return {
    // What changes state wins: a tool both lists name is not let go.
    declared: (name) =>
      changesState.some((glob) => glob(name))
        ? false
        : readOnly.some((glob) => glob(name))
          ? true
          : undefined,
    undeclared: enumOption(
      "sideEffects.undeclared",
      given.undeclared,
      ["read-only", "changes-state"],
      "changes-state",
    ),
  };
}

/** Whether a tool name is scored, under `onlyTools` and `ignoreTools`; undefined when neither. */
export function scopeOf(only: unknown, ignore: unknown): ((name: string) => boolean) | undefined {
  const kept = globList("onlyTools", only);
  const left = globList("ignoreTools", ignore);
  if (kept === undefined && left === undefined) return undefined;
  return (name) =>
    (kept === undefined || kept.some((glob) => glob(name))) &&
    (left === undefined || !left.some((glob) => glob(name)));
}
