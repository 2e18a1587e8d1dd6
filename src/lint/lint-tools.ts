/**
 * Tool definitions checked for what makes models call tools wrongly: no description or a word
 * of one, parameters without a type or a description, opaque enums, required parameters nothing
 * documents, names a model will confuse, tools that overlap, and what a provider refuses (its
 * documented name pattern, an input schema that is not an object, too many tools).
 */
import { InvalidInputError } from "../core/errors.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import { editDistance } from "../core/suggest.js";
import type { ToolSpec } from "../core/test-case.js";
import { readToolList, readToolSpecs } from "../adapters/tool-spec.js";

export type LintSeverity = "error" | "warning";

/** Each rule: its severity, and what it finds (the docs' table is held to this). */
export const lintRules = {
  "entry-unread": {
    severity: "warning",
    finds: "an entry that is not a function tool definition (no name): it is not checked",
  },
  "name-duplicate": { severity: "error", finds: "two tools of one name" },
  "description-missing": { severity: "error", finds: "a tool without a description" },
  "description-short": {
    severity: "warning",
    finds: "a description of fewer than four words",
  },
  "parameter-untyped": {
    severity: "error",
    finds: "a parameter without a type (nor enum, const, anyOf, oneOf, allOf or $ref)",
  },
  "parameter-undescribed": {
    severity: "warning",
    finds: "an optional parameter without a description",
  },
  "required-undocumented": {
    severity: "error",
    finds: "a required parameter without a description that the tool's description never names",
  },
  "enum-undocumented": {
    severity: "warning",
    finds:
      "an enum of codes (numbers, or two characters or fewer) whose description names none of them",
  },
  "names-confusable": {
    severity: "warning",
    finds: "two names that differ only in case and separators, or by one or two letters",
  },
  "tools-overlap": {
    severity: "warning",
    finds:
      "two tools whose descriptions share most of their words and whose parameters are the same",
  },
  "provider-name": {
    severity: "error",
    finds: "a name the provider's documented pattern refuses",
  },
  "provider-schema": {
    severity: "error",
    finds: "an input schema whose root is not an object (every provider wants one)",
  },
  "provider-tool-count": {
    severity: "error",
    finds: "more tools than the provider takes in one request",
  },
} as const satisfies Record<string, { severity: LintSeverity; finds: string }>;

export type LintRuleId = keyof typeof lintRules;

/** A finding: its rule, where, what is wrong, and a line to fix it. */
export interface LintFinding {
  readonly rule: LintRuleId;
  readonly severity: LintSeverity;
  /** The tool, or the first of the two a pair rule names. */
  readonly tool?: string;
  /** The parameter, as a JSON path below the input schema (`$.order_id`). */
  readonly parameter?: string;
  readonly message: string;
  readonly fix: string;
}

/** Providers whose documented limits are checked. */
export const lintProviders = ["openai", "anthropic", "gemini"] as const;
export type LintProvider = (typeof lintProviders)[number];

/** Each provider's documented name pattern and most tools a request takes. */
const providerLimits: Readonly<
  Record<LintProvider, { readonly name: RegExp; readonly pattern: string; readonly tools?: number }>
> = {
  openai: { name: /^[a-zA-Z0-9_-]{1,64}$/, pattern: "^[a-zA-Z0-9_-]{1,64}$", tools: 128 },
  anthropic: { name: /^[a-zA-Z0-9_-]{1,64}$/, pattern: "^[a-zA-Z0-9_-]{1,64}$" },
  gemini: {
    name: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
    pattern: "a letter or _ first, then letters, digits, _ . : -, at most 64",
  },
};

export interface LintToolsOptions {
  /** Providers whose limits apply; default all of `lintProviders`. */
  readonly providers?: readonly LintProvider[];
  /** Entries of the list that hold no tool definition, by where they sit (`tools[3]`). */
  readonly unread?: readonly string[];
}

