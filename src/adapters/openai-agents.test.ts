/**
 * The OpenAI Agents SDK's shapes (fixtures written from openai/openai-agents-js:
 * packages/agents-core/src/types/protocol.ts for items, items.ts for run items' toJSON,
 * tracing/spans.ts for exported spans).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectFormat } from "./detect-format.js";
import { traceIdsOf } from "./otlp.js";
import { parseTrajectory } from "./parse-trajectory.js";

const fixture = (name: string): unknown =>
  JSON.parse(
    readFileSync(new URL(`./fixtures/openai-agents/${name}.json`, import.meta.url), "utf8"),
  );

/** A call as the tests expect it. */
const call = (
  name: string,
  inputParameters: object,
  output: unknown,
  isError = false,
  type = "FUNCTION",
) => ({ name, inputParameters, output, isError, type });

const calls = (input: unknown) =>
  parseTrajectory(input).calls.map(({ name, inputParameters, output, isError, type }) => ({
    name,
    inputParameters,
    output,
    isError,
    type,
  }));

describe("the OpenAI Agents SDK", () => {
  it("reads run items: calls with outputs, the handoff as its tool's call, hosted and MCP calls", () => {
    const input = fixture("run-items");
    expect(detectFormat(input)).toMatchObject({ format: "openai-agents" });
    const trajectory = parseTrajectory(input);
    expect(calls(input)).toEqual([
      call("lookup_order", { order: "4521" }, '{"total":120,"currency":"EUR"}'),
      call("transfer_to_Refunds_agent", {}, '{"assistant":"Refunds agent"}'),
      call("refund", { order: "4521", amount: 120 }, "card expired", true, "MCP"),
      call("web_search", { type: "search", query: "refund policy expired card" }, null),
    ]);
    // The call waiting for approval never ran: left out, and said so.
    expect(trajectory.warnings).toEqual([
      expect.objectContaining({
        code: "unknown-block",
        message: expect.stringContaining("waiting for approval") as string,
        path: "$.newItems[6]",
      }),
    ]);
    expect(trajectory.replies).toEqual(["The card has expired; a voucher needs your approval."]);
  });

  it("reads the SDK's own tools with their results, and an MCP server's tool list", () => {
    const input = fixture("sdk-tools");
    expect(detectFormat(input)).toMatchObject({ format: "openai-agents" });
    const trajectory = parseTrajectory(input);
    expect(calls(input)).toEqual([
      call("shell", { commands: ["npm test"], timeoutMs: 60000 }, [
        { stdout: "1 failed", stderr: "", outcome: { type: "exit", exitCode: 1 } },
      ]),
      call(
        "apply_patch",
        { type: "update_file", path: "src/sum.ts", diff: "-a-b\n+a+b" },
        "patch does not apply",
        true,
      ),
      call(
        "computer",
        { type: "screenshot" },
        { type: "computer_screenshot", data: "data:image/png;base64,iVBORw0KGgo=" },
      ),
    ]);
    expect(trajectory.tools.map((tool) => tool.name)).toEqual(["read_file"]);
    expect(trajectory.warnings).toEqual([]);
    expect(trajectory.turns[0]?.input).toBe("Fix the failing test and show me the screen.");
  });

  it("reads an exported trace: function spans in start order, errors, MCP, handoffs", () => {
    const input = fixture("trace-export");
    expect(detectFormat(input)).toMatchObject({ format: "openai-agents" });
    expect(calls(input)).toEqual([
      call("lookup_order", { order: "4521" }, '{"total":120}'),
      call("transfer_to_Refunds_agent", {}, '{"assistant":"Refunds agent"}'),
      call("refund", { order: "4521", amount: 120 }, "Error running tool", true, "MCP"),
    ]);
    // Several traces in one export: read as one run with a warning, or one chosen by traceId.
    const two = {
      data: [
        ...(input as { data: unknown[] }).data,
        {
          object: "trace.span",
          id: "span_9",
          trace_id: "trace_2",
          parent_id: null,
          started_at: "2026-05-03T11:00:00.000Z",
          span_data: {
            type: "function",
            name: "lookup_order",
            input: '{"order":"9"}',
            output: "{}",
          },
          error: null,
        },
      ],
    };
    expect(traceIdsOf(two)).toEqual(["trace_1", "trace_2"]);
    expect(parseTrajectory(two).warnings).toMatchObject([{ code: "several-traces" }]);
    expect(parseTrajectory(two, { traceId: "trace_2" }).calls).toMatchObject([
      { name: "lookup_order", inputParameters: { order: "9" } },
    ]);
    expect(() => parseTrajectory(two, { traceId: "trace_3" })).toThrow(
      /no span belongs to trace "trace_3"/,
    );
    // The spans alone, as a list, read the same.
    const spans = (input as { data: unknown[] }).data.slice(1);
    expect(calls(spans)).toEqual(calls(input));
  });

  it("is told apart from the Responses API it builds on", () => {
    const responses = [
      { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "ok" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "a" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "b" }] },
    ];
    expect(detectFormat(responses)).toMatchObject({ format: "openai-responses" });
    // The SDK's callId and result item decide, however many messages look like Responses'.
    const agents = [
      { type: "function_call", callId: "c1", name: "f", arguments: "{}" },
      { type: "function_call_result", callId: "c1", name: "f", status: "completed", output: "ok" },
      ...responses.slice(2),
      ...responses.slice(2),
    ];
    expect(detectFormat(agents)).toMatchObject({ format: "openai-agents" });
    expect(parseTrajectory(agents).calls).toMatchObject([{ name: "f", output: "ok" }]);
  });
});
