import { InvalidInputError, LimitExceededError } from "./errors.js";

export type JsonPrimitive = string | number | boolean | null;
export type JsonArray = JsonValue[];
export interface JsonObject {
  [key: string]: JsonValue;
}
export type JsonValue = JsonPrimitive | JsonArray | JsonObject;
export type JsonType = "null" | "boolean" | "number" | "string" | "array" | "object";

/**
 * How deep a value may nest before toolscore refuses it. Every recursive algorithm in the library
 * relies on this bound to stay far from the engine's stack limit.
 */
export const DEFAULT_MAX_DEPTH = 1000;

/** The JSON type of a value: arrays and `null` get their own names. */
export function jsonTypeOf(value: JsonValue): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as "boolean" | "number" | "string" | "object";
}

/** True for a JSON object (a non-null, non-array object). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * JSON deep equality, the one implementation toolscore uses everywhere: objects compare by key
 * set and values whatever the key order, arrays element by element, `1` equals `1.0`, `true` is
 * not `1`, and `null` equals only `null`. Iterative, so nesting depth never overflows the stack.
 */
export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  const stack: JsonValue[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop() as JsonValue;
    const x = stack.pop() as JsonValue;
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    const xIsArray = Array.isArray(x);
    if (xIsArray !== Array.isArray(y)) return false;
    if (xIsArray) {
      const ya = y as JsonArray;
      if (x.length !== ya.length) return false;
      for (let i = 0; i < x.length; i++) stack.push(x[i], ya[i]);
      continue;
    }
    const xo = x;
    const yo = y as JsonObject;
    const keys = Object.keys(xo);
    if (keys.length !== Object.keys(yo).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(yo, key)) return false;
      stack.push(xo[key], yo[key]);
    }
  }
  return true;
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Extends a field or JSON path by one key: `a.b`, `a["odd key"]`, `a[3]`. Used both for field
 * names in errors (`toolsCalled[0].inputParameters`) and JSON paths in mismatches (`$.query`).
 */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return identifier.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

export interface ToJsonValueOptions {
  /** Where the value sits in the caller's input; errors name it. */
  field: string;
  /** Deepest nesting accepted. Default {@link DEFAULT_MAX_DEPTH}. */
  maxDepth?: number;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") {
    // Objects made by Object.create(null) have no constructor at all.
    const name = (value as { constructor?: { name?: string } }).constructor?.name;
    return name && name !== "Object" ? `a ${name}` : "an object";
  }
  if (typeof value === "number") return `the number ${String(value)}`;
  return `a ${typeof value}`;
}

/**
 * Validates that a value is JSON and returns a clean copy of it. The rules are those of
 * `JSON.stringify` where it is lossless (`toJSON` is honoured, object keys whose value is
 * `undefined` are dropped, `undefined` in an array becomes `null`); where `JSON.stringify` would
 * silently lose data (functions, symbols, `NaN`, `Infinity`, `BigInt`, `Map`, `Set`, binary
 * buffers) or cannot work (cycles), an `InvalidInputError` names the field instead. Nesting beyond
 * `maxDepth` is a `LimitExceededError`. A top-level `undefined` is returned as `undefined`.
 */
export function toJsonValue(value: unknown, options: ToJsonValueOptions): JsonValue | undefined {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const keys: (string | number)[] = [];
  const ancestors = new Set<object>();

  const where = (): string =>
    keys.reduce<string>((path, key) => childPath(path, key), options.field);
  const fail = (problem: string): never => {
    throw new InvalidInputError({ field: where(), message: `${where()} ${problem}` });
  };

  const visit = (input: unknown, key: string, depth: number): JsonValue | undefined => {
    let v = input;
    if (
      typeof v === "object" &&
      v !== null &&
      typeof (v as { toJSON?: unknown }).toJSON === "function"
    ) {
      v = (v as { toJSON: (key: string) => unknown }).toJSON(key);
    }
    switch (typeof v) {
      case "string":
      case "boolean":
        return v;
      case "number":
        if (!Number.isFinite(v)) fail(`is ${describe(v)}, which JSON cannot represent`);
        return v;
      case "undefined":
        return undefined;
      case "bigint":
      case "symbol":
      case "function":
        return fail(`is ${describe(v)}, not a JSON value`);
    }
    if (v === null) return null;
    const object = v as object;
    if (object instanceof Number || object instanceof String || object instanceof Boolean) {
      return visit(object.valueOf(), key, depth);
    }
    if (
      object instanceof Map ||
      object instanceof Set ||
      ArrayBuffer.isView(object) ||
      object instanceof ArrayBuffer
    ) {
      return fail(`is ${describe(object)}; convert it to a plain object or array first`);
    }
    if (ancestors.has(object)) fail("contains a circular reference");
    if (depth >= maxDepth) {
      throw new LimitExceededError({
        limit: "maxDepth",
        maximum: maxDepth,
        field: options.field,
        message: `${options.field} is nested more than ${maxDepth} levels deep; flatten it or raise maxDepth`,
      });
    }
    ancestors.add(object);
    let copy: JsonValue;
    if (Array.isArray(object)) {
      const array: JsonValue[] = new Array<JsonValue>(object.length);
      for (let i = 0; i < object.length; i++) {
        keys.push(i);
        array[i] = visit(object[i], String(i), depth + 1) ?? null;
        keys.pop();
      }
      copy = array;
    } else {
      const record: JsonObject = {};
      for (const k of Object.keys(object)) {
        keys.push(k);
        const item = visit((object as Record<string, unknown>)[k], k, depth + 1);
        keys.pop();
        if (item === undefined) continue;
        if (k === "__proto__") {
          // A plain assignment would replace the prototype instead of adding the key.
          Object.defineProperty(record, k, {
            value: item,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else {
          record[k] = item;
        }
      }
      copy = record;
    }
    ancestors.delete(object);
    return copy;
  };

  return visit(value, "", 0);
}
