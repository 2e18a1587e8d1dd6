import { isJsonObject } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";

/**
 * Reading a tool's JSON Schema to compare arguments by meaning: which schema describes a child,
 * what types a node declares, its default, and how to read a value the way the schema declares
 * it. Only what comparison needs; validation is Ajv's job.
 */

/** The schema of `node` with a local `$ref` (`#/$defs/x`, `#/definitions/x`) followed. */
export function resolveSchema(
  node: JsonValue | undefined,
  root: JsonObject,
): JsonObject | undefined {
  let current = node;
  for (let hops = 0; hops < 32 && isJsonObject(current); hops++) {
    const ref = current.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/")) return current;
    let target: JsonValue | undefined = root;
    for (const segment of ref.slice(2).split("/")) {
      const key = segment.replace(/~1/g, "/").replace(/~0/g, "~");
      target = isJsonObject(target) ? target[key] : undefined;
    }
    current = target;
  }
  return isJsonObject(current) ? current : undefined;
}

/** The schema of property `key` of an object schema. */
export function propertySchema(
  schema: JsonObject | undefined,
  key: string,
  root: JsonObject,
): JsonObject | undefined {
  if (!schema) return undefined;
  const properties = schema.properties;
  if (isJsonObject(properties) && Object.hasOwn(properties, key))
    return resolveSchema(properties[key], root);
  const additional = schema.additionalProperties;
  return isJsonObject(additional) ? resolveSchema(additional, root) : undefined;
}

/** The schema of element `index` of an array schema. */
export function itemSchema(
  schema: JsonObject | undefined,
  index: number,
  root: JsonObject,
): JsonObject | undefined {
  if (!schema) return undefined;
  const prefix = schema.prefixItems;
  if (Array.isArray(prefix) && index < prefix.length) return resolveSchema(prefix[index], root);
  const items = schema.items;
  if (Array.isArray(items)) return resolveSchema(items[index], root);
  return resolveSchema(items, root);
}

/** The types a schema allows, from `type` and the branches of `anyOf` / `oneOf`. */
export function declaredTypes(schema: JsonObject | undefined, root: JsonObject): Set<string> {
  const types = new Set<string>();
  if (!schema) return types;
  const type = schema.type;
  if (typeof type === "string") types.add(type);
  if (Array.isArray(type)) for (const t of type) if (typeof t === "string") types.add(t);
  for (const key of ["anyOf", "oneOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches))
      for (const branch of branches)
        for (const t of declaredTypes(resolveSchema(branch, root), root)) types.add(t);
  }
  return types;
}

/** Whether `key` is required by an object schema. */
export function isRequired(schema: JsonObject | undefined, key: string): boolean {
  const required = schema?.required;
  return Array.isArray(required) && required.includes(key);
}

const numeric = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/**
 * A value read as the schema declares it, and a note when that changed it: a numeric string is a
 * number where only numbers are allowed, "true"/"false" a boolean where only booleans are, a
 * number a string where only strings are (so "020" stays "020"); an enum value in another case is
 * the enum's own spelling; an RFC 3339 date-time (`format: date-time`) is its instant in UTC.
 */
export function readAsDeclared(
  value: JsonValue,
  schema: JsonObject | undefined,
  root: JsonObject,
): { value: JsonValue; note?: string } {
  if (!schema) return { value };
  const types = declaredTypes(schema, root);
  if (typeof value === "string") {
    if (
      (types.has("number") || types.has("integer")) &&
      !types.has("string") &&
      numeric.test(value) &&
      Number.isFinite(Number(value))
    ) {
      return {
        value: Number(value),
        note: `${JSON.stringify(value)} read as a number (schema: ${types.has("integer") ? "integer" : "number"})`,
      };
    }
    if (types.has("boolean") && !types.has("string") && (value === "true" || value === "false")) {
      return {
        value: value === "true",
        note: `${JSON.stringify(value)} read as a boolean (schema: boolean)`,
      };
    }
    const enumValues = schema.enum;
    if (Array.isArray(enumValues) && !enumValues.includes(value)) {
      const lower = value.toLowerCase();
      const same = enumValues.filter(
        (e): e is string => typeof e === "string" && e.toLowerCase() === lower,
      );
      if (same.length === 1)
        return {
          value: same[0],
          note: `${JSON.stringify(value)} read as the enum value ${JSON.stringify(same[0])}`,
        };
    }
    // Only RFC 3339 date-times with an offset: other strings would parse in the machine's
    // time zone, and a score must not depend on where it runs.
    if (schema.format === "date-time" && rfc3339.test(value)) {
      const time = Date.parse(value.toUpperCase().replace(" ", "T"));
      if (!Number.isNaN(time)) {
        const instant = new Date(time).toISOString();
        return instant === value
          ? { value }
          : { value: instant, note: `${JSON.stringify(value)} read as the instant ${instant}` };
      }
    }
  }
  if (
    typeof value === "number" &&
    types.has("string") &&
    !types.has("number") &&
    !types.has("integer")
  ) {
    return { value: String(value), note: `${value} read as a string (schema: string)` };
  }
  return { value };
}

/** The default a property declares, when the property is optional and has one. */
export function optionalDefault(
  parent: JsonObject | undefined,
  key: string,
  child: JsonObject | undefined,
): JsonValue | undefined {
  if (!child || !Object.hasOwn(child, "default") || isRequired(parent, key)) return undefined;
  return child.default;
}
