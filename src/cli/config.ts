import { readGroupBy } from "../core/repeats.js";
import type { GroupBy } from "../core/repeats.js";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { didYouMean } from "../core/suggest.js";
import { escapeRegExp } from "../core/words.js";
import { numberFlag, shownPath, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { InvalidOptionError } from "../core/errors.js";
import { isJsonObject } from "../core/json.js";
import { isDetailsChoice } from "../evaluate-to-file/evaluate-to-file.js";
import type { DetailsChoice } from "../evaluate-to-file/evaluate-to-file.js";
import type { JsonObject, JsonValue } from "../core/json.js";

/** One metric of a run as configured: a registry id, and its options. */
export interface MetricConfig {
  readonly metric: string;
  readonly options: JsonObject;
}

/** The judge settings of a run. */
export interface JudgeConfig {
  /** `provider/model`, e.g. `openai/gpt-4o-mini`. */
  readonly model: string;
  readonly baseURL?: string;
  readonly concurrency?: number;
  readonly requestsPerMinute?: number;
  /**
   * Each try's deadline in milliseconds, the answer's read included (default 60,000), and the
   * SDK's retries (default 3): a call ends within `timeoutMs × (maxRetries + 1)`.
   */
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  /** The judge cache folder; false for none. Default: `toolscore/judge-cache` in the user's cache folder. */
  readonly cache?: string | false;
}

/** Everything `toolscore eval` runs with, from the config file and the flags. */
export interface EvalConfig {
  /** The file it was read from, when one was. */
  readonly file?: string;
  readonly metrics: readonly MetricConfig[];
  readonly judge?: JudgeConfig;
  readonly concurrency?: number;
  readonly threshold?: number;
  readonly failUnder?: number;
  readonly normalizeNames?: boolean;
  readonly out?: string;
  readonly report?: string;
  readonly junit?: string;
  readonly markdown?: string;
  /** Most cases the HTML report shows (failures first). Default 2000. */
  readonly reportMaxCases?: number;
  /** Which cases keep their alignment in the results file. Default "none". */
  readonly details?: DetailsChoice;
  /** What makes cases runs of one case: `id` or `metadata.<key>`. */
  readonly groupBy?: GroupBy;
}

export const configFileNames = [
  "toolscore.config.json",
  "toolscore.config.yaml",
  "toolscore.config.yml",
];

const topLevelKeys = [
  "metrics",
  "judge",
  "concurrency",
  "threshold",
  "failUnder",
  "normalizeNames",
  "out",
  "report",
  "junit",
  "markdown",
  "reportMaxCases",
  "details",
  "groupBy",
];

function configError(
  file: string,
  message: string,
  value?: unknown,
  at?: { readonly line: number; readonly column: number },
): InvalidOptionError {
  const where = at === undefined ? file : `${file}:${at.line}:${at.column}`;
  return new InvalidOptionError({ option: "config", value, message: `${where}: ${message}` });
}

/** Line and column (from 1) of an offset in a text. */
function positionIn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split("\n").length;
  return { line, column: before.length - before.lastIndexOf("\n") };
}

/** Where a parse error of a config's text is, as an editor shows it. */
function parseErrorPosition(
  error: unknown,
  text: string,
): { line: number; column: number } | undefined {
  const yamlPosition = (error as { linePos?: readonly { line: number; col: number }[] }).linePos;
  if (yamlPosition?.[0] !== undefined) {
    return { line: yamlPosition[0].line, column: yamlPosition[0].col };
  }
  const message = error instanceof Error ? error.message : "";
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn !== null) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const offset = /position (\d+)/.exec(message);
  return offset === null ? undefined : positionIn(text, Number(offset[1]));
}

/** Where a top-level key is written in a config's text (JSON or YAML), when it can be found. */
function keyPosition(text: string, key: string): { line: number; column: number } | undefined {
  const found = new RegExp(`^([ \\t{,]*)(["']?)${escapeRegExp(key)}\\2\\s*:`, "m").exec(text);
  return found === null ? undefined : positionIn(text, found.index + found[1].length);
}

