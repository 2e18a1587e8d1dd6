import type { TurnAggregate } from "../core/turns.js";
import type { GroupBy } from "../core/repeats.js";
import { existsSync, readFileSync } from "node:fs";
import {
  FileTooLargeError,
  NotARegularFileError,
  readRegularFileSync,
} from "../node/regular-file.js";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import path from "node:path";
import { didYouMean } from "../core/suggest.js";
import { escapeRegExp } from "../core/words.js";
import { shareFlag, shownPath, usageError } from "./io.js";
import { percentShare } from "../core/options.js";
import { keyVariableOf } from "../providers/registry.js";
import type { CliIo } from "./io.js";
import type { Flag } from "./flags.js";
import { gateRates, notEvaluablePolicies } from "../core/gate.js";
import type { GateRate, GateRule, NotEvaluablePolicy } from "../core/gate.js";
import { InvalidOptionError } from "../core/errors.js";
import { isJsonObject, jsonErrorPosition, textPosition } from "../core/json.js";
import type { DetailsChoice } from "../evaluate-to-file/evaluate-to-file.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";

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
  /** Send the judge's questions through the provider's batch API (as `--batch`). */
  readonly batch?: boolean;
  /** Seconds between status checks of a batch. Default 30. */
  readonly batchIntervalSeconds?: number;
  /** Status checks of a batch at most before the run stops (resumable). Default 120. */
  readonly batchMaxChecks?: number;
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
  /** What the gate does with cases a judge could not tell. Default "fail". */
  readonly notEvaluable?: NotEvaluablePolicy;
  /** The rate the gate holds to fail_under. Default "pass-rate". */
  readonly gateOn?: GateRate;
  /** Fail the gate on cases that passed in some runs and failed in others. */
  readonly failOnFlaky?: boolean;
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
  /** How a conversation's turns make its score, unless a case says. Default "mean". */
  readonly turnAggregate?: TurnAggregate;
}

export const configFileNames = [
  "toolscore.config.json",
  "toolscore.config.yaml",
  "toolscore.config.yml",
];

/**
 * The config file's JSON Schema, also published for editors (`toolscore/config.schema.json`):
 * each setting with its description and, as `errorMessage`, what it must be.
 */
export const configSchema = JSON.parse(
  readFileSync(new URL("./config.schema.json", import.meta.url), "utf8"),
) as JsonObject & {
  properties: Record<string, JsonObject>;
  definitions: Record<string, JsonObject>;
};

/** The settings a config may hold, in camelCase (the `$schema` line is the editor's). */
const topLevelKeys = Object.keys(configSchema.properties).filter(
  (key) => key !== "$schema" && !key.includes("_"),
);

// Ajv is loaded when a config file is read: a run without one never loads it.
const load = createRequire(import.meta.url);
let validateConfig: ValidateFunction | undefined;

/**
 * A credential in a config's judge settings (`api_key`, `apiKey`, `token`...), said before
 * anything else wrong in the file: a config a pull request can change never holds a key.
 */
function credentialProblem(value: JsonObject): { message: string; key: string } | undefined {
  const judge = value.judge;
  if (!isJsonObject(judge)) return undefined;
  const key = Object.keys(judge).find((name) =>
    /^(api_?key|key|token|secret|password|credentials?|model_?credentials)$/i.test(name),
  );
  if (key === undefined) return undefined;
  const variable = typeof judge.model === "string" ? keyVariableOf(judge.model) : undefined;
  return {
    key: "judge",
    message: `judge.${key}: a config never holds a key (a pull request could read or change it); set ${variable ?? "the provider's key variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...)"} in the environment the command runs in`,
  };
}

/** What the schema says a value at a path must be, as the user wrote the path. */
function settingPath(instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .map((key, index) => (/^\d+$/.test(key) ? `[${key}]` : index === 0 ? key : `.${key}`))
    .join("");
}

/** The key of an error's setting: the one its path starts with, or the unknown one it names. */
function settingOf(error: ErrorObject): string {
  const key = error.instancePath.split("/").at(1);
  return key ?? (error.params as { additionalProperty?: string }).additionalProperty ?? "";
}

