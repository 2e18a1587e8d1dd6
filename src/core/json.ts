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

/**
 * Whether `value` nests objects or arrays more than `maxDepth` levels deep (a scalar is 0 deep,
 * `{}` 1). Walks at most `maxDepth` levels, so it never exceeds the stack itself; for data read
 * from outside (a dataset's metadata, a results line) before anything recursive touches it.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number = DEFAULT_MAX_DEPTH): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (maxDepth <= 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestsDeeperThan(item, maxDepth - 1)) return true;
    return false;
  }
  for (const key in value) {
    if (nestsDeeperThan((value as Record<string, unknown>)[key], maxDepth - 1)) return true;
  }
  return false;
}

/** The JSON type of a value: arrays and `null` get their own names. */
export function jsonTypeOf(value: JsonValue): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as "boolean" | "number" | "string" | "object";
}

/**
 * Whether Object.prototype has enumerable keys (someone added one), which `for...in` would list
 * for every plain object: loops over a plain object's keys with `for...in` (which allocates
 * nothing, unlike `Object.keys`) then skip keys that are not its own. Allocates nothing.
 */
export function objectPrototypeHasKeys(): boolean {
  for (const key in Object.prototype) if (typeof key === "string") return true;
  return false;
}

/**
 * Sets `record[key]` as an own key, `__proto__` included (a plain assignment of that key would
 * replace the prototype instead of adding the key).
 */
export function setKey<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") {
    Object.defineProperty(record, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    record[key] = value;
  }
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
  // Two different values of which one is not a container: no need for the walk below.
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  // Two objects (most arguments): compared one level here, without the walk's stack, unless
  // Object.prototype has enumerable keys, which `for...in` would list as well.
  if (!Array.isArray(a) && !Array.isArray(b) && !objectPrototypeHasKeys()) {
    return objectEquals(a, b);
  }
  return walkEquals(a, b);
}

/** Two plain objects: the same keys, and values equal by {@link jsonEquals}. */
function objectEquals(a: JsonObject, b: JsonObject): boolean {
  let keys = 0;
  for (const key in a) {
    if (!Object.hasOwn(b, key)) return false;
    const x = a[key];
    const y = b[key];
    if (x !== y) {
      if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
      if (!walkEquals(x, y)) return false;
    }
    keys++;
  }
  // As many keys in b means no others: every key of a is one of b's.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- only counted
  for (const _ in b) keys--;
  return keys === 0;
}

/** The general case, iterative so that nesting depth never overflows the stack. */
function walkEquals(a: JsonValue, b: JsonValue): boolean {
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

/** Whether a key can follow a dot in a path: `[A-Za-z_$][A-Za-z0-9_$]*` (a loop beats a regex here). */
function isIdentifier(key: string): boolean {
  if (key.length === 0) return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
    if (!letter && !(i > 0 && c >= 48 && c <= 57)) return false;
  }
  return true;
}

/**
 * Extends a field or JSON path by one key: `a.b`, `a["odd key"]`, `a[3]`. Used both for field
 * names in errors (`toolsCalled[0].inputParameters`) and JSON paths in mismatches (`$.query`).
 */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return isIdentifier(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
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
  const walk: Walk = {
    field: options.field,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    keys: [],
    ancestors: [],
  };
  return copyJson(walk, value, "", 0);
}

/** The state of one `toJsonValue` walk: where we are (for errors) and which objects enclose us. */
interface Walk {
  readonly field: string;
  readonly maxDepth: number;
  readonly keys: (string | number)[];
  // An array, not a Set: nesting is shallow in practice, and a Set costs more to build.
  readonly ancestors: object[];
}

function invalid(walk: Walk, problem: string): never {
  const where = walk.keys.reduce<string>((path, key) => childPath(path, key), walk.field);
  throw new InvalidInputError({ field: where, message: `${where} ${problem}` });
}

