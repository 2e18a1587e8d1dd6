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
import { metricIds } from "../core/metric-catalog.js";
import { escapeRegExp } from "../core/words.js";
import { shownPath } from "./io.js";
import { keyVariableOf } from "../providers/judge-models.js";
import type { CliIo } from "./io.js";
import type { GateRule } from "../core/gate.js";
import { InvalidOptionError } from "../core/errors.js";
import { isJsonObject, jsonErrorPosition, textPosition } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import {
  configGroups,
  gateSettings,
  isConfigGroup,
  runConfigSchema,
  runSettings,
} from "./run-settings.js";
import type { MetricConfig, RunSettings } from "./run-settings.js";
import { configKeysOf, flagsOf, resolveSettings, snake } from "./settings.js";
import type { Setting, SettingSources } from "./settings.js";

export type { MetricConfig };

/** What a config file sets: its settings by name, read by the table (paths resolved). */
export type EvalConfig = Partial<RunSettings> & {
  /** The file it was read from, when one was. */
  readonly file?: string;
};

export const configFileNames = [
  "toolscore.config.json",
  "toolscore.config.yaml",
  "toolscore.config.yml",
];

/** The config file's JSON Schema, with the catalog's metric ids. */
export function configFileSchema(): ConfigSchema {
  return runConfigSchema(metricIds) as ConfigSchema;
}

type ConfigSchema = JsonObject & {
  properties: Record<string, JsonObject>;
  definitions: Record<string, JsonObject>;
};

/** The setting of each config key (camelCase, dotted inside a group). */
const settingOfKey = configKeysOf(runSettings);

/** Every spelling of a config key (camelCase, snake_case), by the object it is in. */
const spellings = (() => {
  const byGroup = new Map<string, Map<string, string>>([["", new Map()]]);
  for (const key of settingOfKey.keys()) {
    const [outer, inner] = key.split(".") as [string, string?];
    byGroup.get("")?.set(outer, outer).set(snake(outer), outer);
    if (inner === undefined) continue;
    const group = byGroup.get(outer) ?? new Map<string, string>();
    byGroup.set(outer, group.set(inner, inner).set(snake(inner), inner));
  }
  return byGroup;
})();

/** The settings a config may hold, in camelCase. */
const topLevelKeys = [...new Set(spellings.get("")?.values())];

