import { describe, expect, it } from "vitest";
import { parseTrajectory } from "./parse-trajectory.js";
import { readCall } from "../../test/support/transcripts.js";

describe("anthropic", () => {
  it("reads server tools and their results, errors included", () => {
    const t = parseTrajectory({
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [
        {
          type: "server_tool_use",
          id: "srvtoolu_1",
          name: "web_search",
          input: { query: "claude shannon birth date" },
        },
        {
          type: "web_search_tool_result",
          tool_use_id: "srvtoolu_1",
          content: [
            {
              type: "web_search_result",
              url: "https://en.wikipedia.org/wiki/Claude_Shannon",
              title: "Claude Shannon",
              encrypted_content: "EqgfCi",
            },
          ],
        },
        {
          type: "server_tool_use",
          id: "srvtoolu_2",
          name: "web_search",
          input: { query: "again" },
        },
        {
          type: "web_search_tool_result",
          tool_use_id: "srvtoolu_2",
          content: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" },
        },
        { type: "text", text: "Claude Shannon was born on April 30, 1916." },
      ],
    });
    expect(t.calls.map((c) => [c.name, c.isError])).toEqual([
      ["web_search", false],
      ["web_search", true],
    ]);
    expect(t.calls[1]?.output).toEqual({
      type: "web_search_tool_result_error",
      error_code: "max_uses_exceeded",
    });
    expect(t.steps.map((s) => s.calls)).toEqual([[0, 1]]);
  });

  it("reads MCP connector blocks as MCP calls", () => {
    const t = parseTrajectory([
      {
        role: "assistant",
        content: [
          {
            type: "mcp_tool_use",
            id: "mcptoolu_1",
            name: "echo",
            server_name: "example",
            input: { text: "hi" },
          },
        ],
      },
      {
        role: "assistant",
        content: [
          {
            type: "mcp_tool_result",
            tool_use_id: "mcptoolu_1",
            is_error: false,
            content: [{ type: "text", text: "hi" }],
          },
        ],
      },
    ]);
    expect(t.calls).toEqual([
      readCall("echo", { text: "hi" }, "hi", { type: "MCP", id: "mcptoolu_1", isError: false }),
    ]);
  });

  it("keeps non-text tool results as blocks and warns about unknown blocks", () => {
    const t = parseTrajectory([
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "t1", name: "screenshot", input: {} },
          { type: "sparkle" },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "t1",
            content: [
              { type: "text", text: "here" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
            ],
          },
        ],
      },
    ]);
    expect(t.calls[0]?.output).toEqual([
      { type: "text", text: "here" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
    ]);
    expect(t.turns).toHaveLength(1);
    expect(t.warnings.map((w) => [w.code, w.path])).toEqual([["unknown-block", "$[0].content[1]"]]);
  });
});
