import { jsonEquals } from "../core/json.js";
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
  // Constraint names go through the same normalization as the calls' names.
  const byName = (record: Readonly<Record<string, number>> | undefined) =>
    new Map(Object.entries(record ?? {}).map(([name, n]) => [nameOf({ name }), n]));
  const forbidden = new Set((forbiddenTools ?? []).map((name) => nameOf({ name })));
  const most = byName(maxCalls);
  const counts = new Map<string, number>();
  const tooMany: number[] = [];
  calls.forEach((call, index) => {
    const name = nameOf(call);
    if (forbidden.has(name)) violations.push({ kind: "forbidden-tool", calledIndex: index, name });
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    const max = most.get(name);
    if (max !== undefined && count === max + 1) {
      tooMany.push(violations.length);
      violations.push({ kind: "too-many-calls", calledIndex: index, name, count, max });
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
      violations[at] = { ...violation, count: counts.get(violation.name) ?? violation.count };
    }
  }
  for (const [name, min] of byName(minCalls)) {
    const count = counts.get(name) ?? 0;
    if (count < min) violations.push({ kind: "too-few-calls", name, count, min });
  }
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
