import { jsonEquals } from "../core/json.js";
import { globMatches } from "../matchers/glob.js";
import type { ToolCall } from "../core/tool-call.js";
import type { MatchConstraints } from "./match-options.js";
import type { Violation } from "./match-result.js";

/** Whether any constraint is set (redundant calls allowed is no constraint). */
export function hasConstraints(constraints: MatchConstraints): boolean {
  return (
    constraints.forbiddenTools !== undefined ||
    constraints.minCalls !== undefined ||
    constraints.maxCalls !== undefined ||
    constraints.maxTotalCalls !== undefined ||
    constraints.redundantCalls === "forbid"
  );
}

/** Appends every constraint the calls break to `violations`, by call index. */
export function checkConstraints(
  calls: readonly ToolCall[],
  nameOf: (call: { name: string }) => string,
  constraints: MatchConstraints,
  violations: Violation[],
): void {
  if (!hasConstraints(constraints)) return;
  const { forbiddenTools, minCalls, maxCalls, maxTotalCalls, redundantCalls } = constraints;
  const forbidden = new Set((forbiddenTools ?? []).map((name) => nameOf({ name })));
  const most = countedTools(maxCalls, nameOf);
  const least = countedTools(minCalls, nameOf);
  const tooMany: number[] = [];
  calls.forEach((call, index) => {
    const name = nameOf(call);
    if (forbidden.has(name)) violations.push({ kind: "forbidden-tool", calledIndex: index, name });
    for (const counted of least) if (counted.matches(name)) counted.count++;
    for (const counted of most) {
      if (!counted.matches(name)) continue;
      counted.count++;
      if (counted.count === counted.limit + 1) {
        tooMany.push(violations.length);
        violations.push({
          kind: "too-many-calls",
          calledIndex: index,
          name: counted.name,
          count: counted.count,
          max: counted.limit,
        });
      }
    }
    if (maxTotalCalls !== undefined && index === maxTotalCalls) {
      violations.push({
        kind: "too-many-total-calls",
        calledIndex: index,
        count: calls.length,
        max: maxTotalCalls,
      });
    }
    if (redundantCalls === "forbid" && index > 0) {
      const previous = calls[index - 1];
      if (nameOf(previous) === name && jsonEquals(previous.inputParameters, call.inputParameters)) {
        violations.push({
          kind: "redundant-call",
          calledIndex: index,
          previousIndex: index - 1,
          name,
        });
      }
    }
  });
  // A too-many-calls violation sits at the first call over the maximum and reports the final count.
  for (const at of tooMany) {
    const violation = violations[at];
    if (violation.kind === "too-many-calls") {
      const counted = most.find((entry) => entry.name === violation.name);
      violations[at] = { ...violation, count: counted?.count ?? violation.count };
    }
  }
  for (const { name, limit, count } of least) {
    if (count < limit) violations.push({ kind: "too-few-calls", name, count, min: limit });
  }
}

/**
 * The tools a count constraint names, each with its limit and a count: a name (normalized as the
 * calls' names are) or a glob as `onlyTools` takes (`"*"`: any tool, `"search_*"`), whose calls
 * count together.
 */
function countedTools(
  record: Readonly<Record<string, number>> | undefined,
  nameOf: (call: { name: string }) => string,
): { name: string; limit: number; count: number; matches: (name: string) => boolean }[] {
  return Object.entries(record ?? {}).map(([key, limit]) => {
    if (/[*?]/.test(key)) {
      return { name: key, limit, count: 0, matches: (name: string) => globMatches(key, name) };
    }
    const name = nameOf({ name: key });
    return { name, limit, count: 0, matches: (called: string) => called === name };
  });
}

/**
 * Failed calls that the agent retried (the same tool called again later): attempts, left out of
 * the scoring. A failed call never retried is an `unretried-error` violation.
 */
export function retriedCalls(
  calls: readonly ToolCall[],
  nameOf: (call: ToolCall) => string,
  violations: Violation[],
): ReadonlySet<number> {
  const retried = new Set<number>();
  const seenLater = new Set<string>();
  const unretried: Violation[] = [];
  for (let index = calls.length - 1; index >= 0; index--) {
    const call = calls[index];
    const name = nameOf(call);
    if (call.isError === true) {
      if (seenLater.has(name)) retried.add(index);
      else unretried.push({ kind: "unretried-error", calledIndex: index, name });
    }
    seenLater.add(name);
  }
  violations.push(...unretried.reverse());
  return retried;
}
