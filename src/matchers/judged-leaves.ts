import { childPath, isJsonObject } from "../core/json.js";
import type { JsonValue } from "../core/json.js";
import { isValueMatcher } from "./value-matchers.js";
import type { ExpectedValue } from "./value-matchers.js";

/** A value a judge decides: its criterion, and where it sits (`$.body`, `$.items[0]`). */
export interface JudgedLeaf {
  readonly criterion: string;
  readonly path: string;
  /** The keys and indexes from the arguments' root to the value. */
  readonly at: readonly (string | number)[];
}

/**
 * An expected value with each judged matcher (`match.judged(...)`, or `{ "$match": "judged" }` in
 * JSON) replaced by what `bind` gives for it; through objects, arrays and the matchers that hold
 * values (`oneOf`, `optional`: their alternatives stand at the same place). The value is not
 * changed where it holds none.
 */
export function mapJudgedLeaves(
  value: unknown,
  bind: (leaf: JudgedLeaf) => unknown,
  path = "$",
  at: readonly (string | number)[] = [],
): unknown {
  const here = (inner: unknown) => mapJudgedLeaves(inner, bind, path, at);
  if (isValueMatcher(value)) {
    if (value.criterion !== undefined) return bind({ criterion: value.criterion, path, at });
    if (value.children === undefined || value.rebuild === undefined) return value;
    return value.rebuild(value.children.map((child) => here(child) as ExpectedValue));
  }
  if (Array.isArray(value)) {
    return value.map((item, index) =>
      mapJudgedLeaves(item, bind, childPath(path, index), [...at, index]),
    );
  }
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, "$literal")) return value;
  if (record.$match === "judged" && typeof record.criterion === "string") {
    return bind({ criterion: record.criterion, path, at });
  }
  if (record.$match === "oneOf" && Array.isArray(record.values)) {
    return { ...record, values: record.values.map(here) };
  }
  if (record.$match === "optional" && Object.hasOwn(record, "value")) {
    return { ...record, value: here(record.value) };
  }
  if (typeof record.$match === "string") return value;
  const mapped: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) {
    mapped[key] = mapJudgedLeaves(item, bind, childPath(path, key), [...at, key]);
  }
  return mapped;
}

/** Every judged leaf of an expected value, in order; paths start at `root` (default `$`). */
export function judgedLeavesOf(value: unknown, root = "$"): JudgedLeaf[] {
  const leaves: JudgedLeaf[] = [];
  mapJudgedLeaves(
    value,
    (leaf) => {
      leaves.push(leaf);
      return null;
    },
    root,
  );
  return leaves;
}

/** The value at `at` in a call's arguments; undefined where there is none. */
export function valueAt(
  root: JsonValue | undefined,
  at: readonly (string | number)[],
): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const key of at) {
    if (typeof key === "number") node = Array.isArray(node) ? node[key] : undefined;
    else node = isJsonObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}
