import { describe, expect, it } from "vitest";
import { parseTrajectory } from "./parse-trajectory.js";
import { readCall } from "../../test/support/transcripts.js";

describe("langchain", () => {
  it("reads plain message dicts with invalid tool calls kept as raw text", () => {
    const t = parseTrajectory([
      { type: "human", content: "Weather in Paris?" },
      {
        type: "ai",
        content: "",
        tool_calls: [
          { name: "get_weather", args: { city: "Paris" }, id: "call_1", type: "tool_call" },
        ],
        invalid_tool_calls: [
          {
            name: "get_weather",
            args: '{"city": Lyon}',
            id: "call_2",
            error: "Expecting value",
            type: "invalid_tool_call",
          },
        ],
      },
      { type: "tool", content: "18°C", tool_call_id: "call_1", status: "success" },
      {
        type: "tool",
        content: "Error: invalid arguments",
        tool_call_id: "call_2",
        status: "error",
      },
    ]);
    expect(t.format).toBe("langchain");
    expect(t.calls).toEqual([
      readCall("get_weather", { city: "Paris" }, "18°C", { id: "call_1", isError: false }),
      {
        name: "get_weather",
        inputParameters: {},
        output: "Error: invalid arguments",
        type: "FUNCTION",
        id: "call_2",
        isError: true,
        invalidArguments: '{"city": Lyon}',
      },
    ]);
    expect(t.steps.map((s) => s.calls)).toEqual([[0, 1]]);
    expect(t.warnings).toEqual([
      {
        code: "invalid-arguments",
        message: "the arguments of get_weather are invalid: Expecting value",
        path: "$[1].invalid_tool_calls[0]",
      },
    ]);
  });

  it("reads messages_to_dict output and OpenAI calls in additional_kwargs", () => {
    const t = parseTrajectory([
      { type: "human", data: { content: "hi", additional_kwargs: {} } },
      {
        type: "ai",
        data: {
          content: "",
          additional_kwargs: {
            tool_calls: [
              { id: "c1", type: "function", function: { name: "f", arguments: '{"x":1}' } },
            ],
          },
        },
      },
      { type: "tool", data: { content: "ok", tool_call_id: "c1" } },
    ]);
    expect(t.calls).toEqual([readCall("f", { x: 1 }, "ok", { id: "c1", isError: false })]);
  });

  it("reads dicts that name a role instead of a type (LangGraph state)", () => {
    const t = parseTrajectory([
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ name: "get_weather", args: { city: "Oslo" }, id: "c1" }],
      },
      { role: "tool", content: "-3°C", tool_call_id: "c1" },
    ]);
    expect(t.format).toBe("langchain");
    expect(t.calls).toEqual([
      readCall("get_weather", { city: "Oslo" }, "-3°C", { id: "c1", isError: false }),
    ]);
    expect(t.turns.map((turn) => turn.input)).toEqual(["weather?"]);
  });

  it("reads the Python serialization (langchain.schema ids)", () => {
    const t = parseTrajectory([
      {
        lc: 1,
        type: "constructor",
        id: ["langchain", "schema", "messages", "AIMessage"],
        kwargs: { content: "", tool_calls: [{ name: "f", args: {}, id: "c1" }] },
      },
      {
        lc: 1,
        type: "constructor",
        id: ["langchain", "schema", "messages", "ToolMessage"],
        kwargs: { content: "done", tool_call_id: "c1" },
      },
    ]);
    expect(t.calls).toEqual([readCall("f", {}, "done", { id: "c1", isError: false })]);
  });
});
