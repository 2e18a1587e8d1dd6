/**
 * One conversation written in every transcript format (src/adapters/fixtures/same-conversation):
 * each parsed transcript, taken as the reference, matches every other one exactly, arguments and
 * outputs alike, in order. Checks that readers agree with each other end to end, through
 * matchToolCalls and scoreToolCalls.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  matchToolCalls,
  parseTrajectory,
  scoreToolCalls,
  trajectoryFormats,
} from "../src/index.js";

const transcripts = trajectoryFormats.map((format) => ({
  format,
  trajectory: parseTrajectory(
    JSON.parse(
      readFileSync(
        new URL(`../src/adapters/fixtures/same-conversation/${format}.json`, import.meta.url),
        "utf8",
      ),
    ) as unknown,
  ),
}));

describe("the same conversation across formats", () => {
  it("matches itself in every pair of formats, outputs included", () => {
    const options = { order: "in-order", output: "exact" } as const;
    for (const run of transcripts) {
      for (const reference of transcripts) {
        const pair = `${run.format} against ${reference.format}`;
        const result = matchToolCalls(run.trajectory, reference.trajectory, options);
        expect(result.exact, `${pair}: ${result.reason}`).toBe(true);
        expect(result.pairs, pair).toHaveLength(5);
        expect(scoreToolCalls(run.trajectory, reference.trajectory, options).score, pair).toBe(1);
      }
    }
  });

  it("notices a changed output in any format", () => {
    for (const { format, trajectory } of transcripts) {
      const changed = {
        calls: trajectory.calls.map((call, index) =>
          index === 2 ? { ...call, output: "another answer" } : call,
        ),
      };
      const result = matchToolCalls(trajectory, changed, { order: "in-order", output: "exact" });
      expect(result.exact, format).toBe(false);
      expect(result.mismatches, format).toContainEqual(
        expect.objectContaining({ expectedIndex: 2 }),
      );
    }
  });
});
