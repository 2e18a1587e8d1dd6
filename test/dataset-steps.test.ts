import { describe, expect, it } from "vitest";
import { readDatasetCase } from "../src/adapters/dataset-case.js";
import { toolCallAccuracy } from "../src/entries/index.js";

/** order "steps" on a dataset case: the steps of both transcripts reach the metric. */

const call = (id: string, name: string) => ({
  id,
  type: "function",
  function: { name, arguments: "{}" },
});
const result = (id: string) => ({ role: "tool", tool_call_id: id, content: "ok" });
const together = [
  { role: "user", content: "go" },
  { role: "assistant", content: null, tool_calls: [call("1", "a"), call("2", "b")] },
  result("1"),
  result("2"),
];
const apart = [
  { role: "user", content: "go" },
  { role: "assistant", content: null, tool_calls: [call("1", "a")] },
  result("1"),
  { role: "assistant", content: null, tool_calls: [call("2", "b")] },
  result("2"),
];

function verdict(trajectory: unknown, expectedTrajectory: unknown): boolean {
  const testCase = readDatasetCase({ id: "x", trajectory, expectedTrajectory }, { index: 0 });
  const scored = toolCallAccuracy({ order: "steps", threshold: 1 }).measureSync(testCase);
  if (scored.status !== "scored") throw new Error(JSON.stringify(scored));
  return scored.success;
}

describe("steps from a dataset's transcripts", () => {
  it("passes the same steps and fails a split or merged step", () => {
    expect(verdict(together, together)).toBe(true);
    expect(verdict(apart, apart)).toBe(true);
    expect(verdict(apart, together)).toBe(false);
    expect(verdict(together, apart)).toBe(false);
  });

  it("keeps each list's steps on the case", () => {
    const testCase = readDatasetCase(
      { id: "x", trajectory: together, expectedTrajectory: apart },
      { index: 0 },
    );
    expect(testCase.calledSteps?.map((step) => step.calls)).toEqual([[0, 1]]);
    expect(testCase.expectedSteps?.map((step) => step.calls)).toEqual([[0], [1]]);
  });
});
