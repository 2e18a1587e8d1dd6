import { describe, expect, it } from "vitest";
import { parseTrajectory } from "../adapters/parse-trajectory.js";
import { matchToolCalls } from "./match-tool-calls.js";

/** Issue 21, item 7: order "steps", agentevals' strict trajectory match. */

const call = (name: string) => ({ name, inputParameters: {} });
/** A transcript's calls with its steps, as parseTrajectory gives them. */
const stepped = (...steps: string[][]) => {
  const calls = steps.flat().map(call);
  let at = 0;
  return {
    calls,
    steps: steps.map((step, index) => ({ index, calls: step.map(() => at++) })),
  };
};
const expected = [[call("a"), call("b")], [call("c")]];

describe('order: "steps"', () => {
  it("passes the same steps in the same order, each step's calls in any order", () => {
    const result = matchToolCalls(stepped(["b", "a"], ["c"]), expected, { order: "steps" });
    expect(result).toMatchObject({ score: 1, exact: true, outOfOrder: [] });
  });

  it("names a split step and a merged step as out of order", () => {
    const split = matchToolCalls(stepped(["a"], ["b"], ["c"]), expected, { order: "steps" });
    expect(split.exact).toBe(false);
    expect(split.outOfOrder.map((item) => item.name)).toContain("b");
    const merged = matchToolCalls(stepped(["a", "b", "c"]), expected, { order: "steps" });
    expect(merged.exact).toBe(false);
    expect(merged.outOfOrder.map((item) => item.name)).toEqual(["c"]);
    expect(merged.reason).toContain(
      "expected[2] c made out of order (called[2], belongs to step 2)",
    );
  });

  it("reads steps from a reference transcript, and a plain list is one call a step", () => {
    const reference = parseTrajectory([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "1", type: "function", function: { name: "a", arguments: "{}" } },
          { id: "2", type: "function", function: { name: "b", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "1", content: "x" },
      { role: "tool", tool_call_id: "2", content: "y" },
    ]);
    expect(matchToolCalls(stepped(["b", "a"]), reference, { order: "steps" }).exact).toBe(true);
    expect(matchToolCalls([call("a"), call("b")], reference, { order: "steps" }).exact).toBe(false);
    expect(
      matchToolCalls([call("a"), call("b")], [call("a"), call("b")], { order: "steps" }).exact,
    ).toBe(true);
  });
});