/** The findings of a tool list, tool by tool in the list's order, then the pairs, then the list's. */
export function lintTools(
  tools: readonly ToolSpec[],
  options: LintToolsOptions = {},
): LintFinding[] {
  const providers = options.providers ?? lintProviders;
  const findings: LintFinding[] = [];
  const add = (rule: LintRuleId, found: Omit<LintFinding, "rule" | "severity">) =>
    findings.push({ rule, severity: lintRules[rule].severity, ...found });
  for (const where of options.unread ?? []) {
    add("entry-unread", {
      message: `${where} is not a function tool definition (it has no name), so it is not checked`,
      fix: "give it a name, or leave built-in tools out of the list linted",
    });
  }
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      add("name-duplicate", {
        tool: tool.name,
        message: `${tool.name} is defined twice`,
        fix: "give each tool its own name, or keep one definition",
      });
    }
    seen.add(tool.name);
    lintTool(tool, providers, add);
  }
  lintPairs(tools, add);
  for (const provider of providers) {
    const most = providerLimits[provider].tools;
    if (most !== undefined && tools.length > most) {
      add("provider-tool-count", {
        message: `${tools.length} tools: ${provider} takes at most ${most} in a request`,
        fix: `send a request at most ${most} tools (choose them per task)`,
      });
    }
  }
  return findings;
}

type Add = (rule: LintRuleId, found: Omit<LintFinding, "rule" | "severity">) => void;

function lintTool(tool: ToolSpec, providers: readonly LintProvider[], add: Add): void {
  const { name } = tool;
  const description = tool.description?.trim() ?? "";
  if (description === "") {
    add("description-missing", {
      tool: name,
      message: `${name} has no description: a model picks tools by what they say they do`,
      fix: `describe what ${name} does, when to call it, and what it returns`,
    });
  } else if (wordsOf(description).length < 4) {
    add("description-short", {
      tool: name,
      message: `${name}'s description is ${JSON.stringify(description)}: too short to choose by`,
      fix: `say what ${name} does, when to call it (and when not), and what it returns`,
    });
  }
  for (const provider of providers) {
    const limits = providerLimits[provider];
    if (!limits.name.test(name)) {
      add("provider-name", {
        tool: name,
        message: `${JSON.stringify(name)} is not a name ${provider} takes (${limits.pattern})`,
        fix: "rename it with letters, digits, _ and - only, at most 64 characters",
      });
    }
  }
  const schema = tool.parameters;
  if (schema === undefined) return;
  const rootType: unknown = schema.type;
  if (rootType !== "object") {
    add("provider-schema", {
      tool: name,
      message: `${name}'s input schema is ${rootType === undefined ? "untyped" : `of type ${JSON.stringify(rootType)}`}, not an object`,
      fix: 'make the input schema { "type": "object", "properties": { ... } }',
    });
  }
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === "string") : [],
  );
  const toolWords = new Set(wordsOf(`${name} ${description}`));
  for (const [key, property] of Object.entries(properties)) {
    const parameter = pathOf(key);
    const at = { tool: name, parameter };
    const own = isJsonObject(property) ? property : {};
    if (!isTyped(own)) {
      add("parameter-untyped", {
        ...at,
        message: `${name} ${parameter} has no type: a model guesses what to send`,
        fix: `give ${parameter} a type ("string", "integer", ...), an enum or a const`,
      });
    }
    const described = typeof own.description === "string" && own.description.trim() !== "";
    if (!described && required.has(key) && !wordsOf(key).every((word) => toolWords.has(word))) {
      add("required-undocumented", {
        ...at,
        message: `${name} requires ${parameter}, which neither it nor ${name}'s description explains`,
        fix: `describe ${parameter}: what it is, its format, an example`,
      });
    } else if (!described && !required.has(key)) {
      add("parameter-undescribed", {
        ...at,
        message: `${name} ${parameter} has no description`,
        fix: `describe ${parameter}, and what leaving it out means`,
      });
    }
    const codes = Array.isArray(own.enum) ? own.enum : [];
    if (codes.length >= 2 && codes.some(isCode)) {
      const said = `${typeof own.description === "string" ? own.description : ""} ${description}`;
      if (!codes.some((code) => said.includes(JSON.stringify(code).replace(/^"|"$/g, "")))) {
        add("enum-undocumented", {
          ...at,
          message: `${name} ${parameter} takes ${codes.map((code) => JSON.stringify(code)).join(", ")}, and nothing says what they mean`,
          fix: `say what each value of ${parameter} means, in its description`,
        });
      }
    }
  }
}

