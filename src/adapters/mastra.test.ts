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
});
