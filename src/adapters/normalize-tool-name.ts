import { InvalidOptionError } from "../core/errors.js";

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
export function createNameNormalizer(
  options: NameNormalizationOptions = {},
): (name: string) => string {
  if (options.normalize !== undefined && typeof options.normalize !== "function") {
    throw new InvalidOptionError({
      option: "normalize",
      value: options.normalize,
      message: "normalize must be a function from a tool name to a tool name",
    });
  }
  const aliases = options.aliases ?? {};
  if (typeof aliases !== "object" || Array.isArray(aliases)) {
    throw new InvalidOptionError({
      option: "aliases",
      value: aliases,
      message: 'aliases must be an object mapping names to names, like { "search_v2": "search" }',
    });
  }
  for (const [from, to] of Object.entries(aliases)) {
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