/** Pairs of tools a model will mix up: names alike, or the same job described twice. */
function lintPairs(tools: readonly ToolSpec[], add: Add): void {
  for (let a = 0; a < tools.length; a++) {
    for (let b = a + 1; b < tools.length; b++) {
      const first = tools[a];
      const second = tools[b];
      if (first.name === second.name) continue;
      if (confusable(first.name, second.name)) {
        add("names-confusable", {
          tool: first.name,
          message: `${first.name} and ${second.name} are names a model will confuse`,
          fix: "name each for what sets it apart (get_order, list_orders), and say so in the descriptions",
        });
      }
      const shared = sharedWords(first.description ?? "", second.description ?? "");
      if (shared >= 0.7 && sameParameters(first, second)) {
        add("tools-overlap", {
          tool: first.name,
          message: `${first.name} and ${second.name} take the same parameters and describe the same job (${Math.round(shared * 100)}% of their words shared)`,
          fix: "merge them, or say in each description when to use it rather than the other",
        });
      }
    }
  }
}

const wordsOf = (text: string): string[] =>
  (text.match(/[\p{L}\p{N}]+/gu) ?? []).flatMap((word) =>
    // camelCase splits into its words, as snake_case does.
    word.split(/(?<=[\p{Ll}\p{N}])(?=\p{Lu})/u).map((part) => part.toLowerCase()),
  );

/** A parameter's path below the input schema. */
const pathOf = (key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `$.${key}` : `$[${JSON.stringify(key)}]`;

function isTyped(schema: JsonObject): boolean {
  return ["type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref"].some((key) =>
    Object.hasOwn(schema, key),
  );
}

/** An enum value that does not explain itself: a number, or two characters or fewer. */
const isCode = (value: unknown): boolean =>
  typeof value === "number" || (typeof value === "string" && value.length <= 2);

/** Names alike: the same but for case and separators, or one or two letters apart (5+ letters). */
function confusable(a: string, b: string): boolean {
  const plain = (name: string) => name.toLowerCase().replace(/[-_.:\s]/g, "");
  const x = plain(a);
  const y = plain(b);
  if (x === y) return true;
  return Math.min(x.length, y.length) >= 5 && editDistance(x, y, 2) <= 2;
}

/** Words too common to tell two descriptions apart. */
const common: ReadonlySet<string> = new Set(
  "a an the of to for in on at by with from and or is are be it its this that as use used returns return get".split(
    " ",
  ),
);

/** The share of their content words two descriptions share (Jaccard); 0 when either has none. */
function sharedWords(a: string, b: string): number {
  const set = (text: string) => new Set(wordsOf(text).filter((word) => !common.has(word)));
  const x = set(a);
  const y = set(b);
  if (x.size === 0 || y.size === 0) return 0;
  let both = 0;
  for (const word of x) if (y.has(word)) both++;
  return both / (x.size + y.size - both);
}

function sameParameters(a: ToolSpec, b: ToolSpec): boolean {
  const keys = (tool: ToolSpec) => {
    const properties = tool.parameters?.properties;
    return isJsonObject(properties) ? Object.keys(properties).sort().join("\u0000") : "";
  };
  return keys(a) === keys(b);
}

/**
 * The tools a list of definitions holds (any provider's shape; a list, an object by name, or an
 * MCP `tools/list` result), with the places of the entries that hold none (`tools[2]`), for
 * `lintTools`. An `InvalidInputError` when it holds no tool at all.
 */
export function readLintedTools(
  value: unknown,
  field = "tools",
): { readonly tools: ToolSpec[]; readonly unread: string[] } {
  const list = isJsonObject(value) && Array.isArray(value.tools) ? value.tools : value;
  const tools: ToolSpec[] = [];
  const unread: string[] = [];
  if (Array.isArray(list)) {
    list.forEach((item: unknown, at) => {
      const read = readToolSpecs(item, `${field}[${at}]`);
      if (read.length === 0) unread.push(`${field}[${at}]`);
      tools.push(...read);
    });
  } else tools.push(...readToolList(list, field));
  if (tools.length === 0) {
    throw new InvalidInputError({
      field,
      message: `${field} defines no tool: give a list of tool definitions (OpenAI, Anthropic or MCP's tools/list)`,
    });
  }
  return { tools, unread };
}
