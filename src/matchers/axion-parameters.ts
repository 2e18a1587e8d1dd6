import { isJsonObject, jsonEquals, jsonTypeOf } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import { sequenceMatcherRatio } from "./sequence-matcher.js";

/**
 * axion's subset rule: every expected key is present in the called arguments, object values
 * recursively, other values equal. Extra called keys are fine; `{}` expected always matches.
 */
export function axionSubsetMatch(expected: JsonObject, called: JsonObject): boolean {
  for (const key of Object.keys(expected)) {
    if (!Object.hasOwn(called, key)) return false;
    const expectedValue = expected[key];
    const calledValue = called[key];
    if (isJsonObject(expectedValue) && isJsonObject(calledValue)) {
      if (!axionSubsetMatch(expectedValue, calledValue)) return false;
    } else if (!jsonEquals(expectedValue, calledValue)) {
      return false;
    }
  }
  return true;
}

/**
 * axion's similarity of a called value to an expected one, in [0, 1]: equal values 1; different
 * JSON types 0; strings by `difflib`'s ratio; numbers by relative difference (floored at 0);
 * objects by half key overlap, half mean similarity of the shared keys; anything else 0.
 */
export function axionValueSimilarity(called: JsonValue, expected: JsonValue): number {
  if (jsonEquals(called, expected)) return 1;
  const type = jsonTypeOf(called);
  if (type !== jsonTypeOf(expected)) return 0;
  if (type === "string") return sequenceMatcherRatio(called as string, expected as string);
  if (type === "number") {
    const a = called as number;
    const b = expected as number;
    if (a === 0 || b === 0) return 0; // both 0 were equal above
    const similarity = 1 - Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
    return similarity > 0 ? similarity : 0;
  }
  if (type === "object") {
    const calledObject = called as JsonObject;
    const expectedObject = expected as JsonObject;
    const expectedKeys = Object.keys(expectedObject);
    let union = expectedKeys.length;
    for (const key of Object.keys(calledObject)) if (!Object.hasOwn(expectedObject, key)) union++;
    let shared = 0;
    let sum = 0;
    for (const key of expectedKeys) {
      if (!Object.hasOwn(calledObject, key)) continue;
      shared++;
      sum += axionValueSimilarity(calledObject[key], expectedObject[key]);
    }
    return (shared / union + (shared > 0 ? sum / shared : 0)) / 2;
  }
  // Booleans, arrays (and null, which is always equal to null) that differ.
  return 0;
}

/**
 * axion's fuzzy score of a whole argument object: the mean, over the expected keys, of the
 * similarity of the called value (0 when the key is missing). `{}` expected scores 1.
 */
export function axionFuzzyScore(expected: JsonObject, called: JsonObject): number {
  const keys = Object.keys(expected);
  if (keys.length === 0) return 1;
  let sum = 0;
  for (const key of keys) {
    if (Object.hasOwn(called, key)) {
      sum += axionValueSimilarity(called[key], expected[key]);
    }
  }
  return sum / keys.length;
}
