import { describe, expect, it } from "vitest";
import { parseTrajectory } from "./parse-trajectory.js";
import { readCall } from "../../test/support/transcripts.js";

describe("openai-chat", () => {
  it("reads the legacy function_call and function messages, joined by name", () => {
    const t = parseTrajectory(
      [
        { role: "user", content: "2+2?" },
        {
          role: "assistant",
          content: null,
          function_call: { name: "calc", arguments: '{"expression":"2+2"}' },
        },
        { role: "function", name: "calc", content: "4" },
      ],
      { format: "openai-chat" },
    );
    expect(t.calls).toEqual([readCall("calc", { expression: "2+2" }, "4", { isError: false })]);
  });

  it("keeps malformed arguments as raw text and says so", () => {
    const t = parseTrajectory([
      {
        role: "assistant",
        tool_calls: [
          { id: "a", type: "function", function: { name: "search", arguments: '{"q": "paris' } },
          {
            id: "b",
            type: "function",
            function: { name: "search", arguments: '["not", "an", "object"]' },
          },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "x" },
      { role: "tool", tool_call_id: "b", content: "y" },
    ]);
    expect(t.calls.map((c) => [c.inputParameters, c.invalidArguments])).toEqual([
      [{}, '{"q": "paris'],
      [{}, '["not", "an", "object"]'],
    ]);
    expect(t.warnings.map((w) => [w.code, w.path])).toEqual([
      ["invalid-arguments", "$[0].tool_calls[0]"],
      ["invalid-arguments", "$[0].tool_calls[1]"],
    ]);
  });

  it("reads custom tool calls, text-part tool contents and response objects", () => {
    const t = parseTrajectory({
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "custom", custom: { name: "sql", input: "SELECT 1" } }],
          },
        },
      ],
    });
    expect(t.calls[0]).toMatchObject({
      name: "sql",
      inputParameters: { input: "SELECT 1" },
      id: "c1",
    });
    expect(t.warnings).toEqual([
      {
        code: "call-without-result",
        message: "the call to sql has no result",
        path: "$.choices[0].message.tool_calls[0]",
      },
    ]);

    const parts = parseTrajectory([
      {
        role: "assistant",
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      {
        role: "tool",
        tool_call_id: "c1",
        content: [
          { type: "text", text: "line 1" },
          { type: "text", text: "line 2" },
        ],
      },
    ]);
    expect(parts.calls[0]?.output).toBe("line 1\nline 2");
  });

  it("warns about results without calls, duplicate ids and unknown roles", () => {
    const t = parseTrajectory([
      {
        role: "assistant",
        tool_calls: [
          { id: "same", type: "function", function: { name: "f", arguments: "{}" } },
          { id: "same", type: "function", function: { name: "g", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "same", content: "first" },
      { role: "tool", tool_call_id: "same", content: "second" },
      { role: "tool", tool_call_id: "ghost", content: "?" },
      { role: "critic", content: "hmm" },
      42,
    ]);
    expect(t.calls.map((c) => c.output)).toEqual(["first", "second"]);
    expect(t.warnings.map((w) => [w.code, w.path])).toEqual([
      ["duplicate-call-id", "$[0].tool_calls[1]"],
      ["result-without-call", "$[3]"],
      ["unknown-role", "$[4]"],
      ["not-an-object", "$[5]"],
    ]);
  });
});

describe("openai-responses", () => {
  it("reads built-in tool calls with their inline outputs and separate *_call_output items", () => {
    const t = parseTrajectory({
      object: "response",
      output: [
        {
          type: "web_search_call",
          id: "ws_1",
          status: "completed",
          action: { type: "search", query: "paris weather" },
        },
        {
          type: "file_search_call",
          id: "fs_1",
          status: "completed",
          queries: ["refund policy"],
          results: [{ file_id: "file_1", text: "30 days" }],
        },
        {
          type: "code_interpreter_call",
          id: "ci_1",
          status: "failed",
          code: "1/0",
          outputs: [{ type: "logs", logs: "ZeroDivisionError" }],
        },
        {
          type: "computer_call",
          id: "cu_1",
          call_id: "call_cu",
          status: "completed",
          action: { type: "click", x: 10, y: 20 },
        },
        {
          type: "computer_call_output",
          call_id: "call_cu",
          output: { type: "computer_screenshot", image_url: "data:image/png;base64,AAAA" },
        },
      ],
    });
    expect(t.calls).toEqual([
      readCall("web_search", { type: "search", query: "paris weather" }, null, {
        id: "ws_1",
        isError: false,
      }),
      readCall(
        "file_search",
        { queries: ["refund policy"] },
        [{ file_id: "file_1", text: "30 days" }],
        { id: "fs_1", isError: false },
      ),
      readCall("code_interpreter", { code: "1/0" }, [{ type: "logs", logs: "ZeroDivisionError" }], {
        id: "ci_1",
        isError: true,
      }),
      readCall(
        "computer",
        { type: "click", x: 10, y: 20 },
        { type: "computer_screenshot", image_url: "data:image/png;base64,AAAA" },
        { id: "call_cu", isError: false },
      ),
    ]);
    expect(t.steps.map((s) => s.calls)).toEqual([[0, 1, 2, 3]]);
  });

  it("reads MCP calls with errors, listed MCP tools and denied approvals", () => {
    const t = parseTrajectory([
      {
        type: "mcp_list_tools",
        id: "ml_1",
        server_label: "gh",
        tools: [
          { name: "create_issue", description: "Open an issue", input_schema: { type: "object" } },
        ],
      },
      {
        type: "mcp_call",
        id: "mc_1",
        server_label: "gh",
        name: "create_issue",
        arguments: '{"title":"bug"}',
        output: null,
        error: "403 Forbidden",
      },
      {
        type: "mcp_approval_request",
        id: "ap_1",
        server_label: "gh",
        name: "delete_repo",
        arguments: '{"repo":"x"}',
      },
      {
        type: "mcp_approval_response",
        approval_request_id: "ap_1",
        approve: false,
        reason: "too risky",
      },
    ]);
    expect(t.tools).toEqual([
      { name: "create_issue", description: "Open an issue", parameters: { type: "object" } },
    ]);
    expect(t.calls).toEqual([
      readCall("create_issue", { title: "bug" }, "403 Forbidden", {
        type: "MCP",
        id: "mc_1",
        isError: true,
      }),
      readCall("delete_repo", { repo: "x" }, "too risky", { type: "MCP", isError: true }),
    ]);
    expect(t.warnings.map((w) => w.code)).toEqual(["denied-call"]);
  });

  it("accepts a string input and skips unknown item types with a warning", () => {
    const t = parseTrajectory(
      { input: "hello", output: [{ type: "hologram", id: "x" }] },
      { format: "openai-responses" },
    );
    expect(t.turns).toEqual([{ index: 0, input: "hello", steps: [], calls: [] }]);
    expect(t.warnings).toEqual([
      {
        code: "unknown-block",
        message: 'an item of type "hologram" was skipped',
        path: "$.output[0]",
      },
    ]);
  });
});
