import { describe, expect, it } from "vitest";
import { parseTrajectory } from "./parse-trajectory.js";
import { readCall } from "../../test/support/transcripts.js";

describe("mcp", () => {
  it("joins responses by JSON-RPC id, reads errors, structured content and logger wrappers", () => {
    const t = parseTrajectory([
      {
        direction: "out",
        message: {
          jsonrpc: "2.0",
          id: "a",
          method: "tools/call",
          params: { name: "fetch", arguments: { url: "https://x.test" } },
        },
      },
      {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "sum", arguments: { a: 1, b: 2 } },
      },
      {
        jsonrpc: "2.0",
        id: 7,
        result: { content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 } },
      },
      {
        direction: "in",
        message: {
          jsonrpc: "2.0",
          id: "a",
          error: { code: -32602, message: "Unknown tool: fetch" },
        },
      },
      { jsonrpc: "2.0", id: 99, result: { content: [] } },
    ]);
    expect(t.calls).toEqual([
      readCall("fetch", { url: "https://x.test" }, "Unknown tool: fetch", {
        type: "MCP",
        id: "a",
        isError: true,
      }),
      readCall("sum", { a: 1, b: 2 }, { sum: 3 }, { type: "MCP", id: "7", isError: false }),
    ]);
    expect(t.warnings.map((w) => [w.code, w.path])).toEqual([["result-without-call", "$[4]"]]);
  });
});
