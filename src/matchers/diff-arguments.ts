import type { ArgumentVerdict } from "../core/explanation.js";
import { childPath, isJsonObject, jsonEquals } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";

export interface DiffArgumentsOptions {
  /** Report keys passed but not expected as `unexpected` (default), or leave them out. */
  extras?: "unexpected" | "ignore";
  /** A similarity to attach to each differing top-level key, when the rule computes one. */
  similarity?: (expected: JsonValue, actual: JsonValue) => number;
}

/**
 * Explains how called arguments differ from expected ones, key by key, with JSON paths: nested
 * objects are descended into, so a wrong date filter is `$.filters.date`, not all of `$.filters`.
 * Arrays and other values are compared whole.
 */
export function diffArguments(
  expected: JsonObject,
  actual: JsonObject,
  options: DiffArgumentsOptions = {},
): ArgumentVerdict[] {
  const verdicts: ArgumentVerdict[] = [];
  const visit = (e: JsonObject, a: JsonObject, path: string, top: boolean): void => {
    for (const key of Object.keys(e)) {
      const keyPath = childPath(path, key);
      const expectedValue = e[key];
      if (!Object.hasOwn(a, key)) {
        verdicts.push({ path: keyPath, verdict: "missing", expected: expectedValue });
        continue;
      }
      const actualValue = a[key];
      if (jsonEquals(expectedValue, actualValue)) {
        verdicts.push({
          path: keyPath,
          verdict: "match",
          expected: expectedValue,
          actual: actualValue,
        });
      } else if (
        isJsonObject(expectedValue) &&
        isJsonObject(actualValue) &&
        !(top && options.similarity)
      ) {
        visit(expectedValue, actualValue, keyPath, false);
      } else {
        verdicts.push({
          path: keyPath,
          verdict: "mismatch",
          expected: expectedValue,
          actual: actualValue,
          ...(top && options.similarity
            ? { similarity: options.similarity(expectedValue, actualValue) }
            : {}),
        });
      }
    }
    if (options.extras === "ignore") return;
    for (const key of Object.keys(a)) {
      if (!Object.hasOwn(e, key)) {
        verdicts.push({
          path: childPath(path, key),
          verdict: "unexpected",
          actual: a[key],
        });
      }
    }
  };
  visit(expected, actual, "$", true);
  return verdicts;
}
