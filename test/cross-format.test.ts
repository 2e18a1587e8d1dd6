/**
 * One conversation written in every transcript format (src/adapters/fixtures/same-conversation):
 * each parsed transcript, taken as the reference, matches every other one exactly, arguments and
 * outputs alike, in order. Checks that readers agree with each other end to end, through
 * matchToolCalls and scoreToolCalls. Also: a parsed transcript as the expected calls.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  matchToolCalls,
  parseTrajectory,
  scoreToolCalls,
  trajectoryFormats,
} from "../src/entries/index.js";

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

describe("a transcript as the expected calls", () => {
  it("is matched even when the provider reused a call id (parseTrajectory warns, keeps both)", () => {
    const turn = (name: string, output: string) => [
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_0", type: "function", function: { name, arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_0", content: output },
    ];
    const reference = parseTrajectory([
      { role: "user", content: "go" },
      ...turn("search", "a"),
      ...turn("book", "b"),
    ]);
    expect(reference.warnings.map((warning) => warning.code)).toEqual(["duplicate-call-id"]);
    const result = matchToolCalls(reference, reference.calls, { order: "in-order" });
    expect(result.score).toBe(1);
    expect(result.exact).toBe(true);
  });

  it("may be the parsed reference transcript itself", () => {
    const transcript = (city: string) =>
      parseTrajectory([
        { role: "user", content: "weather?" },
        {
          role: "assistant",
          content: "",
          tool_calls: [
            {
              id: "c1",
              type: "function",
              function: { name: "get_weather", arguments: JSON.stringify({ city }) },
            },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "sunny" },
      ]);
    const run = transcript("Paris");
    const reference = transcript("Lyon");
    const whole = matchToolCalls(run, reference);
    expect(whole).toEqual(matchToolCalls(run.calls, reference.calls));
    expect(whole.mismatches).toContainEqual(expect.objectContaining({ path: "$.city" }));
    expect(matchToolCalls(run, transcript("Paris")).score).toBe(1);
    expect(() => matchToolCalls(run, { calls: [{ name: 1 }] } as never)).toThrow(
      expect.objectContaining({ field: "expected.calls[0].name" }),
    );
  });
});
