import { describe, expect, it } from "vitest";
import { readDatasetCase } from "./dataset-case.js";
import { parseTrajectory } from "./parse-trajectory.js";
import { readPlainOpenAIChat } from "./openai-chat-plain.js";
import { readTrajectory } from "./parse-trajectory.js";

/** Issue 21, item 9: the agent's text replies, from every message format, reasoning left out. */

const call = { name: "lookup", id: "c1" };
const transcripts: { format: string; input: unknown }[] = [
  {
    format: "openai-chat",
    input: [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: "Let me look.",
        tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "ok" },
      { role: "assistant", content: [{ type: "text", text: "Found it." }] },
    ],
  },
  {
    format: "openai-responses",
    input: [
      { type: "message", role: "user", content: "hi" },
      {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "Let me look." }],
      },
      { type: "function_call", call_id: "c1", name: "lookup", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "ok" },
      { type: "reasoning", summary: [{ type: "summary_text", text: "thinking" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Found it." }] },
    ],
  },
  {
    format: "anthropic",
    input: [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm" },
          { type: "text", text: "Let me look." },
          { type: "tool_use", ...call, input: {} },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "ok" }] },
      { role: "assistant", content: "Found it." },
    ],
  },
  {
    format: "gemini",
    input: [
      { role: "user", parts: [{ text: "hi" }] },
      {
        role: "model",
        parts: [
          { text: "hmm", thought: true },
          { text: "Let me look." },
          { functionCall: { name: "lookup", args: {} } },
        ],
      },
      { role: "user", parts: [{ functionResponse: { name: "lookup", response: { ok: true } } }] },
      { role: "model", parts: [{ text: "Found it." }] },
    ],
  },
  {
    format: "bedrock",
    input: [
      { role: "user", content: [{ text: "hi" }] },
      {
        role: "assistant",
        content: [
          { text: "Let me look." },
          { toolUse: { toolUseId: "c1", name: "lookup", input: {} } },
        ],
      },
      { role: "user", content: [{ toolResult: { toolUseId: "c1", content: [{ text: "ok" }] } }] },
      { role: "assistant", content: [{ text: "Found it." }] },
    ],
  },
  {
    format: "langchain",
    input: [
      { type: "human", content: "hi" },
      { type: "ai", content: "Let me look.", tool_calls: [{ id: "c1", name: "lookup", args: {} }] },
      { type: "tool", tool_call_id: "c1", content: "ok" },
      { type: "ai", content: "Found it." },
    ],
  },
  {
    format: "ai-sdk",
    input: [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hmm" },
          { type: "text", text: "Let me look." },
          { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: {} },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "lookup",
            output: { type: "text", value: "ok" },
          },
        ],
      },
      { role: "assistant", content: "Found it." },
    ],
  },
];

describe("replies", () => {
  for (const { format, input } of transcripts) {
    it(`reads the assistant's text from ${format}`, () => {
      const trajectory = parseTrajectory(input, { format: format as never });
      expect(trajectory.calls.map((c) => c.name)).toEqual(["lookup"]);
      expect(trajectory.replies).toEqual(["Let me look.", "Found it."]);
    });
  }

  it("gives the same replies on the plain OpenAI reader as on the general one", () => {
    const list = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "" },
      { role: "assistant", content: "Sure." },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "ok" },
    ];
    const plain = readPlainOpenAIChat(list);
    expect(plain?.replies).toEqual(["Sure."]);
    expect(plain).toEqual(readTrajectory(list, "openai-chat"));
  });

  it("has no replies key when the agent said nothing", () => {
    const { replies } = parseTrajectory([{ role: "user", content: "hi" }]);
    expect(replies).toBeUndefined();
  });

  it("carries replies and expectedOutputContains into a dataset case", () => {
    const read = readDatasetCase(
      {
        id: "a",
        trajectory: transcripts[0].input,
        expected_output_contains: ["found"],
      },
      { index: 0 },
    );
    expect(read).toMatchObject({
      replies: ["Let me look.", "Found it."],
      expectedOutputContains: ["found"],
    });
    expect(() =>
      readDatasetCase({ id: "b", expectedOutputContains: [1] }, { index: 1, line: 2 }),
    ).toThrow(/line 2: expectedOutputContains must be a list of strings/);
  });

  it("reads expectedOutcome, task-completion's reference, in either spelling", () => {
    expect(
      readDatasetCase({ input: "refund", expected_outcome: "refunded 30 EUR" }, { index: 0 }),
    ).toMatchObject({ expectedOutcome: "refunded 30 EUR" });
    expect(() => readDatasetCase({ expectedOutcome: 3 }, { index: 1, line: 2 })).toThrow(
      /line 2: expectedOutcome must be text or a list of text and image parts/,
    );
  });
});
