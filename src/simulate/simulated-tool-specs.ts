/**
 * The tools a simulator serves, read from definitions in any provider's shape (OpenAI, Anthropic,
 * MCP `tools/list`, ...) by the one tool reader, with the output schemas MCP definitions carry.
 */
import { InvalidInputError } from "../core/errors.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import { readToolList } from "../adapters/tool-spec.js";
import type { SimulatedToolSpec } from "./simulate-tools.js";

/**
 * The tools `value` defines: a list of definitions, an object of them by name, or an MCP
 * `tools/list` result (`{ "tools": [...] }`). Throws `InvalidInputError` when it defines none,
 * or one name twice.
 */
export function readSimulatedTools(value: unknown, field = "tools"): SimulatedToolSpec[] {
  const list = isJsonObject(value) && Array.isArray(value.tools) ? value.tools : value;
  const specs = readToolList(list, field);
  if (specs.length === 0) {
    throw new InvalidInputError({
      field,
      message: `${field} defines no tool: give a list of tool definitions (OpenAI, Anthropic or MCP's tools/list)`,
    });
  }
  const outputSchemas = new Map<string, JsonObject>();
  for (const item of Array.isArray(list) ? list : []) {
    if (!isJsonObject(item) || typeof item.name !== "string") continue;
    const schema = item.outputSchema ?? item.output_schema;
    if (isJsonObject(schema)) outputSchemas.set(item.name, schema);
  }
  const seen = new Set<string>();
  return specs.map((spec) => {
    if (seen.has(spec.name)) {
      throw new InvalidInputError({
        field,
        message: `${field} defines ${JSON.stringify(spec.name)} twice: give each tool once`,
      });
    }
    seen.add(spec.name);
    const outputSchema = outputSchemas.get(spec.name);
    return outputSchema === undefined ? spec : { ...spec, outputSchema };
  });
}
