/**
 * Google ADK's shapes, fixtures written from google/adk-python's models
 * (src/google/adk/evaluation/eval_case.py, eval_set.py, eval_result.py, and sessions' events):
 * snake_case as its files are often written, camelCase as its pydantic aliases write them.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { adkDatasetCases } from "./adk.js";
import { detectFormat } from "./detect-format.js";
import { parseTrajectory } from "./parse-trajectory.js";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/adk/${name}`, import.meta.url), "utf8"));

describe("Google ADK", () => {
  it("reads an eval case's invocations as a conversation: a turn each, calls with responses", () => {
    const evalSet = fixture("support.evalset.json") as { eval_cases: unknown[] };
    const twoTurns = evalSet.eval_cases[1];
    expect(detectFormat(twoTurns)).toMatchObject({ format: "adk" });
    const trajectory = parseTrajectory(twoTurns);
    expect(trajectory.calls.map((call) => [call.name, call.inputParameters])).toEqual([
      ["lookup_order", { order: "4523" }],
      ["refund_order", { order: "4523", amount: 45 }],
    ]);
    expect(trajectory.turns.map((turn) => [turn.input, turn.calls])).toEqual([
      ["Where is order 4523?", [0]],
      ["Refund it: 45 EUR.", [1]],
    ]);
    expect(trajectory.replies).toEqual(["It was delivered.", "Refunded 45 EUR."]);
  });

  it("reads an eval set as cases with turns, an invocation's tool uses a turn's expected calls", () => {
    expect(adkDatasetCases(fixture("support.evalset.json"))).toEqual([
      {
        id: "refund",
        turns: [
          {
            input: "Refund 30 EUR on order 4521.",
            expected_tools: [
              { name: "lookup_order", arguments: { order: "4521" } },
              { name: "refund_order", arguments: { order: "4521", amount: 30 } },
            ],
          },
        ],
        metadata: { adkEvalSet: "support" },
      },
      {
        id: "status-then-refund",
        turns: [
          {
            input: "Where is order 4523?",
            expected_tools: [{ name: "lookup_order", arguments: { order: "4523" } }],
          },
          {
            input: "Refund it: 45 EUR.",
            expected_tools: [{ name: "refund_order", arguments: { order: "4523", amount: 45 } }],
          },
        ],
        metadata: { adkEvalSet: "support" },
      },
    ]);
  });

  it("reads an eval result as cases: the actual invocations run, the expected ones expected", () => {
    const cases = adkDatasetCases(fixture("support.evalset_result.json")) as {
      id: string;
      trajectory: unknown;
      turns: unknown;
    }[];
    expect(cases.map((item) => item.id)).toEqual(["refund", "status-then-refund"]);
    const run = parseTrajectory(cases[1].trajectory);
    expect(run.calls.map((call) => [call.name, call.output, call.isError])).toEqual([
      ["lookup_order", { status: "delivered" }, false],
      ["refund_order", "refund window closed", true],
    ]);
    expect(cases[0].turns).toEqual([
      {
        input: "Refund 30 EUR on order 4521.",
        expected_tools: [
          { name: "lookup_order", arguments: { order: "4521" } },
          { name: "refund_order", arguments: { order: "4521", amount: 30 } },
        ],
      },
    ]);
    expect(adkDatasetCases({ cases: [] })).toBeUndefined();
  });
});
