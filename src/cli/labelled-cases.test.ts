import path from "node:path";
import { describe, expect, it } from "vitest";
import { jsonl, testFolders } from "../../test/support/folders.js";
import { readLabelledCases } from "./labelled-cases.js";

const folder = testFolders("toolscore-labelled-cases-");

const refund = {
  input: "Refund 30 EUR on order 4521",
  trajectory: [
    { role: "user", content: "Refund 30 EUR on order 4521" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "c1",
          type: "function",
          function: { name: "refund_order", arguments: '{"order":"4521","amount":300}' },
        },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "refunded 300" },
  ],
};

describe("readLabelledCases", () => {
  it("reads cases in any dataset form with their labels, and keeps every line it cannot read with why", async () => {
    const directory = folder({
      "labels.jsonl": jsonl([
        { id: "tenfold", ...refund, label: 0, why: "300 is ten times 30", call_labels: ["wrong"] },
        { id: "unsure", ...refund, label: "not-evaluable" },
        { id: "no-label", ...refund },
        { id: "bad-calls", ...refund, label: 1, call_labels: ["right", "right"] },
        { id: "typo", ...refund, label: 2 },
        { id: "extra", ...refund, label: 1, colour: "blue" },
      ]),
    });
    const read = await readLabelledCases(path.join(directory, "labels.jsonl"));
    expect(read.cases.map((entry) => [entry.id, entry.label, entry.callLabels])).toEqual([
      ["tenfold", 0, ["wrong"]],
      ["unsure", "not-evaluable", undefined],
      ["extra", 1, undefined],
    ]);
    expect(read.cases[0].testCase.toolsCalled?.[0]).toMatchObject({
      name: "refund_order",
      inputParameters: { order: "4521", amount: 300 },
      output: "refunded 300",
    });
    expect(read.cases[0].why).toBe("300 is ten times 30");
    expect(read.unreadable.map((error) => [error.line, error.field, error.code])).toEqual([
      [3, "label", "DATASET_PARSE"],
      [4, "call_labels", "DATASET_PARSE"],
      [5, "label", "DATASET_PARSE"],
    ]);
    expect(read.unreadable[0].message).toMatch(
      /labels\.jsonl: line 3: label must be a score from 0 to 1 or "not-evaluable", got nothing/,
    );
    expect(read.unreadable[1].message).toContain("call_labels gives 2 labels for 1 calls");
    // A field no reader knows is said, never dropped in silence.
    expect(read.notes.join("\n")).toMatch(/line 6: .*colour/);
  });
});
