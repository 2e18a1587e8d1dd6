/**
 * Mastra's stored messages (MastraDBMessage: `content` of `format` 2, AI SDK 4's UI parts, or 3,
 * AI SDK 5's), as packages/core/src/agent/message-list of mastra-ai/mastra types them.
 */
import { describe, expect, it } from "vitest";
import { detectFormat } from "./detect-format.js";
import { parseTrajectory } from "./parse-trajectory.js";

const message = (role: string, format: 2 | 3, parts: unknown[]) => ({
  id: `${role}-${parts.length}`,
  role,
  createdAt: "2026-05-03T10:00:00.000Z",
  threadId: "thread-1",
  resourceId: "user-1",
  content: { format, parts },
});

describe("Mastra's stored messages", () => {
  it("reads format 3 (AI SDK 5 parts under content), errors included, warnings at their place", () => {
    const thread = [
      message("user", 3, [{ type: "text", text: "Refund 30 EUR on order 4521." }]),
      message("assistant", 3, [
        { type: "step-start" },
        {
          type: "tool-refund_order",
          toolCallId: "c1",
          state: "output-error",
          input: { order: "4521", amount: 30 },
          errorText: "card expired",
        },
        { type: "tool-invocation" },
        { type: "text", text: "The card has expired." },
      ]),
    ];
    expect(detectFormat(thread)).toMatchObject({ format: "mastra" });
    const trajectory = parseTrajectory(thread);
    expect(trajectory.calls).toMatchObject([
      {
        name: "refund_order",
        inputParameters: { order: "4521", amount: 30 },
        output: "card expired",
        isError: true,
      },
    ]);
    expect(trajectory.turns[0]?.input).toBe("Refund 30 EUR on order 4521.");
    expect(trajectory.replies).toEqual(["The card has expired."]);
    expect(trajectory.warnings).toEqual([
      expect.objectContaining({ code: "missing-name", path: "$[1].content.parts[2]" }),
    ]);
  });

  it("reads format 2 (AI SDK 4's tool-invocation parts) and v4 toolInvocations under content", () => {
    const invocation = {
      state: "result",
      toolCallId: "c1",
      toolName: "lookup_order",
      args: { order: "9" },
      result: { status: "delivered" },
    };
    const parts = [
      message("assistant", 2, [{ type: "tool-invocation", toolInvocation: invocation }]),
    ];
    const legacy = [
      {
        ...message("assistant", 2, []),
        content: { format: 2, parts: [], toolInvocations: [invocation] },
      },
    ];
    for (const thread of [parts, legacy]) {
      expect(parseTrajectory(thread, { format: "mastra" }).calls).toMatchObject([
        { name: "lookup_order", inputParameters: { order: "9" }, output: { status: "delivered" } },
      ]);
    }
  });

  it("reads its AI tracing spans: tool and MCP calls by start, errors, the root span", () => {
    const span = (id: string, type: string, start: string, extra: Record<string, unknown>) => ({
      id,
      traceId: "t1",
      parentSpanId: id === "s1" ? null : "s1",
      name: `${type} ${id}`,
      type,
      startTime: start,
      endTime: start,
      isRootSpan: id === "s1",
      attributes: {},
      ...extra,
    });
    // As an exporter hands them over, out of order.
    const exported = [
      span("s3", "mcp_tool_call", "2026-05-03T10:00:03.000Z", {
        attributes: { toolId: "refund", mcpServer: "payments", success: false },
        input: { order: "4521", amount: 30 },
        errorInfo: { message: "card expired", id: "TOOL_EXECUTION_FAILED" },
      }),
      span("s1", "agent_run", "2026-05-03T10:00:00.000Z", { attributes: { agentId: "support" } }),
      span("s2", "tool_call", "2026-05-03T10:00:01.000Z", {
        attributes: { toolId: "lookup_order", success: true },
        input: { order: "4521" },
        output: { total: 120 },
      }),
      span("s4", "llm_generation", "2026-05-03T10:00:02.000Z", {
        attributes: { model: "gpt-4.1" },
      }),
    ];
    expect(detectFormat(exported)).toMatchObject({ format: "mastra" });
    const trajectory = parseTrajectory(exported);
    expect(
      trajectory.calls.map(({ name, inputParameters, output, isError, type }) => ({
        name,
        inputParameters,
        output,
        isError,
        type,
      })),
    ).toEqual([
      {
        name: "lookup_order",
        inputParameters: { order: "4521" },
        output: { total: 120 },
        isError: false,
        type: "FUNCTION",
      },
      {
        name: "refund",
        inputParameters: { order: "4521", amount: 30 },
        output: "card expired",
        isError: true,
        type: "MCP",
      },
    ]);
    expect(trajectory.trace).toEqual({ traceId: "t1", spanId: "s1" });
    // As its storage lists them: spanType, startedAt, spanId.
    const stored = {
      spans: exported.map(
        ({ id, type, startTime, errorInfo, ...rest }: Record<string, unknown>) => ({
          ...rest,
          spanId: id,
          spanType: type,
          startedAt: startTime,
          ...(errorInfo === undefined ? {} : { error: errorInfo }),
        }),
      ),
    };
    expect(parseTrajectory(stored).calls.map((call) => call.name)).toEqual([
      "lookup_order",
      "refund",
    ]);
  });
});
