import { InvalidOptionError } from "./errors.js";

export interface NameNormalizationOptions {
  /**
   * Remove a dynamic suffix that looks random: an underscore and four letters and digits, mixing
   * both (`delegate_to_sql_query_agent_xg7c` -> `delegate_to_sql_query_agent`). Words (`_data`,
   * `_user`) and numbers (`_2024`) stay. Default true.
   */
  dynamicSuffix?: boolean;
  /**
   * Drop an MCP server prefix: `mcp__server__tool` and `server.tool` become `tool`. Default false,
   * since two servers may offer tools of the same name.
   */
  stripMcpPrefix?: boolean;
  /**
   * What a dot in a name becomes: `"keep"` (default) or `"underscore"` (`math.factorial` ->
   * `math_factorial`, as BFCL sends dotted names to function-calling models). Applied after the
   * two rules above, before aliases.
   */
  dottedNames?: "keep" | "underscore";
  /** Names to map to a canonical one, applied to the original name and to the normalized one. */
  aliases?: Readonly<Record<string, string>>;
  /** Your own rule; when given it replaces the two built-in ones (aliases still apply). */
  normalize?: (name: string) => string;
}

const dynamicSuffix = /_([A-Za-z0-9]{4})$/;
const letter = /[A-Za-z]/;
const digit = /[0-9]/;

/** Removes a random-looking `_xxxx` suffix (letters and digits mixed), if there is one. */
function removeDynamicSuffix(name: string): string {
  const match = dynamicSuffix.exec(name);
  if (!match) return name;
  const suffix = match[1];
  if (!letter.test(suffix) || !digit.test(suffix)) return name;
  const base = name.slice(0, -5);
  return base === "" ? name : base;
}

function removeMcpPrefix(name: string): string {
  const claudeStyle = /^mcp__[^_](?:.*?[^_])?__(.+)$/.exec(name);
  if (claudeStyle) return claudeStyle[1];
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1) : name;
}

/**
 * Builds the name normalizer that options describe, validating them once.
 *
 * @example
 * const normalize = createNameNormalizer({ stripMcpPrefix: true });
 * normalize("mcp__github__create_issue_a1b2"); // "create_issue"
 */
const knownOptions = ["dynamicSuffix", "stripMcpPrefix", "dottedNames", "aliases", "normalize"];

export function createNameNormalizer(
  options: NameNormalizationOptions = {},
): (name: string) => string {
  for (const key of Object.keys(options)) {
    if (!knownOptions.includes(key)) {
      throw new InvalidOptionError({
        option: key,
        value: (options as Record<string, unknown>)[key],
        message: `${JSON.stringify(key)} is not a name normalization option; they are ${knownOptions.join(", ")}`,
      });
    }
  }
  // Options may come from data: read them as unknown.
  const dotted: unknown = options.dottedNames ?? "keep";
  if (dotted !== "keep" && dotted !== "underscore") {
    throw new InvalidOptionError({
      option: "dottedNames",
      value: dotted,
      message: `dottedNames must be "keep" or "underscore", got ${JSON.stringify(dotted)}`,
    });
  }
  for (const flag of ["dynamicSuffix", "stripMcpPrefix"] as const) {
    const value: unknown = options[flag];
    if (value !== undefined && typeof value !== "boolean") {
      throw new InvalidOptionError({
        option: flag,
        value,
        message: `${flag} must be true or false, got ${JSON.stringify(value)}`,
      });
    }
  }
  if (options.normalize !== undefined && typeof options.normalize !== "function") {
    throw new InvalidOptionError({
      option: "normalize",
      value: options.normalize,
      message: "normalize must be a function from a tool name to a tool name",
    });
  }
  const given: unknown = options.aliases ?? {};
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw new InvalidOptionError({
      option: "aliases",
      value: given,
      message: 'aliases must be an object mapping names to names, like { "search_v2": "search" }',
    });
  }
  const aliases = given as Readonly<Record<string, string>>;
  for (const [from, to] of Object.entries(aliases) as [string, unknown][]) {
    if (typeof to !== "string") {
      throw new InvalidOptionError({
        option: `aliases.${from}`,
        value: to,
        message: `aliases.${from} must be a tool name (a string)`,
      });
    }
  }
  const stripSuffix = options.dynamicSuffix ?? true;
  const stripPrefix = options.stripMcpPrefix ?? false;
  const custom = options.normalize;
  const alias = (name: string): string | undefined =>
    Object.hasOwn(aliases, name) ? aliases[name] : undefined;

  return (name) => {
    const direct = alias(name);
    if (direct !== undefined) return direct;
    let normalized = name;
    if (custom) {
      normalized = custom(name);
      if (typeof normalized !== "string") {
        throw new InvalidOptionError({
          option: "normalize",
          value: normalized,
          message: `normalize returned ${typeof normalized} for ${JSON.stringify(name)}; it must return a string`,
        });
      }
    } else {
      if (stripPrefix) normalized = removeMcpPrefix(normalized);
      if (stripSuffix) normalized = removeDynamicSuffix(normalized);
    }
    if (dotted === "underscore") normalized = normalized.replaceAll(".", "_");
    return alias(normalized) ?? normalized;
  };
}

/**
 * Normalizes one tool name: by default, removes a dynamic suffix such as `_xg7c` (an underscore
 * and four characters mixing letters and digits) and nothing else.
 */
export function normalizeToolName(name: string, options: NameNormalizationOptions = {}): string {
  return createNameNormalizer(options)(name);
}