// Ajv is loaded when a config file is read: a run without one never loads it.
const load = createRequire(import.meta.url);
let checker: { readonly schema: ConfigSchema; readonly validate: ValidateFunction } | undefined;

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
function wordsOf(
  error: ErrorObject,
  schema: ConfigSchema,
): { rank: number; message: string } | undefined {
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
  const { metricId } = schema.definitions;
  if (error.parentSchema === metricId && typeof error.data === "string") {
    const ids = metricId.enum as string[];
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
  if (checker === undefined) {
    const schema = configFileSchema();
    const ajv: Ajv = new (load("ajv") as { Ajv: typeof Ajv }).Ajv({ strict: false, verbose: true });
    checker = { schema, validate: ajv.compile(schema) };
  }
  const { schema, validate } = checker;
  if (validate(value)) return undefined;
  let best: { depth: number; rank: number; message: string; key: string } | undefined;
  for (const error of validate.errors ?? []) {
    const worded = wordsOf(error, schema);
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
  const entry = config.metrics?.find(
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

/**
 * A config file's settings by name, each read by its table entry; one setting given in both
 * spellings is an error, and so is what the schema could not say (a percentage over 100).
 */
function settingsOf(value: JsonObject, file: string, text: string): EvalConfig {
  const settings: Record<string, unknown> = {};
  const directory = path.dirname(path.resolve(file));
  const read = (key: string, item: JsonValue, spelled: string, top: string) => {
    const name = settingOfKey.get(key) as keyof RunSettings;
    try {
      const setting = runSettings[name] as Setting<unknown>;
      settings[name] = setting.kind.fromConfig(item, { directory, spelled });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw configError(file, message, item, keyPosition(text, top));
    }
  };
  const entries = (object: JsonObject, group: string, top?: string) => {
    const known = spellings.get(group) ?? new Map<string, string>();
    const seen = new Map<string, string>();
    for (const [spelled, item] of Object.entries(object)) {
      if (spelled === "$schema" && group === "") continue;
      const key = known.get(spelled) ?? spelled;
      const before = seen.get(key);
      if (before !== undefined) {
        const where = top === undefined ? "" : `${top}.`;
        throw configError(
          file,
          `${where}${before} and ${where}${spelled} are one setting: keep one`,
          undefined,
          keyPosition(text, top ?? spelled),
        );
      }
      seen.set(key, spelled);
      const inside = group === "" && isConfigGroup(key) ? key : undefined;
      if (inside === undefined)
        read(group === "" ? key : `${group}.${key}`, item, spelled, top ?? spelled);
      else if (isJsonObject(item)) entries(item, inside, spelled);
      // A group given as a string is its shorthand: `judge: openai/gpt-4o-mini`.
      else if (item !== null)
        read(`${inside}.${configGroups[inside].shorthand}`, item, spelled, spelled);
    }
  };
  entries(value, "");
  return settings;
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
  if (value === null || value === undefined) return {};
  if (!isJsonObject(value)) throw configError(file, "the config must be an object");
  const problem = credentialProblem(value) ?? schemaProblem(value);
  if (problem !== undefined) {
    throw configError(file, problem.message, undefined, keyPosition(text, problem.key));
  }
  return settingsOf(value, file, text);
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
  config: Pick<EvalConfig, "judgeCache">,
  io: Pick<CliIo, "cwd" | "env">,
): string | undefined {
  const cache = config.judgeCache;
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
    return {};
  }
  if (!/\.(?:json|ya?ml)$/i.test(file)) refuseCodeConfig(file);
  if (given === undefined) io.stderr.write(`toolscore: using ${path.relative(io.cwd, file)}\n`);
  return { ...(await readConfigFile(file)), file };
}

/** The gate's flags, the same in every command that decides a run's gate (eval, report, merge). */
export const gateFlags = flagsOf(runSettings, gateSettings, { grouped: false });

/** A command's settings, resolved: the flags over the config file's over the defaults. */
export interface ResolvedSettings<K extends keyof RunSettings> {
  readonly settings: Pick<RunSettings, K>;
  readonly from: SettingSources<Pick<RunSettings, K>>;
  readonly config: EvalConfig;
}

/**
 * The named settings of a command from its flags (`parseArgs`'s values) and the config file that
 * --config names, else the current folder's, else none; each checked before any work.
 */
export async function settingsFor<K extends keyof RunSettings>(
  names: readonly K[],
  flags: Readonly<Record<string, unknown>>,
  io: Pick<CliIo, "cwd" | "stderr">,
): Promise<ResolvedSettings<K>> {
  const given = flags.config;
  const config = await configFor(typeof given === "string" ? given : undefined, io);
  return { ...resolveSettings(runSettings, names, { flags, config, cwd: io.cwd }), config };
}

/**
 * The run's gate rule: the pass rate (with where it came from, for the verdict line), the rate it
 * holds, flaky cases, and what cases a judge could not tell do.
 */
export function gateRuleOf(
  { settings, from, config }: ResolvedSettings<(typeof gateSettings)[number]>,
  io: Pick<CliIo, "cwd">,
): Pick<
  GateRule,
  "failUnder" | "failUnderFrom" | "notEvaluable" | "maxNotEvaluable" | "rate" | "failOnFlaky"
> {
  return {
    failUnder: settings.failUnder,
    failUnderFrom:
      from.failUnder === "flag"
        ? "--fail-under"
        : from.failUnder === "config" && config.file !== undefined
          ? shownPath(config.file, io)
          : undefined,
    notEvaluable: settings.notEvaluable,
    maxNotEvaluable: settings.maxNotEvaluable,
    rate: settings.gateOn,
    failOnFlaky: settings.failOnFlaky,
  };
}

/** The gate of a command that states one (report, merge), from its flags and the config. */
export async function gateFor(
  flags: Readonly<Record<string, unknown>>,
  io: Pick<CliIo, "cwd" | "stderr">,
): Promise<ReturnType<typeof gateRuleOf>> {
  return gateRuleOf(await settingsFor(gateSettings, flags, io), io);
}