/** snake_case keys of a config file read as camelCase, at the top level only. */
function camel(key: string): string {
  return key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function metricsOf(value: unknown, file: string): MetricConfig[] {
  if (value === undefined) return [];
  // `metrics: { tool-call-accuracy: { order: strict } }`
  if (isJsonObject(value)) {
    return Object.entries(value).map(([metric, options]) => {
      if (options !== null && !isJsonObject(options)) {
        throw configError(file, `the options of metric ${metric} must be an object`, options);
      }
      return { metric, options: options ?? {} };
    });
  }
  // `metrics: [tool-call-accuracy, { metric: axion-tool-correctness, strict_order: true }]`
  if (!Array.isArray(value)) {
    throw configError(file, "metrics must be a list, or an object of options by metric id", value);
  }
  return value.map((item: unknown, index) => {
    if (typeof item === "string") return { metric: item, options: {} };
    if (!isJsonObject(item) || typeof item.metric !== "string") {
      throw configError(
        file,
        `metrics[${index}] must be a metric id, or an object with a "metric" id and its options`,
        item,
      );
    }
    const { metric, options: given, ...inline } = item;
    const options = given as JsonValue | undefined;
    if (options !== undefined && !isJsonObject(options)) {
      throw configError(file, `metrics[${index}].options must be an object`, options);
    }
    return { metric, options: { ...inline, ...(options ?? {}) } };
  });
}

function judgeOf(value: unknown, file: string): JudgeConfig | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return { model: value };
  if (!isJsonObject(value) || typeof value.model !== "string") {
    throw configError(
      file,
      'judge must be a model string ("openai/gpt-4o-mini") or { model, ... }',
    );
  }
  const known = [
    "model",
    "baseURL",
    "concurrency",
    "requestsPerMinute",
    "timeoutMs",
    "maxRetries",
    "cache",
  ];
  const settings: Record<string, unknown> = {};
  for (const [given, setting] of Object.entries(value)) {
    // snake_case too, as the rest of the config takes it (timeout_ms, base_url).
    const key = camel(given).replace(/Url$/, "URL");
    if (!known.includes(key)) {
      throw configError(file, `judge.${given} is not a setting (known: ${known.join(", ")})`);
    }
    settings[key] = setting;
  }
  for (const key of ["timeoutMs", "maxRetries"] as const) {
    const setting = settings[key];
    if (
      setting !== undefined &&
      !(typeof setting === "number" && Number.isInteger(setting) && setting >= 0)
    ) {
      throw configError(
        file,
        `judge.${key} must be a whole number of ${key === "timeoutMs" ? "milliseconds" : "retries"}`,
      );
    }
  }
  return settings as unknown as JudgeConfig;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Reads a config file (JSON or YAML); its relative paths are relative to the file. */
export async function readConfigFile(file: string): Promise<EvalConfig> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new InvalidOptionError({
      option: "config",
      value: file,
      message: `cannot read the config file ${file}`,
      cause: error,
    });
  }
  // The YAML parser is loaded only for a YAML config.
  const yaml = /\.ya?ml$/i.test(file) ? await import("yaml") : undefined;
  let value: unknown;
  try {
    value = yaml === undefined ? JSON.parse(text) : yaml.parse(text);
  } catch (error) {
    throw configError(
      file,
      `not valid ${/\.ya?ml$/i.test(file) ? "YAML" : "JSON"}: ${error instanceof Error ? error.message : String(error)}`,
      undefined,
      parseErrorPosition(error, text),
    );
  }
  if (value === null || value === undefined) return { metrics: [] };
  if (!isJsonObject(value)) throw configError(file, "the config must be an object");
  const given: Record<string, unknown> = {};
  /** Each setting as the file spells it, for messages in the user's words. */
  const spelled: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!topLevelKeys.includes(camel(key))) {
      // Suggested and listed in the spelling the file uses.
      const style = key.includes("_") ? snake : (name: string) => name;
      const known = topLevelKeys.map(style);
      throw configError(
        file,
        `unknown setting "${key}"${didYouMean(key, known)} (known: ${known.join(", ")})`,
        undefined,
        keyPosition(text, key),
      );
    }
    given[camel(key)] = item;
    spelled[camel(key)] = key;
  }
  const settingError = (key: string, message: string, item?: unknown) =>
    configError(
      file,
      `${spelled[key] ?? key} ${message}`,
      item,
      keyPosition(text, spelled[key] ?? key),
    );
  const directory = path.dirname(path.resolve(file));
  const relative = (key: string): string | undefined => {
    const item = given[key];
    if (item === undefined) return undefined;
    if (typeof item !== "string" || item === "") throw configError(file, `${key} must be a path`);
    return path.resolve(directory, item);
  };
  const numberOf = (key: string): number | undefined => {
    const item = given[key];
    if (item === undefined) return undefined;
    if (typeof item !== "number") throw settingError(key, "must be a number", item);
    return item;
  };
  /** A share from 0 to 1, also written as a percentage ("90%"). */
  const shareOf = (key: string): number | undefined => {
    const item = given[key];
    if (item === undefined) return undefined;
    const share = typeof item === "string" ? percentShare(item) : item;
    if (typeof share !== "number" || !(share >= 0 && share <= 1)) {
      throw settingError(key, `must be a share from 0 to 1 (0.9) or a percentage ("90%")`, item);
    }
    return share;
  };
  const judge = judgeOf(given.judge, file);
  const out = relative("out");
  const report = relative("report");
  const junit = relative("junit");
  const markdown = relative("markdown");
  const concurrency = numberOf("concurrency");
  const threshold = shareOf("threshold");
  const failUnder = shareOf("failUnder");
  const reportMaxCases = numberOf("reportMaxCases");
  if (reportMaxCases !== undefined && !(Number.isInteger(reportMaxCases) && reportMaxCases >= 1)) {
    throw configError(file, "reportMaxCases must be a whole number of at least 1", reportMaxCases);
  }
  if (given.details !== undefined && !isDetailsChoice(given.details)) {
    throw configError(file, 'details must be "none", "failed" or "all"', given.details);
  }
  let groupBy: GroupBy | undefined;
  if (given.groupBy !== undefined) {
    try {
      groupBy = readGroupBy(given.groupBy, "group_by");
    } catch (error) {
      throw configError(file, (error as Error).message, given.groupBy);
    }
  }
  if (given.normalizeNames !== undefined && typeof given.normalizeNames !== "boolean") {
    throw configError(file, "normalizeNames must be true or false");
  }
  return {
    metrics: metricsOf(given.metrics, file),
    ...(judge === undefined ? {} : { judge }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(threshold === undefined ? {} : { threshold }),
    ...(failUnder === undefined ? {} : { failUnder }),
    ...(reportMaxCases === undefined ? {} : { reportMaxCases }),
    ...(given.details === undefined ? {} : { details: given.details }),
    ...(groupBy === undefined ? {} : { groupBy }),
    ...(given.normalizeNames === undefined ? {} : { normalizeNames: given.normalizeNames }),
    ...(out === undefined ? {} : { out }),
    ...(report === undefined ? {} : { report }),
    ...(junit === undefined ? {} : { junit }),
    ...(markdown === undefined ? {} : { markdown }),
  };
}

