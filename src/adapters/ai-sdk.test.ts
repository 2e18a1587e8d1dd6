import { describe, expect, it } from "vitest";
import { parseTrajectory } from "./parse-trajectory.js";
import { readCall } from "../../test/support/transcripts.js";

describe("ai-sdk", () => {
  it("reads a v5 generateText result: content parts with tool errors, one step each", () => {
    const t = parseTrajectory({
      text: "",
      steps: [
        {
          content: [
            { type: "text", text: "Checking." },
            { type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Paris" } },
            { type: "tool-call", toolCallId: "c2", toolName: "weather", input: { city: "Lyon" } },
            {
              type: "tool-result",
              toolCallId: "c1",
              toolName: "weather",
              input: { city: "Paris" },
              output: { temperature: 18 },
            },
            {
              type: "tool-error",
              toolCallId: "c2",
              toolName: "weather",
              input: { city: "Lyon" },
              error: { name: "Error", message: "upstream 503" },
            },
          ],
          finishReason: "tool-calls",
        },
        { content: [{ type: "text", text: "Paris is 18°C; Lyon failed." }], finishReason: "stop" },
      ],
    });
    expect(t.calls).toEqual([
      readCall("weather", { city: "Paris" }, { temperature: 18 }, { id: "c1", isError: false }),
      readCall("weather", { city: "Lyon" }, "upstream 503", { id: "c2", isError: true }),
    ]);
    expect(t.steps.map((s) => s.calls)).toEqual([[0, 1]]);
  });

  it("keeps the raw input of calls the SDK marked invalid", () => {
    const t = parseTrajectory({
      steps: [
        {
          content: [
            {
              type: "tool-call",
              toolCallId: "c1",
              toolName: "weather",
              input: '{"city": ',
              invalid: true,
              error: {
                name: "AI_InvalidToolInputError",
                message: "Invalid input for tool weather",
              },
            },
            {
              type: "tool-error",
              toolCallId: "c1",
              toolName: "weather",
              input: '{"city": ',
              error: "Invalid input for tool weather",
            },
          ],
        },
      ],
    });
    expect(t.calls).toEqual([
      {
        name: "weather",
        inputParameters: {},
        output: "Invalid input for tool weather",
        type: "FUNCTION",
        id: "c1",
        isError: true,
        invalidArguments: '{"city": ',
      },
    ]);
    expect(t.warnings).toEqual([
      {
        code: "invalid-arguments",
        message: "the arguments of weather are invalid: Invalid input for tool weather",
        path: "$.steps[0].content[0]",
      },
    ]);
  });

  it("reads v4 step results (toolCalls with args, toolResults with result)", () => {
    const t = parseTrajectory({
      steps: [
        {
          stepType: "initial",
          toolCalls: [
            { type: "tool-call", toolCallId: "c1", toolName: "weather", args: { city: "Paris" } },
          ],
          toolResults: [
            {
              type: "tool-result",
              toolCallId: "c1",
              toolName: "weather",
              args: { city: "Paris" },
              result: "sunny",
            },
          ],
        },
      ],
    });
    expect(t.calls).toEqual([
      readCall("weather", { city: "Paris" }, "sunny", { id: "c1", isError: false }),
    ]);
  });

  it("reads model messages in both versions: v4 args/result and v5 input/typed output", () => {
    const v4 = parseTrajectory([
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c1", toolName: "f", args: { a: 1 } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "f",
            result: { ok: false },
            isError: true,
          },
        ],
      },
    ]);
    expect(v4.calls).toEqual([readCall("f", { a: 1 }, { ok: false }, { id: "c1", isError: true })]);

    const v5 = parseTrajectory([
      { role: "user", content: [{ type: "text", text: "hi" }] },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "c1", toolName: "f", input: { a: 1 } },
          { type: "tool-call", toolCallId: "c2", toolName: "g", input: {} },
          { type: "tool-call", toolCallId: "c3", toolName: "h", input: {} },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "f",
            output: { type: "json", value: { ok: true } },
          },
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "g",
            output: { type: "error-text", value: "boom" },
          },
          {
            type: "tool-result",
            toolCallId: "c3",
            toolName: "h",
            output: { type: "execution-denied", reason: "not allowed" },
          },
        ],
      },
    ]);
    expect(v5.calls.map((c) => [c.name, c.output, c.isError])).toEqual([
      ["f", { ok: true }, false],
      ["g", "boom", true],
      ["h", "not allowed", true],
    ]);
  });

  it("reads UI message tool parts by state, dynamic tools, denials and v4 invocations", () => {
    const t = parseTrajectory([
      {
        id: "a1",
        role: "assistant",
        parts: [
          {
            type: "dynamic-tool",
            toolName: "lookup",
            toolCallId: "d1",
            state: "output-available",
            input: { q: "x" },
            output: { hits: 2 },
          },
          {
            type: "tool-delete_file",
            toolCallId: "d2",
            state: "output-denied",
            input: { path: "/" },
            approval: { id: "ap", approved: false, reason: "dangerous" },
          },
          { type: "tool-wait", toolCallId: "d3", state: "input-available", input: {} },
        ],
      },
      {
        id: "a2",
        role: "assistant",
        content: "",
        toolInvocations: [
          { state: "result", toolCallId: "v4", toolName: "legacy", args: { n: 1 }, result: 2 },
        ],
      },
    ]);
    expect(t.calls.map((c) => [c.name, c.output, c.isError])).toEqual([
      ["lookup", { hits: 2 }, false],
      ["delete_file", "dangerous", true],
      ["wait", null, false],
      ["legacy", 2, false],
    ]);
    expect(t.warnings.map((w) => w.code)).toEqual(["denied-call", "call-without-result"]);
  });
});
