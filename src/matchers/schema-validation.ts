import { createRequire } from "node:module";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { FormatsPlugin } from "ajv-formats";
import { childPath, isJsonObject } from "../core/json.js";
import { linearRegExpEngine } from "./linear-regex.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { NumberSpellings } from "../core/number-spellings.js";

// Ajv is loaded when a first schema is compiled (require's cache keeps it): a run without tool
// schemas never loads it. It is CommonJS, so it loads synchronously, as validation needs.
const load = createRequire(import.meta.url);

/** A new Ajv of the draft a schema declares, with formats checked. */
function newAjv(draft2020: boolean): Ajv | Ajv2020 {
  const formats = load("ajv-formats") as FormatsPlugin & { default?: FormatsPlugin };
  const addFormats = formats.default ?? formats;
  const ajv = draft2020
    ? new (load("ajv/dist/2020.js") as { Ajv2020: typeof Ajv2020 }).Ajv2020(ajvOptions)
    : new (load("ajv") as { Ajv: typeof Ajv }).Ajv(ajvOptions);
  addFormats(ajv);
  return ajv;
}

// Lenient about unknown keywords (tool schemas carry many); every error, not the first; and a
// schema's $id is not registered, so two tools (or two copies of one) may share an $id.
// Patterns in a tool's schema run on the linear-time engine: arguments are data.
const ajvOptions = {
  strict: false,
  allErrors: true,
  addUsedSchema: false,
  code: { regExp: linearRegExpEngine },
} as const;

/** The kinds of schema violation, as `onSchemaViolation: { fail: [...] }` names them. */
export const schemaViolationKinds = [
  "unknown-argument",
  "wrong-type",
  "missing-required",
  "invalid-value",
  "invalid-schema",
] as const;

export type SchemaViolationKind = (typeof schemaViolationKinds)[number];

/** Why called arguments do not fit the tool's own JSON Schema. */
export interface SchemaViolation {
  readonly kind: SchemaViolationKind;
  /** JSON path into the arguments (`$.filters.date`). */
  readonly path: string;
  readonly message: string;
}

/** A JSON pointer's keys, array indices as numbers. */
function pointerKeys(pointer: string): (string | number)[] {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => {
      const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
      return /^\d+$/.test(key) ? Number(key) : key;
    });
}

function pointerToPath(pointer: string): string {
  let path = "$";
  for (const key of pointerKeys(pointer)) path = childPath(path, key);
  return path;
}

/** The value at a path's keys, when there is one. */
function valueAt(value: JsonValue, keys: readonly (string | number)[]): JsonValue | undefined {
  let at: JsonValue | undefined = value;
  for (const key of keys) {
    if (Array.isArray(at) && typeof key === "number") at = at[key];
    else if (isJsonObject(at) && typeof key === "string" && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
  }
  return at;
}

/**
 * Whether an `enum` error is no error under the string rule in force there: the value, compared
 * as comparison compares strings (case, ignored characters), is one of the enum's values.
 */
function enumUnderStringRule(
  error: ErrorObject,
  value: JsonValue,
  normalizerAt:
    ((path: readonly (string | number)[]) => ((text: string) => string) | undefined) | undefined,
): boolean {
  if (error.keyword !== "enum" || normalizerAt === undefined) return false;
  const keys = pointerKeys(error.instancePath);
  const normalize = normalizerAt(keys);
  const given = valueAt(value, keys);
  if (normalize === undefined || typeof given !== "string") return false;
  const allowed = (error.params as { allowedValues?: unknown }).allowedValues;
  const wanted = normalize(given);
  return (
    Array.isArray(allowed) &&
    allowed.some((item) => typeof item === "string" && normalize(item) === wanted)
  );
}

function toViolation(error: ErrorObject): SchemaViolation {
  const base = pointerToPath(error.instancePath);
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String((error.params as { additionalProperty?: unknown }).additionalProperty);
      return {
        kind: "unknown-argument",
        path: childPath(base, key),
        message: `${key} is not a parameter of this tool`,
      };
    }
    case "required": {
      const key = String((error.params as { missingProperty?: unknown }).missingProperty);
      return {
        kind: "missing-required",
        path: childPath(base, key),
        message: `${key} is required`,
      };
    }
    case "type":
      return {
        kind: "wrong-type",
        path: base,
        message: `must be ${String((error.params as { type?: unknown }).type)}`,
      };
    default:
      return {
        kind: "invalid-value",
        path: base,
        message: error.message ?? `fails ${error.keyword}`,
      };
  }
}