/** The config file in a folder, when there is one. */
export function findConfigFile(directory: string): string | undefined {
  for (const name of codeConfigNames) {
    const candidate = path.join(directory, name);
    if (existsSync(candidate)) refuseCodeConfig(candidate);
  }
  for (const name of configFileNames) {
    const candidate = path.join(directory, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Config files in code, as vitest, promptfoo and evalite read them: refused, never ignored. */
const codeConfigNames = ["ts", "mts", "cts", "js", "mjs", "cjs"].map(
  (extension) => `toolscore.config.${extension}`,
);

function refuseCodeConfig(file: string): never {
  throw configError(
    file,
    `toolscore reads its config from JSON or YAML (${configFileNames.join(", ")}), not from code: a config a pull request can change must never run in CI. Move the settings to toolscore.config.yaml (the same keys; metrics and their options as plain values)`,
  );
}

/** Names that are no option, and that would reach an object's prototype if set as one. */
const forbiddenKeys = new Set(["__proto__", "constructor", "prototype"]);

/** `--set metric.option.path=value`: the value read as JSON when it is JSON, else as text. */
export function applySetting(metrics: MetricConfig[], setting: string): MetricConfig[] {
  const equals = setting.indexOf("=");
  const target = equals === -1 ? "" : setting.slice(0, equals);
  const dot = target.indexOf(".");
  if (equals === -1 || dot <= 0 || dot === target.length - 1) {
    throw new InvalidOptionError({
      option: "--set",
      value: setting,
      message: `--set takes metric.option=value (e.g. --set tool-call-accuracy.order=strict), got ${JSON.stringify(setting)}`,
    });
  }
  const metric = target.slice(0, dot);
  const keys = target.slice(dot + 1).split(".");
  const reserved = keys.find((key) => key === "" || forbiddenKeys.has(key));
  if (reserved !== undefined) {
    // Each key is an own property of a plain object: these would reach Object.prototype.
    throw new InvalidOptionError({
      option: "--set",
      value: setting,
      message: `--set ${target}: ${reserved === "" ? "an empty option name" : JSON.stringify(reserved)} is not an option name`,
    });
  }
  const raw = setting.slice(equals + 1);
  let value: JsonValue;
  try {
    value = JSON.parse(raw) as JsonValue;
  } catch {
    value = raw;
  }
  const at = metrics.findIndex((item) => item.metric === metric);
  if (at === -1) {
    throw new InvalidOptionError({
      option: "--set",
      value: setting,
      message: `--set names metric ${JSON.stringify(metric)}, which is not in this run (${metrics.map((item) => item.metric).join(", ")})`,
    });
  }
  const options: JsonObject = structuredClone(metrics[at].options);
  let node: JsonObject = options;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (!isJsonObject(next)) node[key] = {};
    node = node[key] as JsonObject;
  }
  node[keys[keys.length - 1]] = value;
  return metrics.map((item, index) => (index === at ? { ...item, options } : item));
}

/**
 * The judge cache folder of a run: the config's (`judge.cache`, relative to the current folder),
 * else `toolscore/judge-cache` in the user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`;
 * `%LOCALAPPDATA%` on Windows), outside any checkout: a cache answers for the judge, and one
 * in a repository may come from a pull request. Undefined when turned off.
 */
export function judgeCacheDirectory(
  config: EvalConfig,
  io: Pick<CliIo, "cwd" | "env">,
): string | undefined {
  const cache = config.judge?.cache;
  if (cache === false) return undefined;
  if (cache !== undefined) return path.resolve(io.cwd, cache);
  const { env } = io;
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  const base =
    env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : process.platform === "win32" && env.LOCALAPPDATA !== undefined
        ? env.LOCALAPPDATA
        : path.join(home, ".cache");
  return path.join(base, "toolscore", "judge-cache");
}

/** The config file named by --config, else the one in the folder, else none. */
export async function configFor(
  given: string | undefined,
  io: Pick<CliIo, "cwd" | "stderr">,
): Promise<EvalConfig> {
  const file = given === undefined ? findConfigFile(io.cwd) : path.resolve(io.cwd, given);
  if (file === undefined) {
    io.stderr.write(
      "toolscore: no config file here (toolscore.config.json, .yaml or .yml); the defaults apply\n",
    );
    return { metrics: [] };
  }
  if (!/\.(?:json|ya?ml)$/i.test(file)) refuseCodeConfig(file);
  if (given === undefined) io.stderr.write(`toolscore: using ${path.relative(io.cwd, file)}\n`);
  return { ...(await readConfigFile(file)), file };
}

/**
 * The gate's pass rate: `--fail-under` over the config's `fail_under`, with where it came from
 * (the flag, or the config file as the user would name it) for the verdict line.
 */
/** "90%" as 0.9; undefined for anything else. */
export function percentShare(text: string): number | undefined {
  const found = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  return found === null ? undefined : Number(found[1]) / 100;
}

export function failUnderOf(
  flag: string | undefined,
  config: EvalConfig,
  io: Pick<CliIo, "cwd">,
): { readonly failUnder: number | undefined; readonly failUnderFrom: string | undefined } {
  const percent = flag === undefined ? undefined : percentShare(flag);
  const given = percent ?? numberFlag("fail-under", flag, 0, 1);
  if (given !== undefined && !(given >= 0 && given <= 1)) {
    throw usageError(`--fail-under must be a share from 0 to 1, or a percentage, got ${flag}`);
  }
  if (given !== undefined) return { failUnder: given, failUnderFrom: "--fail-under" };
  return {
    failUnder: config.failUnder,
    failUnderFrom:
      config.failUnder === undefined || config.file === undefined
        ? undefined
        : shownPath(config.file, io),
  };
}
