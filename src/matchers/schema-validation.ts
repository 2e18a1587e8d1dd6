import { Ajv } from "ajv";
import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import type { FormatsPlugin } from "ajv-formats";
import { childPath, isJsonObject } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";

// ajv-formats is CommonJS with a default export; depending on the loader it arrives wrapped.
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as FormatsPlugin;

// Lenient about unknown keywords (tool schemas carry many); every error, not the first; and a
// schema's $id is not registered, so two tools (or two copies of one) may share an $id.
const ajvOptions = { strict: false, allErrors: true, addUsedSchema: false } as const;

/** Why called arguments do not fit the tool's own JSON Schema. */
export interface SchemaViolation {
  readonly kind:
    "unknown-argument" | "wrong-type" | "missing-required" | "invalid-value" | "invalid-schema";
  /** JSON path into the arguments (`$.filters.date`). */
  readonly path: string;
  readonly message: string;
}

function pointerToPath(pointer: string): string {
  let path = "$";
  for (const part of pointer.split("/").slice(1)) {
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    path = childPath(path, /^\d+$/.test(key) ? Number(key) : key);
  }
  return path;
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

/** Arguments the schema declares no property for, at any depth of declared objects. */
function undeclared(
  schema: JsonObject,
  value: JsonValue,
  path: string,
  out: SchemaViolation[],
  seen: Set<string>,
): void {
  if (!isJsonObject(value)) return;
  const properties = schema.properties;
  if (!isJsonObject(properties)) return;
  const additional = schema.additionalProperties as JsonValue | undefined;
  for (const key of Object.keys(value)) {
    const keyPath = childPath(path, key);
    if (Object.hasOwn(properties, key)) {
      const child = properties[key];
      if (isJsonObject(child)) undeclared(child, value[key], keyPath, out, seen);
    } else if (additional === undefined && !seen.has(keyPath)) {
      // Undeclared, and additional properties not explicitly allowed: most likely made up.
      out.push({
        kind: "unknown-argument",
        path: keyPath,
        message: `${key} is not a parameter of this tool`,
      });
    }
  }
}

/**
 * Validates tool arguments against the tool's JSON Schema with Ajv (draft-07, or 2020-12 when the
 * schema says so; formats checked), turning its errors into violations, and flags arguments the
 * schema does not declare. Compiled validators are kept per schema object.
 */
export class SchemaValidator {
  private readonly compiled = new WeakMap<JsonObject, ValidateFunction | Error>();
  private draft07: Ajv | undefined;
  private draft2020: Ajv2020 | undefined;

  private compile(schema: JsonObject): ValidateFunction | Error {
    const cached = this.compiled.get(schema);
    if (cached) return cached;
    let result: ValidateFunction | Error;
    try {
      const uses2020 = typeof schema.$schema === "string" && schema.$schema.includes("2020-12");
      let ajv: Ajv | Ajv2020;
      if (uses2020) {
        if (!this.draft2020) {
          this.draft2020 = new Ajv2020(ajvOptions);
          addFormats(this.draft2020);
        }
        ajv = this.draft2020;
      } else {
        if (!this.draft07) {
          this.draft07 = new Ajv(ajvOptions);
          addFormats(this.draft07);
        }
        ajv = this.draft07;
      }
      // Draft-07 Ajv refuses other drafts' $schema ids; the keywords we rely on are shared.
      const rest = { ...schema };
      Reflect.deleteProperty(rest, "$schema");
      result = ajv.compile(uses2020 ? schema : rest);
    } catch (error) {
      result = error instanceof Error ? error : new Error(String(error));
    }
    this.compiled.set(schema, result);
    return result;
  }

  /** The violations of `value` against `schema`; empty when it fits. */
  validate(schema: JsonObject, value: JsonValue): SchemaViolation[] {
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
    if (!validate(value))
      for (const error of validate.errors ?? []) violations.push(toViolation(error));
    const seen = new Set(
      violations.filter((v) => v.kind === "unknown-argument").map((v) => v.path),
    );
    undeclared(schema, value, "$", violations, seen);
    return violations;
  }
}
