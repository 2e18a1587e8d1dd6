import { describe, expect, it } from "vitest";
import { parseTrajectory } from "./parse-trajectory.js";
import { readCall } from "../../test/support/transcripts.js";

const ns = (ms: number) => String(1_778_630_400_000_000_000n + BigInt(ms) * 1_000_000n);
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
/** An OTel GenAI chat span with its input and output messages. */
const chat = (id: string, start: number, input: object[], output: object[] = []) => ({
  spanId: id,
  name: "chat",
  startTimeUnixNano: ns(start),
  attributes: [
    str("gen_ai.operation.name", "chat"),
    str("gen_ai.input.messages", JSON.stringify(input)),
    str("gen_ai.output.messages", JSON.stringify(output)),
  ],
});

describe("otel", () => {
  it("groups execute_tool spans without model spans by overlap, and reads errors", () => {
    const span = (
      id: string,
      start: number,
      end: number,
      name: string,
      extra: object[] = [],
      status: object = {},
    ) => ({
      spanId: id,
      parentSpanId: "root",
      name: `execute_tool ${name}`,
      startTimeUnixNano: ns(start),
      endTimeUnixNano: ns(end),
      attributes: [
        str("gen_ai.operation.name", "execute_tool"),
        str("gen_ai.tool.name", name),
        ...extra,
      ],
      status,
    });
    const t = parseTrajectory({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                span("s3", 300, 400, "c", [str("error.type", "TimeoutError")]),
                span("s1", 100, 200, "a", [
                  str("gen_ai.tool.call.arguments", '{"x": 1}'),
                  { key: "gen_ai.tool.call.result", value: { stringValue: '{"ok":true}' } },
                ]),
                span("s2", 150, 250, "b", [], { code: "STATUS_CODE_ERROR" }),
              ],
            },
          ],
        },
      ],
    });
    expect(t.format).toBe("otel");
    expect(t.calls.map((c) => [c.name, c.inputParameters, c.output, c.isError])).toEqual([
      ["a", { x: 1 }, { ok: true }, false],
      ["b", {}, null, true],
      ["c", {}, null, true],
    ]);
    expect(t.steps.map((s) => s.calls)).toEqual([[0, 1], [2]]);
  });

  it("falls back to tool-call parts of model spans, with results from later input messages", () => {
    const call = {
      role: "assistant",
      parts: [{ type: "tool_call", id: "c1", name: "f", arguments: { a: 1 } }],
    };
    const t = parseTrajectory([
      chat("s1", 0, [{ role: "user", parts: [{ type: "text", content: "go" }] }], [call]),
      chat(
        "s2",
        100,
        [call, { role: "tool", parts: [{ type: "tool_call_response", id: "c1", result: "done" }] }],
        [],
      ),
    ]);
    expect(t.calls).toEqual([readCall("f", { a: 1 }, "done", { id: "c1", isError: false })]);
  });
});

describe("openinference", () => {
  it("falls back to LLM spans' flattened tool calls, with results from tool messages", () => {
    const t = parseTrajectory([
      {
        name: "llm",
        context: { span_id: "l1" },
        start_time: "2026-05-13T00:00:00.000Z",
        attributes: {
          "openinference.span.kind": "LLM",
          "llm.output_messages.0.message.tool_calls.0.tool_call.id": "c1",
          "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "f",
          "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": '{"a": 1}',
          "llm.output_messages.0.message.tool_calls.1.tool_call.id": "c2",
          "llm.output_messages.0.message.tool_calls.1.tool_call.function.name": "g",
          "llm.output_messages.0.message.tool_calls.1.tool_call.function.arguments": "{}",
          "llm.tools.0.tool.json_schema":
            '{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}',
        },
      },
      {
        name: "llm",
        context: { span_id: "l2" },
        start_time: "2026-05-13T00:00:01.000Z",
        attributes: {
          "openinference.span.kind": "LLM",
          "llm.input_messages.0.message.role": "tool",
          "llm.input_messages.0.message.tool_call_id": "c2",
          "llm.input_messages.0.message.content": "G",
          "llm.input_messages.1.message.role": "tool",
          "llm.input_messages.1.message.tool_call_id": "c1",
          "llm.input_messages.1.message.content": "F",
        },
      },
    ]);
    expect(t.format).toBe("openinference");
    expect(t.calls.map((c) => [c.name, c.inputParameters, c.output])).toEqual([
      ["f", { a: 1 }, "F"],
      ["g", {}, "G"],
    ]);
    expect(t.steps.map((s) => s.calls)).toEqual([[0, 1]]);
    expect(t.tools).toEqual([{ name: "f", parameters: { type: "object" } }]);
  });

  it("parses JSON outputs of TOOL spans by MIME type", () => {
    const t = parseTrajectory(
      [
        {
          name: "f",
          attributes: {
            "openinference.span.kind": "TOOL",
            "tool.name": "f",
            "input.value": "{}",
            "output.value": '{"n": 3}',
            "output.mime_type": "application/json",
          },
        },
      ],
      { format: "openinference" },
    );
    expect(t.calls[0]?.output).toEqual({ n: 3 });
  });
});