function copyJson(walk: Walk, input: unknown, key: string, depth: number): JsonValue | undefined {
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
      if (!Number.isFinite(v)) invalid(walk, `is ${describe(v)}, which JSON cannot represent`);
      return v;
    case "undefined":
      return undefined;
    case "bigint":
    case "symbol":
    case "function":
      return invalid(walk, `is ${describe(v)}, not a JSON value`);
  }
  if (v === null) return null;
  const object = v as object;
  if (object instanceof Number || object instanceof String || object instanceof Boolean) {
    return copyJson(walk, object.valueOf(), key, depth);
  }
  if (
    object instanceof Map ||
    object instanceof Set ||
    ArrayBuffer.isView(object) ||
    object instanceof ArrayBuffer
  ) {
    return invalid(walk, `is ${describe(object)}; convert it to a plain object or array first`);
  }
  if (walk.ancestors.includes(object)) invalid(walk, "contains a circular reference");
  if (depth >= walk.maxDepth) {
    throw new LimitExceededError({
      limit: "maxDepth",
      maximum: walk.maxDepth,
      field: walk.field,
      message: `${walk.field} is nested more than ${walk.maxDepth} levels deep; flatten it or raise maxDepth`,
    });
  }
  walk.ancestors.push(object);
  let copy: JsonValue;
  if (Array.isArray(object)) {
    const array = new Array<JsonValue>(object.length);
    for (let i = 0; i < object.length; i++) {
      walk.keys.push(i);
      array[i] = copyJson(walk, object[i], String(i), depth + 1) ?? null;
      walk.keys.pop();
    }
    copy = array;
  } else {
    const record: JsonObject = {};
    for (const k of Object.keys(object)) {
      walk.keys.push(k);
      const item = copyJson(walk, (object as Record<string, unknown>)[k], k, depth + 1);
      walk.keys.pop();
      if (item === undefined) continue;
      setKey(record, k, item);
    }
    copy = record;
  }
  walk.ancestors.pop();
  return copy;
}

/**
 * Whether `value` already is clean JSON, the way {@link toJsonValue} would return it: plain
 * objects and arrays only (no `toJSON`, no `undefined` inside, finite numbers), nested at most
 * `maxDepth` deep, and without an object that `reject` refuses. A cycle is reported as unclean
 * (it exceeds any depth). Allocates nothing.
 */
export function isCleanJson(
  value: unknown,
  maxDepth: number = DEFAULT_MAX_DEPTH,
  reject?: (record: object) => boolean,
): boolean {
  // Scalars first: most values are, and they need no look at Object.prototype.
  if (typeof value !== "object" || value === null) return isCleanScalar(value);
  // `for...in` also lists inherited enumerable keys, which a copy would drop. A plain object can
  // inherit them only from Object.prototype, so each key needs checking only when that has any:
  // looked at once per value, not once per object in it.
  return isCleanTree(value, maxDepth, reject, objectPrototypeHasKeys());
}

function isCleanScalar(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object":
      return value === null;
    default:
      return false;
  }
}

function isCleanTree(
  value: unknown,
  maxDepth: number,
  reject: ((record: object) => boolean) | undefined,
  inherited: boolean,
): boolean {
  if (typeof value !== "object" || value === null) return isCleanScalar(value);
  if (maxDepth <= 0) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      // Holes and undefined become null in a copy: not clean as given.
      if (!(i in value) || !isCleanTree(value[i], maxDepth - 1, reject, inherited)) return false;
    }
    return true;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  if (typeof record.toJSON === "function" || (reject !== undefined && reject(record))) return false;
  const checkOwn = prototype !== null && inherited;
  for (const key in record) {
    if (checkOwn && !Object.hasOwn(record, key)) return false;
    if (!isCleanTree(record[key], maxDepth - 1, reject, inherited)) return false;
  }
  return true;
}

/** JSON with object keys sorted, so that equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Line and column (from 1) of an offset in a text. */
export function textPosition(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split("\n").length;
  return { line, column: before.length - before.lastIndexOf("\n") };
}

/**
 * Where in `text` a `JSON.parse` error is, read from V8's words: a line and column, a position,
 * or (for the errors that give neither) the quoted text around the bad token, ten characters
 * either side, "..." where cut. Undefined when the message says none of these.
 */
export function jsonErrorPosition(
  text: string,
  error: unknown,
): { line: number; column: number } | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn !== null) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  if (position !== null) return textPosition(text, Number(position[1]));
  // V8 writes the snippet as ..."text"... with the dots outside the quotes where it was cut.
  const quoted = /(\.\.\.)?"([\s\S]*?)"(\.\.\.)? is not valid JSON$/.exec(message);
  const token = /^Unexpected token '(.)'/.exec(message)?.[1];
  if (quoted !== null) {
    const at = text.indexOf(quoted[2]);
    const within =
      (quoted[1] as string | undefined) === undefined ? quoted[2].indexOf(token ?? "") : 10;
    return at === -1 || within === -1 ? undefined : textPosition(text, at + within);
  }
  if (token === undefined) return undefined;
  const at = text.indexOf(token);
  return at === -1 ? undefined : textPosition(text, at);
}