/** An Ajv error in the user's words, or undefined where the schema words none. */
function wordsOf(error: ErrorObject): { rank: number; message: string } | undefined {
  const where = settingPath(error.instancePath);
  if (error.keyword === "additionalProperties") {
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    if (where === "") return { rank: 2, message: unknownSetting(key) };
    const known = Object.keys((error.parentSchema as { properties: JsonObject }).properties);
    const camelCase = known.filter((name) => !name.includes("_"));
    return {
      rank: 2,
      message: `${where}.${key} is not a setting (known: ${camelCase.join(", ")})`,
    };
  }
  if (error.parentSchema === configSchema.definitions.metricId && typeof error.data === "string") {
    const ids = configSchema.definitions.metricId.enum as string[];
    return {
      rank: 3,
      message: `${where}: unknown metric ${JSON.stringify(error.data)}${didYouMean(error.data, ids)}; known metrics: ${ids.join(", ")}`,
    };
  }
  const words = (error.parentSchema as JsonObject).errorMessage;
  if (typeof words !== "string") return undefined;
  // A choice that failed as a whole says least: what failed inside it says more.
  return { rank: error.keyword === "oneOf" ? 0 : 1, message: `${where} ${words}` };
}

/**
 * The first thing wrong with a config, by its schema: the deepest error the schema words; at one
 * depth, an unknown metric, then an unknown key, then what a value must be.
 */
function schemaProblem(value: JsonObject): { message: string; key: string } | undefined {
  if (validateConfig === undefined) {
    const ajv: Ajv = new (load("ajv") as { Ajv: typeof Ajv }).Ajv({ strict: false, verbose: true });
    validateConfig = ajv.compile(configSchema);
  }
  if (validateConfig(value)) return undefined;
  let best: { depth: number; rank: number; message: string; key: string } | undefined;
  for (const error of validateConfig.errors ?? []) {
    const worded = wordsOf(error);
    const words = worded ?? {
      rank: 0,
      message: `${settingPath(error.instancePath)} ${error.message ?? "is invalid"}`,
    };
    // What the schema words comes before what Ajv says, however deep.
    const depth = error.instancePath.split("/").length + (worded === undefined ? 0 : 1000);
    if (
      best === undefined ||
      depth > best.depth ||
      (depth === best.depth && words.rank > best.rank)
    )
      best = { depth, ...words, key: settingOf(error) };
  }
  return best ?? { message: "is not a config", key: "" };
}

/** An unknown top-level setting, suggested and listed in the spelling the file uses. */
function unknownSetting(key: string): string {
  const style = key.includes("_") ? snake : (name: string) => name;
  const known = topLevelKeys.map(style);
  return `unknown setting "${key}"${didYouMean(key, known)} (known: ${known.join(", ")})`;
}

function configError(
  file: string,
  message: string,
  value?: unknown,
  at?: { readonly line: number; readonly column: number },
): InvalidOptionError {
  const where = at === undefined ? file : `${file}:${at.line}:${at.column}`;
  return new InvalidOptionError({ option: "config", value, message: `${where}: ${message}` });
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
  return jsonErrorPosition(text, error);
}

/** Where a top-level key is written in a config's text (JSON or YAML), when it can be found. */
function keyPosition(text: string, key: string): { line: number; column: number } | undefined {
  const found = new RegExp(`^([ \\t{,]*)(["']?)${escapeRegExp(key)}\\2\\s*:`, "m").exec(text);
  return found === null ? undefined : textPosition(text, found.index + found[1].length);
}

/**
 * A metric's option error placed in the config file that set the option: the file, line and
 * column of the option's key in that metric's entry (else of the entry), as a top-level setting's
 * error is. Any other error, or one the file cannot place, is returned as it is.
 */
