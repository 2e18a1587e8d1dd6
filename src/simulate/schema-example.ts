/**
 * A value that fits a JSON Schema, made without data: what a simulated tool answers when no
 * fixture answers a call but the tool declares its output's schema. The same schema always makes
 * the same value.
 */
import { isJsonObject } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";

/** Deeper schemas (or `$ref` cycles) end in `null`: an example need not be complete. */
const maxDepth = 16;

/**
 * The smallest plain value `schema` allows: its `const`, `default` or first `enum` or `examples`
 * value when it gives one, else by type (an object with its required properties, an empty list
 * or one item as `minItems` asks, `minimum` or 0, a date for `format: date-time`, "example").
 */
export function exampleOfSchema(
  schema: JsonObject,
  root: JsonObject = schema,
  depth = 0,
): JsonValue {
  if (depth > maxDepth) return null;
  for (const key of ["const", "default"] as const) {
    if (Object.hasOwn(schema, key)) return schema[key] ?? null;
  }
  for (const key of ["enum", "examples"] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) return list[0] ?? null;
  }
  const ref = schema.$ref;
  if (typeof ref === "string" && ref.startsWith("#/")) {
    const target = ref
      .slice(2)
      .split("/")
      .reduce<JsonValue | undefined>(
        (at, part) =>
          isJsonObject(at) ? at[part.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined,
        root,
      );
    return isJsonObject(target) ? exampleOfSchema(target, root, depth + 1) : null;
  }
  for (const key of ["allOf", "anyOf", "oneOf"] as const) {
    const first = schema[key];
    if (Array.isArray(first) && isJsonObject(first[0])) {
      return exampleOfSchema(key === "allOf" ? merged(first) : first[0], root, depth + 1);
    }
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type =
    types.find((t) => t !== "null") ??
    types[0] ??
    (isJsonObject(schema.properties) ? "object" : undefined);
  switch (type) {
    case "object": {
      const properties = isJsonObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : Object.keys(properties);
      const value: JsonObject = {};
      for (const key of required) {
        if (typeof key !== "string") continue;
        const property = properties[key];
        value[key] = isJsonObject(property) ? exampleOfSchema(property, root, depth + 1) : null;
      }
      return value;
    }
    case "array": {
      const count = typeof schema.minItems === "number" ? Math.min(schema.minItems, 3) : 0;
      const items = isJsonObject(schema.items) ? schema.items : {};
      return Array.from({ length: count }, () => exampleOfSchema(items, root, depth + 1));
    }
    case "integer":
    case "number":
      return typeof schema.minimum === "number"
        ? type === "integer"
          ? Math.ceil(schema.minimum)
          : schema.minimum
        : typeof schema.exclusiveMinimum === "number"
          ? Math.floor(schema.exclusiveMinimum) + 1
          : 0;
    case "boolean":
      return false;
    case "string":
      return stringOfFormat(
        schema.format,
        typeof schema.minLength === "number" ? schema.minLength : 0,
      );
    case "null":
      return null;
    default:
      return null;
  }
}

function merged(parts: readonly JsonValue[]): JsonObject {
  const properties: JsonObject = {};
  const required: JsonValue[] = [];
  let type: JsonValue | undefined;
  for (const part of parts) {
    if (!isJsonObject(part)) continue;
    if (isJsonObject(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) required.push(...part.required);
    type ??= part.type;
  }
  return { type: type ?? "object", properties, required };
}

function stringOfFormat(format: JsonValue | undefined, minLength: number): string {
  switch (format) {
    case "date-time":
      return "2026-01-01T00:00:00Z";
    case "date":
      return "2026-01-01";
    case "email":
      return "user@example.com";
    case "uri":
    case "url":
      return "https://example.com/";
    case "uuid":
      return "00000000-0000-4000-8000-000000000000";
    default:
      return "example".padEnd(minLength, "x");
  }
}
