import { InvalidOptionError } from "./errors.js";
import { didYouMean } from "./suggest.js";
import type { JsonObject } from "./json.js";

/** Helpers that validate one option each and name it in the error. */

function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

export function booleanOption(option: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be true or false, got ${describe(value)}`,
    });
  }
  return value;
}

export function numberOption(
  option: string,
  value: unknown,
  fallback: number,
  range?: { min: number; max: number },
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be a finite number, got ${describe(value)}`,
    });
  }
  if (range && (value < range.min || value > range.max)) {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be between ${range.min} and ${range.max}, got ${describe(value)}`,
    });
  }
  return value;
}

/**
 * A whole number from `range.min` to `range.max` (no upper bound when left out); `fallback` when
 * not given. `unit` names what is counted, in the message ("a whole number of cases, at least 1").
 */
export function integerOption(
  option: string,
  value: unknown,
  fallback: number,
  range: { readonly min: number; readonly max?: number; readonly unit?: string },
): number {
  if (value === undefined) return fallback;
  const { min, max = Number.MAX_SAFE_INTEGER, unit } = range;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const what = unit === undefined ? "a whole number" : `a whole number of ${unit}`;
    const bounds = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be ${what}, ${bounds}, got ${describe(value)}`,
    });
  }
  return value;
}

/** A list of strings; undefined when not given. */
export function stringListOption(option: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  throw new InvalidOptionError({ option, value, message: `${option} must be a list of strings` });
}

/** A metric's name: a non-empty string; `fallback` when not given. `id` is the metric's, for the message. */
export function nameOption(id: string, value: unknown, fallback: string, option = "name"): string {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value === "") {
    throw new InvalidOptionError({
      option,
      value,
      message: `${id}: name must be a non-empty string`,
    });
  }
  return value;
}

/** "90%" as 0.9; undefined for anything else. */
export function percentShare(text: string): number | undefined {
  const found = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  return found === null ? undefined : Number(found[1]) / 100;
}

/**
 * A share from 0 to 1, given as a number (`0.9`) or a percentage (`"90%"`), as every threshold
 * and pass rate is; `fallback` when not given.
 */
export function shareOption(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const share = typeof value === "string" ? percentShare(value) : value;
  if (typeof share !== "number" || !(share >= 0 && share <= 1)) {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be a share from 0 to 1 (0.9) or a percentage ("90%"), got ${describe(value)}`,
    });
  }
  return share;
}

/** A metric's threshold: a share from 0 to 1 (or a percentage); `fallback` when not given. */
export function thresholdOption(
  id: string,
  value: unknown,
  fallback: number,
  option = "threshold",
): number {
  return shareOption(option === "threshold" ? `${id}.threshold` : option, value, fallback);
}

/** A metric definition's `name` option: a non-empty string, `fallback` when not given. */
/** Cases, judge calls or agent runs at once, when a run does not say. */
export const defaultConcurrency = 8;

export const metricName = (id: string, options: JsonObject, fallback: string): string =>
  nameOption(id, options.name, fallback, `${id}.name`);

/** A metric definition's `threshold` option: in [0, 1], `fallback` when not given. */
export const metricThreshold = (id: string, options: JsonObject, fallback: number): number =>
  thresholdOption(id, options.threshold, fallback, `${id}.threshold`);

export function enumOption<T extends string>(
  option: string,
  value: unknown,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}, got ${describe(value)}`,
    });
  }
  return value as T;
}

/** Refuses option names a function does not know, so a typo never silently does nothing. */
export function rejectUnknownOptions(
  where: string,
  options: object,
  known: readonly string[],
): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new InvalidOptionError({
        option: key,
        value: (options as Record<string, unknown>)[key],
        message: `${where} has no option ${JSON.stringify(key)}${didYouMean(key, known)}; known options: ${known.join(", ")}`,
      });
    }
  }
}

/** Checks that options were given as an object (or not at all). */
export function optionsObject(where: string, options: unknown): Record<string, unknown> {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new InvalidOptionError({
      option: "options",
      value: options,
      message: `${where} takes one options object, got ${Array.isArray(options) ? "an array" : describe(options)}`,
    });
  }
  return options as Record<string, unknown>;
}