/**
 * Arguments the tool declares no parameter for, at the top level only. A tool's parameters are
 * the names an agent may pass: one it made up is an error even where the schema leaves
 * `additionalProperties` out (most tool schemas do). Inside an object argument, JSON Schema's
 * rule holds (Ajv applies it): keys are allowed unless `additionalProperties` is `false`.
 */
function undeclared(
  schema: JsonObject,
  value: JsonValue,
  out: SchemaViolation[],
  seen: Set<string>,
): void {
  if (!isJsonObject(value)) return;
  const properties = schema.properties;
  // JsonObject's values are never undefined to the compiler; a schema may leave the key out.
  if (!isJsonObject(properties) || Object.hasOwn(schema, "additionalProperties")) return;
  for (const key of Object.keys(value)) {
    const keyPath = childPath("$", key);
    if (!Object.hasOwn(properties, key) && !seen.has(keyPath)) {
      out.push({
        kind: "unknown-argument",
        path: keyPath,
        message: `${key} is not a parameter of this tool`,
      });
    }
  }
}

/** Whether a schema lets a number through only when it is an integer. */
function integerOnly(schema: JsonObject): boolean {
  const type = schema.type;
  if (type === "integer") return true;
  if (Array.isArray(type)) return type.includes("integer") && !type.includes("number");
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const numeric = branches.filter(
      (branch) =>
        isJsonObject(branch) &&
        (!("type" in branch) ||
          branch.type === "number" ||
          branch.type === "integer" ||
          (Array.isArray(branch.type) &&
            (branch.type.includes("number") || branch.type.includes("integer")))),
    ) as JsonObject[];
    if (numeric.length > 0 && numeric.every(integerOnly)) return true;
  }
  const all = schema.allOf;
  return Array.isArray(all) && all.some((branch) => isJsonObject(branch) && integerOnly(branch));
}

/** The schema of an object's property or an array's item, where the schema says. */
function childSchema(schema: JsonObject, key: string | number): JsonValue | undefined {
  if (typeof key === "string") {
    const properties = schema.properties;
    if (isJsonObject(properties) && Object.hasOwn(properties, key)) return properties[key];
    return schema.additionalProperties;
  }
  const prefix = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : undefined;
  if (prefix !== undefined) {
    return key < prefix.length ? prefix[key] : (schema.additionalItems ?? schema.items);
  }
  return schema.items;
}

/** Whole numbers written as floats (`3.0`) where the schema declares an integer, at any depth. */
function floatsForIntegers(
  schema: JsonValue | undefined,
  value: JsonValue,
  path: string,
  spellings: NumberSpellings,
  out: SchemaViolation[],
): void {
  if (!isJsonObject(schema)) return;
  if (typeof value === "number") {
    const text = spellings[path] as string | undefined;
    if (text !== undefined && integerOnly(schema)) {
      out.push({ kind: "wrong-type", path, message: `must be integer, written as ${text}` });
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const itemSchema = childSchema(schema, index);
      if (!Array.isArray(itemSchema)) {
        floatsForIntegers(itemSchema, item, childPath(path, index), spellings, out);
      }
    });
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) {
      floatsForIntegers(childSchema(schema, key), value[key], childPath(path, key), spellings, out);
    }
  }
}

/** Distinct schemas a validator keeps compiled; the first compiled is the first let go. */
const maxCompiledSchemas = 1000;

