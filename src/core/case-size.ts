/**
 * How large one case may be: a dataset line may hold millions of calls or turns, and scoring
 * holds every pair and every turn's result, so a case past these is refused on its own.
 */
import { LimitExceededError } from "./errors.js";

/** User turns a conversation may have at most. */
export const maxCaseTurns = 10_000;

/** Calls a case may hold at most on each side: made, and expected. */
export const maxCaseCalls = 100_000;

/** How many calls a list holds: calls, groups of calls, or a transcript's `{ calls }`. */
function callCount(value: unknown): number {
  if (Array.isArray(value)) {
    let count = 0;
    for (const item of value) count += Array.isArray(item) ? item.length : 1;
    return count;
  }
  const calls = (value as { calls?: unknown } | null | undefined)?.calls;
  return Array.isArray(calls) ? calls.length : 0;
}

/**
 * The `LimitExceededError` of a case past `maxCaseTurns` turns or `maxCaseCalls` calls on a
 * side, naming the field; undefined for a case within them.
 */
export function caseSizeError(testCase: object): LimitExceededError | undefined {
  const { turns, toolsCalled, expectedTools } = testCase as {
    turns?: unknown;
    toolsCalled?: unknown;
    expectedTools?: unknown;
  };
  if (Array.isArray(turns) && turns.length > maxCaseTurns) {
    return new LimitExceededError({
      limit: "maxCaseTurns",
      maximum: maxCaseTurns,
      field: "turns",
      message: `the conversation has ${turns.length} turns, over the ${maxCaseTurns} a case may have (see docs/reference/limits.md): split it into cases`,
    });
  }
  return callsError("toolsCalled", toolsCalled) ?? callsError("expectedTools", expectedTools);
}

function callsError(field: string, value: unknown): LimitExceededError | undefined {
  const count = callCount(value);
  if (count <= maxCaseCalls) return undefined;
  return new LimitExceededError({
    limit: "maxCaseCalls",
    maximum: maxCaseCalls,
    field,
    message: `${field} holds ${count} calls, over the ${maxCaseCalls} a case may hold on each side (see docs/reference/limits.md): split it into cases`,
  });
}
