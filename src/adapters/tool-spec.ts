import type { ToolSpec } from "../core/test-case.js";
import { isJsonObject, toJsonValue } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import { asArray, asRecord, asString, jsonOrText } from "./read.js";

/** Gemini's OpenAPI-style schemas name types in capitals (`OBJECT`); JSON Schema uses lower case. */
function lowerSchemaTypes(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) return schema.map(lowerSchemaTypes);
  if (!isJsonObject(schema)) return schema;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] =
      key === "type" && typeof value === "string" ? value.toLowerCase() : lowerSchemaTypes(value);
  }
  return copy;
}

function schemaOf(value: unknown, field: string): JsonObject | undefined {
  const parsed = jsonOrText(value);
  if (!isJsonObject(parsed)) return undefined;
  // Bedrock wraps the schema as { json: {...} }; the AI SDK's jsonSchema() as { jsonSchema: {...} }.
  const inner = asRecord(parsed.json) ?? asRecord(parsed.jsonSchema);
  return toJsonValue(inner ?? parsed, { field }) as JsonObject;
}

/**
 * Whether a tool definition says the tool is read-only: its own `readOnly` / `read_only`, else
 * MCP's annotations (`readOnlyHint`; a `destructiveHint` of true is a tool that changes state).
 */
function readOnlyOf(record: Record<string, unknown>): boolean | undefined {
  const own = record.readOnly ?? record.read_only;
  if (typeof own === "boolean") return own;
  const annotations = asRecord(record.annotations);
  const hint = annotations?.readOnlyHint;
  if (typeof hint === "boolean") return hint;
  return annotations?.destructiveHint === true ? false : undefined;
}

/**
 * Whether a tool definition says the tool reaches outside (the web, other people): its own
 * `openWorld` / `open_world`, else MCP's `openWorldHint`.
 */
function openWorldOf(record: Record<string, unknown>): boolean | undefined {
  const own = record.openWorld ?? record.open_world;
  if (typeof own === "boolean") return own;
  const hint = asRecord(record.annotations)?.openWorldHint;
  return typeof hint === "boolean" ? hint : undefined;
}

function spec(
  name: string,
  description: unknown,
  parameters: JsonObject | undefined,
  record: Record<string, unknown>,
): ToolSpec {
  const text = asString(description);
  const readOnly = readOnlyOf(record);
  const openWorld = openWorldOf(record);
  return {
    name,
    ...(text === undefined || text === "" ? {} : { description: text }),
    ...(parameters === undefined ? {} : { parameters }),
    ...(readOnly === undefined ? {} : { readOnly }),
    ...(openWorld === undefined ? {} : { openWorld }),
  };
}

/**
 * Reads tool definitions in any provider's shape: OpenAI Chat (`{type: "function", function}`),
 * OpenAI Responses and OTel (`{type: "function", name, parameters}`), Anthropic (`input_schema`),
 * MCP (`inputSchema`), Bedrock (`{toolSpec: {inputSchema: {json}}}`), Gemini (`{functionDeclarations}`
 * with `parameters` or `parametersJsonSchema`), LangChain and AI SDK records, and the legacy OpenAI
 * `functions`. Returns every tool found (a Gemini entry can hold several); entries that are not
 * tool definitions (built-in tools without a name) yield nothing.
 */
export function readToolSpecs(value: unknown, field = "tools"): ToolSpec[] {
  const record = asRecord(value);
  if (!record) return [];
  const declarations = asArray(record.functionDeclarations ?? record.function_declarations);
  if (declarations)
    return declarations.flatMap((item, index) =>
      readToolSpecs(item, `${field}.functionDeclarations[${index}]`),
    );
  const bedrock = asRecord(record.toolSpec);
  if (bedrock) return readToolSpecs(bedrock, `${field}.toolSpec`);
  const fn = asRecord(record.function);
  if (fn) {
    // Whether it is read-only may be said beside the function, as toolscore's datasets say it.
    const outer = readOnlyOf(record);
    const world = openWorldOf(record);
    return readToolSpecs(fn, `${field}.function`).map((tool) => {
      const read =
        outer === undefined || tool.readOnly !== undefined ? tool : { ...tool, readOnly: outer };
      return world === undefined || read.openWorld !== undefined
        ? read
        : { ...read, openWorld: world };
    });
  }
  const name = asString(record.name);
  if (name === undefined || name === "") return [];
  const schemaField =
    record.parameters !== undefined
      ? "parameters"
      : record.parametersJsonSchema !== undefined
        ? "parametersJsonSchema"
        : record.input_schema !== undefined
          ? "input_schema"
          : record.inputSchema !== undefined
            ? "inputSchema"
            : record.json_schema !== undefined
              ? "json_schema"
              : undefined;
  let parameters =
    schemaField === undefined
      ? undefined
      : schemaOf(record[schemaField], `${field}.${schemaField}`);
  if (
    parameters &&
    schemaField === "parameters" &&
    typeof (parameters as { type?: unknown }).type === "string"
  ) {
    const type = (parameters as { type: string }).type;
    if (type !== type.toLowerCase()) parameters = lowerSchemaTypes(parameters) as JsonObject;
  }
  return [spec(name, record.description, parameters, record)];
}

/** Tool definitions from a list, or from a record keyed by tool name (the AI SDK's `tools`). */
export function readToolList(value: unknown, field = "tools"): ToolSpec[] {
  const list = asArray(value);
  if (list) return list.flatMap((item, index) => readToolSpecs(item, `${field}[${index}]`));
  const record = asRecord(value);
  if (!record) return [];
  return Object.entries(record).flatMap(([name, tool]) => {
    const entry = asRecord(tool);
    if (!entry) return [];
    return readToolSpecs(
      { name, ...entry, parameters: entry.inputSchema ?? entry.parameters },
      `${field}.${name}`,
    );
  });
}