/** A schema compiled, or why it cannot be, with what to take out of Ajv when it is let go. */
interface Compiled {
  readonly result: ValidateFunction | Error;
  readonly ajv?: Ajv | Ajv2020;
  readonly compiled?: JsonObject;
}

/**
 * Validates tool arguments against the tool's JSON Schema with Ajv (draft-07, or 2020-12 when the
 * schema says so; formats checked), turning its errors into violations, and flags arguments the
 * schema does not declare. Compiled validators are kept per schema object and per schema text:
 * a dataset repeats a tool's schema in every case, each its own object once read, and Ajv's
 * compile costs a millisecond and keeps what it compiled.
 */
export class SchemaValidator {
  // Made on first use: most resolved options never validate a schema.
  private byObject: WeakMap<JsonObject, ValidateFunction | Error> | undefined;
  private byText: Map<string, Compiled> | undefined;
  private draft07: Ajv | Ajv2020 | undefined;
  private draft2020: Ajv | Ajv2020 | undefined;

  private compile(schema: JsonObject): ValidateFunction | Error {
    this.byObject ??= new WeakMap();
    const cached = this.byObject.get(schema);
    if (cached) return cached;
    this.byText ??= new Map();
    // The text as written, key order kept: Ajv reports errors in the schema's order.
    const text = JSON.stringify(schema);
    let compiled = this.byText.get(text);
    if (compiled === undefined) {
      compiled = this.compileAnew(schema);
      if (this.byText.size >= maxCompiledSchemas) this.forgetOldest(this.byText);
      this.byText.set(text, compiled);
    }
    this.byObject.set(schema, compiled.result);
    return compiled.result;
  }

  private compileAnew(schema: JsonObject): Compiled {
    try {
      const uses2020 = typeof schema.$schema === "string" && schema.$schema.includes("2020-12");
      const ajv = uses2020 ? (this.draft2020 ??= newAjv(true)) : (this.draft07 ??= newAjv(false));
      // Draft-07 Ajv refuses other drafts' $schema ids; the keywords we rely on are shared.
      const rest = { ...schema };
      Reflect.deleteProperty(rest, "$schema");
      const compiled = uses2020 ? schema : rest;
      return { result: ajv.compile(compiled), ajv, compiled };
    } catch (error) {
      return { result: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  /** Lets the first compiled schema go, out of Ajv's own cache too (`byText` is never empty). */
  private forgetOldest(byText: Map<string, Compiled>): void {
    const [[text, { ajv, compiled }]] = byText;
    byText.delete(text);
    if (ajv !== undefined && compiled !== undefined) ajv.removeSchema(compiled);
  }

  /**
   * The violations of `value` against `schema`; empty when it fits. `spellings`: how whole numbers
   * were written in the call's text; one written `3.0` where the schema declares `integer` is a
   * `wrong-type` violation, though its value is 3.
   */
  validate(
    schema: JsonObject,
    value: JsonValue,
    spellings?: NumberSpellings,
    /** How strings compare at a path (the argument rules' string rule), for enum membership. */
    normalizerAt?: (path: readonly (string | number)[]) => ((text: string) => string) | undefined,
  ): SchemaViolation[] {
    const validate = this.compile(schema);
    if (validate instanceof Error) {
      return [
        {
          kind: "invalid-schema",
          path: "$",
          message: `the tool's schema cannot be compiled: ${validate.message}`,
        },
      ];
    }
    const violations: SchemaViolation[] = [];
    if (!validate(value)) {
      for (const error of validate.errors ?? []) {
        if (!enumUnderStringRule(error, value, normalizerAt)) violations.push(toViolation(error));
      }
    }
    const seen = new Set(
      violations.filter((v) => v.kind === "unknown-argument").map((v) => v.path),
    );
    undeclared(schema, value, violations, seen);
    if (spellings !== undefined) floatsForIntegers(schema, value, "$", spellings, violations);
    return violations;
  }
}