describe("tool calls held only in a chat span's history", () => {
  const user = { role: "user", parts: [{ type: "text", content: "book it" }] };
  const asks = (id: string | undefined, name: string, args: object) => ({
    role: "assistant",
    parts: [{ type: "tool_call", ...(id === undefined ? {} : { id }), name, arguments: args }],
  });
  const answer = (id: string, result: string) => ({
    role: "tool",
    parts: [{ type: "tool_call_response", id, result }],
  });

  it("reads OTel GenAI input messages' calls and responses, once across spans", () => {
    const history = [user, asks("c1", "search", { q: "x" }), answer("c1", "found")];
    const t = parseTrajectory([
      chat("s1", 0, history),
      chat(
        "s2",
        100,
        [...history, asks("c2", "book", { id: 1 }), answer("c2", "ok")],
        [{ role: "assistant", parts: [{ type: "text", content: "Booked." }] }],
      ),
    ]);
    expect(t.format).toBe("otel");
    expect(t.calls.map((c) => [c.name, c.id, c.inputParameters, c.output])).toEqual([
      ["search", "c1", { q: "x" }, "found"],
      ["book", "c2", { id: 1 }, "ok"],
    ]);
    expect(t.steps.map((s) => s.calls)).toEqual([[0], [1]]);
    expect(t.warnings).toEqual([]);
  });

  it("takes the fullest history when calls have no ids", () => {
    const t = parseTrajectory([
      chat("s1", 0, [user, asks(undefined, "search", {})]),
      chat("s2", 100, [user, asks(undefined, "search", {}), asks(undefined, "book", {})]),
    ]);
    expect(t.calls.map((c) => c.name)).toEqual(["search", "book"]);
  });

  it("keeps the output messages' calls when they are there", () => {
    const t = parseTrajectory([
      chat("s1", 0, [user, asks("c0", "old", {})], [asks("c1", "search", {})]),
    ]);
    expect(t.calls.map((c) => c.name)).toEqual(["search"]);
  });

  it("warns, with the path, about parts it cannot use", () => {
    const t = parseTrajectory([
      chat("s1", 0, [
        user,
        { role: "assistant", parts: [{ type: "tool_call", id: "c1", arguments: {} }] },
        { role: "assistant", parts: [{ type: "function_call", name: "x" }] },
      ]),
    ]);
    expect(t.calls).toEqual([]);
    expect(t.warnings.map((w) => [w.code, w.message])).toEqual([
      ["missing-name", "a tool_call part without a name was skipped"],
      ["unknown-block", 'a message part of unknown type "function_call" was skipped'],
    ]);
    expect(t.warnings[0].path).toContain('["gen_ai.input.messages"][1].parts[0]');
  });

  it("reads OpenInference llm.input_messages tool calls", () => {
    const llm = (id: string, start: string, attributes: Record<string, string>) => ({
      name: "llm",
      context: { span_id: id },
      start_time: start,
      attributes: { "openinference.span.kind": "LLM", ...attributes },
    });
    const history = {
      "llm.input_messages.0.message.role": "user",
      "llm.input_messages.0.message.content": "book it",
      "llm.input_messages.1.message.role": "assistant",
      "llm.input_messages.1.message.tool_calls.0.tool_call.id": "c1",
      "llm.input_messages.1.message.tool_calls.0.tool_call.function.name": "search",
      "llm.input_messages.1.message.tool_calls.0.tool_call.function.arguments": '{"q": "x"}',
      "llm.input_messages.2.message.role": "tool",
      "llm.input_messages.2.message.tool_call_id": "c1",
      "llm.input_messages.2.message.content": "found",
    };
    const t = parseTrajectory([
      llm("l1", "2026-05-13T00:00:00.000Z", history),
      llm("l2", "2026-05-13T00:00:01.000Z", {
        ...history,
        "llm.input_messages.3.message.role": "assistant",
        "llm.input_messages.3.message.tool_calls.0.tool_call.id": "c2",
        "llm.input_messages.3.message.tool_calls.0.tool_call.function.arguments": "{}",
      }),
    ]);
    expect(t.format).toBe("openinference");
    expect(t.calls.map((c) => [c.name, c.inputParameters, c.output])).toEqual([
      ["search", { q: "x" }, "found"],
    ]);
    expect(t.warnings.map((w) => w.message)).toEqual([
      "a tool call without function.name was skipped",
    ]);
  });
});