/** A judge model option: a model name such as "openai/gpt-4.1", or a model object. */
export function modelOption(option: string, value: unknown): string | object | undefined {
  if (value === undefined || typeof value === "string") return value;
  if (typeof value !== "object" || value === null) {
    throw new InvalidOptionError({
      option,
      value,
      message: `${option} must be a model name or a model object, got ${value === null ? "null" : typeof value}`,
    });
  }
  return value;
}

/**
 * Where an option that data may not set comes from instead, by name: the run decides the judge,
 * its endpoint and cost, and every file, network and resource policy (a dataset may come from a
 * stranger's pull request).
 */
const setByTheRun: Readonly<Record<string, string>> = {
  model: "the judge comes from the run: --judge, or judge: in the config",
  modelSettings: "the judge's settings come from the run: judge: in the config",
  modelCredentials: "the judge's key comes from the run's environment",
  modelConfig: "the judge's settings come from the run: judge: in the config",
  llm: "the judge comes from the run: --judge, or judge: in the config",
  imageLoading: "image policies come from the run: images are read from the dataset's folder",
  availableTools:
    "the tools to judge selection against are the run's (the config's metric options), or the case's own availableTools field",
  limits: "limits are the run's: the config's metric options, or --set <metric>.limits...",
  sideEffects:
    "which tools change state is the run's to say (the config's metric options); a case's availableTools may say readOnly where the run is silent",
  batchStatusCheckInterval: "batch settings are the run's: the config's metric options",
  batchMaxIterations: "batch settings are the run's: the config's metric options",
  name: "a metric's name is the run's: the config's metric options",
  maxTokens: "spending budgets are the run's: the config's metric options",
  maxLatencyMs: "spending budgets are the run's: the config's metric options",
  maxCostUsd: "spending budgets are the run's: the config's metric options",
};

/**
 * The options a case brings for one metric (`metricOptions`), checked against what data may set:
 * matching rules and thresholds, never a judge, endpoint, key, file or network policy, limit or
 * anything else that is the run's to decide. Keys may be camelCase or snake_case; the result is
 * camelCase. Throws an `InvalidOptionError` naming the key and where it belongs.
 */
export function caseOptions(
  metric: string,
  overrides: unknown,
  allowed: readonly string[],
): JsonObject {
  const given = optionsObject(`metricOptions.${metric}`, overrides);
  const out: JsonObject = {};
  for (const key of Object.keys(given)) {
    const name = key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    if (!allowed.includes(name)) {
      const option = `metricOptions.${metric}.${key}`;
      const runs = setByTheRun[name] as string | undefined;
      throw new InvalidOptionError({
        option,
        value: runs === undefined ? given[key] : "(not shown)",
        message:
          runs === undefined
            ? `${option}: a case may not set ${JSON.stringify(key)}${didYouMean(name, allowed)}; a case may set ${allowed.join(", ")}, the rest is the run's (the config's metric options, or --set ${metric}.${name}=...)`
            : `${option}: a case may not set ${JSON.stringify(key)}: ${runs}`,
      });
    }
    Object.defineProperty(out, name, { value: given[key], enumerable: true, writable: true });
  }
  return out;
}

/** snake_case option names (as in the Python tools' configs) read as camelCase. */
export function camelKeys(options: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(options)) {
    out[key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())] = value;
  }
  return out;
}

/**
 * The order modes' first names, still read: `subset` and `superset` said of calls the opposite
 * of what they say of arguments (`arguments: subset` lets extra keys go).
 */
export const oldOrderNames: ReadonlyMap<string, string> = new Map([
  ["subset", "only-expected"],
  ["superset", "all-expected"],
]);

/** What each renamed order mode allows, for the note that names its new name. */
const renamedOrderMeans: Readonly<Record<string, string>> = {
  "only-expected": "every call made must be expected; expected calls may be missing",
  "all-expected": "every expected call must be made; other calls are fine",
};

/** A note when `options.order` uses an old name (`where` names the options), else undefined. */
export function oldOrderNote(options: unknown, where: string): string | undefined {
  const order =
    typeof options === "object" && options !== null
      ? (options as { order?: unknown }).order
      : undefined;
  const now = typeof order === "string" ? oldOrderNames.get(order) : undefined;
  return now === undefined
    ? undefined
    : `${where}.order: ${JSON.stringify(order)} is the old name of ${JSON.stringify(now)} (${renamedOrderMeans[now] ?? ""}); write ${JSON.stringify(now)}`;
}