export function placedInConfig(error: unknown, config: EvalConfig): unknown {
  if (!InvalidOptionError.isInstance(error) || config.file === undefined) return error;
  const { option } = error;
  const entry = config.metrics.find(
    ({ metric }) => option === metric || option.startsWith(`${metric}.`),
  );
  if (entry === undefined) return error;
  let text: string;
  try {
    text = readFileSync(config.file, "utf8");
  } catch {
    return error;
  }
  const key = option.slice(entry.metric.length + 1).split(/[.[]/)[0] ?? "";
  const found = metricOptionPosition(text, entry.metric, key);
  if (found === undefined) return error;
  // Options as the file spells them (`tool_rules`), not as the code reads them.
  const written = (name: string) =>
    new RegExp(`(^|[\\s{,])(["']?)${escapeRegExp(name)}\\2\\s*:`, "m").test(text);
  const message = error.message.replace(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, (name) => {
    const snakeName = snake(name);
    return !written(name) && written(snakeName) ? snakeName : name;
  });
  const placed = configError(config.file, message, error.value, found);
  return new InvalidOptionError({
    option: error.option,
    value: error.value,
    message: placed.message,
    cause: error,
  });
}

/** Where a metric's entry starts in a config's text, and where its option `key` is, if written. */
function metricOptionPosition(
  text: string,
  metric: string,
  key: string,
): { line: number; column: number } | undefined {
  const id = escapeRegExp(metric);
  // `- metric: <id>` / `{"metric": "<id>"`, `- <id>` in a list, or `<id>:` as a key.
  const entry = new RegExp(
    `(["']?metric["']?\\s*:\\s*["']?${id}["']?(?![\\w-]))|(^[ \\t]*-[ \\t]*["']?${id}["']?[ \\t]*$)|(["']${id}["']\\s*:)|(^[ \\t]*${id}[ \\t]*:)`,
    "m",
  ).exec(text);
  if (entry === null) return undefined;
  const start = entry.index + (entry[0].length - entry[0].trimStart().length);
  if (key !== "") {
    const rest = text.slice(start + entry[0].length);
    const next = /["']?metric["']?\s*:/.exec(rest);
    const within = next === null ? rest : rest.slice(0, next.index);
    const spellings = [key, snake(key)];
    for (const spelling of spellings) {
      const found = new RegExp(`(["']?)${escapeRegExp(spelling)}\\1\\s*:`).exec(within);
      if (found !== null) {
        return textPosition(text, start + entry[0].length + found.index);
      }
    }
  }
  return textPosition(text, start);
}

/** snake_case keys of a config file read as camelCase, at the top level only. */
function camel(key: string): string {
  return key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** The metrics as configured, in either form the schema allows. */
function metricsOf(value: JsonValue | undefined): MetricConfig[] {
  if (value === undefined) return [];
  // `metrics: { tool-call-accuracy: { order: strict } }`
  if (isJsonObject(value)) {
    return Object.entries(value).map(([metric, options]) => ({
      metric,
      options: (options ?? {}) as JsonObject,
    }));
  }
  // `metrics: [tool-call-accuracy, { metric: axion-tool-correctness, strict_order: true }]`
  return (value as (string | JsonObject)[]).map((item) => {
    if (typeof item === "string") return { metric: item, options: {} };
    const { metric, options, ...inline } = item;
    return { metric: metric as string, options: { ...inline, ...((options ?? {}) as JsonObject) } };
  });
}

/** The judge as configured: a model string, or its settings in camelCase. */
function judgeOf(value: JsonValue | undefined): JudgeConfig | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return { model: value };
  const settings: Record<string, unknown> = {};
  // snake_case too, as the rest of the config takes it (timeout_ms, base_url).
  for (const [given, setting] of Object.entries(value)) {
    settings[camel(given).replace(/Url$/, "URL")] = setting;
  }
  return settings as unknown as JudgeConfig;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Keys of an object in camelCase; one setting given in both spellings is an error. */
function camelSettings(
  value: JsonObject,
  file: string,
  text: string,
): { given: Partial<Record<string, JsonValue>>; spelled: Partial<Record<string, string>> } {
  const given: Partial<Record<string, JsonValue>> = {};
  const spelled: Partial<Record<string, string>> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "$schema") continue;
    const name = camel(key);
    if (spelled[name] !== undefined) {
      throw configError(
        file,
        `${spelled[name]} and ${key} are one setting: keep one`,
        undefined,
        keyPosition(text, key),
      );
    }
    given[name] = item;
    spelled[name] = key;
  }
  return { given, spelled };
}

/** Reads the text of a config file as JSON or YAML, with where a syntax error is. */
async function parseConfig(file: string, text: string): Promise<unknown> {
  // The YAML parser is loaded only for a YAML config.
  const yaml = /\.ya?ml$/i.test(file) ? await import("yaml") : undefined;
  try {
    return yaml === undefined ? JSON.parse(text) : yaml.parse(text);
  } catch (error) {
    throw configError(
      file,
      `not valid ${yaml === undefined ? "JSON" : "YAML"}: ${error instanceof Error ? error.message : String(error)}`,
      undefined,
      parseErrorPosition(error, text),
    );
  }
}

/** The largest config file read: far over any real one. */
const maxConfigBytes = 16 * 1024 * 1024;

/**
 * Reads a config file (JSON or YAML), checked against its schema (`configSchema`); its relative
 * paths are relative to the file.
 */
export async function readConfigFile(file: string): Promise<EvalConfig> {
  let text: string;
  try {
    text = readRegularFileSync(file, { maxBytes: maxConfigBytes }).toString("utf8");
  } catch (error) {
    const why =
      error instanceof NotARegularFileError || error instanceof FileTooLargeError
        ? `: it ${error.message}`
        : "";
    throw new InvalidOptionError({
      option: "config",
      value: file,
      message: `cannot read the config file ${file}${why}`,
      cause: error,
    });
  }
  const value = await parseConfig(file, text);
  if (value === null || value === undefined) return { metrics: [] };
  if (!isJsonObject(value)) throw configError(file, "the config must be an object");
  const problem = credentialProblem(value) ?? schemaProblem(value);
  if (problem !== undefined) {
    throw configError(file, problem.message, undefined, keyPosition(text, problem.key));
  }
  const { given, spelled } = camelSettings(value, file, text);
  const directory = path.dirname(path.resolve(file));
  const relative = (key: string): string | undefined => {
    const item = given[key];
    return item === undefined ? undefined : path.resolve(directory, item as string);
  };
  /** A share from 0 to 1, also written as a percentage ("90%"). */
  const shareOf = (key: string): number | undefined => {
    const item = given[key];
    const share = typeof item === "string" ? percentShare(item) : item;
    if (share !== undefined && !((share as number) >= 0 && (share as number) <= 1)) {
      throw configError(
        file,
        `${spelled[key] ?? key} must be a share from 0 to 1 (0.9) or a percentage ("90%")`,
        item,
        keyPosition(text, spelled[key] ?? key),
      );
    }
    return share as number | undefined;
  };
  return {
    metrics: metricsOf(given.metrics),
    judge: judgeOf(given.judge),
    concurrency: given.concurrency as number | undefined,
    threshold: shareOf("threshold"),
    failUnder: shareOf("failUnder"),
    notEvaluable: given.notEvaluable as NotEvaluablePolicy | undefined,
    gateOn: given.gateOn as GateRate | undefined,
    failOnFlaky: given.failOnFlaky as boolean | undefined,
    reportMaxCases: given.reportMaxCases as number | undefined,
    details: given.details as DetailsChoice | undefined,
    groupBy: given.groupBy as GroupBy | undefined,
    turnAggregate: given.turnAggregate as TurnAggregate | undefined,
    normalizeNames: given.normalizeNames as boolean | undefined,
    out: relative("out"),
    report: relative("report"),
    junit: relative("junit"),
    markdown: relative("markdown"),
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

/** The gate's flags, the same in every command that decides a run's gate (eval, report, merge). */
export const gateFlags = {
  "fail-under": {
    type: "string",
    value: "<0..1|N%>",
    help: "pass when at least this share of cases passes (default: the config's fail_under, else all)",
  },
  "not-evaluable": {
    type: "string",
    value: "fail|ignore",
    help: "cases a judge could not tell fail the gate (default), or are left out of it",
  },
  "gate-on": {
    type: "string",
    value: "pass-rate|pass@k|pass^k",
    help: "the rate --fail-under holds: cases passed (default), or over repeated\nruns the cases some run (pass@k) or every run (pass^k) passed",
  },
  "fail-on-flaky": {
    type: "boolean",
    help: "fail when a case passed in some of its runs and failed in others",
  },
} as const satisfies Readonly<Record<string, Flag>>;

/**
 * The run's gate rule from the flags over the config: the pass rate `--fail-under` (else
 * `fail_under`, with where it came from for the verdict line), and what cases a judge could not
 * tell do (`--not-evaluable`, else `not_evaluable`).
 */
export function gateRuleOf(
  flags: {
    readonly "fail-under"?: string | undefined;
    readonly "not-evaluable"?: string | undefined;
    readonly "gate-on"?: string | undefined;
    readonly "fail-on-flaky"?: boolean | undefined;
  },
  config: EvalConfig,
  io: Pick<CliIo, "cwd">,
): Pick<GateRule, "failUnder" | "failUnderFrom" | "notEvaluable" | "rate" | "failOnFlaky"> {
  const flag = flags["fail-under"];
  const given = shareFlag("fail-under", flag);
  const policy = flags["not-evaluable"];
  if (policy !== undefined && !(notEvaluablePolicies as readonly string[]).includes(policy)) {
    throw usageError(`--not-evaluable takes fail or ignore, got ${policy}`, "--not-evaluable");
  }
  const notEvaluable = (policy as NotEvaluablePolicy | undefined) ?? config.notEvaluable;
  const rateFlag = flags["gate-on"];
  if (rateFlag !== undefined && !(gateRates as readonly string[]).includes(rateFlag)) {
    throw usageError(`--gate-on takes ${gateRates.join(", ")}, got ${rateFlag}`, "--gate-on");
  }
  const repeated = {
    rate: (rateFlag as GateRate | undefined) ?? config.gateOn,
    failOnFlaky: flags["fail-on-flaky"] === true || config.failOnFlaky === true,
  };
  if (given !== undefined)
    return { failUnder: given, failUnderFrom: "--fail-under", notEvaluable, ...repeated };
  return {
    ...repeated,
    failUnder: config.failUnder,
    failUnderFrom:
      config.failUnder === undefined || config.file === undefined
        ? undefined
        : shownPath(config.file, io),
    notEvaluable,
  };
}
