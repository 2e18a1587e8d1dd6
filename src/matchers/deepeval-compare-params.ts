import { isJsonObject, jsonEquals } from "../core/json.js";
import type { JsonObject } from "../core/json.js";

/**
 * deepeval's partial credit for input parameters: 1 when the two objects are equal; otherwise
 * each key present on both sides earns 1/|all keys| if the values are equal, or that share of
 * this function applied to them if both are objects. Keys on one side only earn nothing. Arrays,
 * strings and numbers get no partial credit. Keys are summed in the expected object's order, as
 * deepeval does, so the floats agree.
 */
export function deepevalCompareParams(expected: JsonObject, called: JsonObject): number {
  if (jsonEquals(expected, called)) return 1;
  const expectedKeys = Object.keys(expected);
  let union = expectedKeys.length;
  // `for...in` rather than `Object.keys`: no array; the second check drops inherited keys.
  for (const key in called)
    if (!Object.hasOwn(expected, key) && Object.hasOwn(called, key)) union++;
  let score = 0;
  for (const key of expectedKeys) {
    if (!Object.hasOwn(called, key)) continue;
    const expectedValue = expected[key];
    const calledValue = called[key];
    if (jsonEquals(expectedValue, calledValue)) {
      score += 1 / union;
    } else if (isJsonObject(expectedValue) && isJsonObject(calledValue)) {
      score += deepevalCompareParams(expectedValue, calledValue) / union;
    }
  }
  return score;
}
