import type { ToolCall } from "../../src/core/tool-call.js";
/** Small transcripts of one agent turn, in two providers' formats, shared by tests. */
export const openAiRun = [
  { role: "user", content: "Weather in Paris?" },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      {
        id: "c1",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris"}' },
      },
    ],
  },
  { role: "tool", tool_call_id: "c1", content: "18C" },
  { role: "assistant", content: "18C in Paris." },
];

export const anthropicRun = [
  { role: "user", content: "Weather in Oslo?" },
  {
    role: "assistant",
    content: [{ type: "tool_use", id: "t1", name: "get_weather", input: { city: "Oslo" } }],
  },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "3C" }] },
];

const nanoseconds = (ms: number) => String(1_778_630_400_000_000_000n + BigInt(ms) * 1_000_000n);
const text = (key: string, value: string) => ({ key, value: { stringValue: value } });

/**
 * An OTLP JSON export of OpenTelemetry GenAI `execute_tool` spans holding several traces (runs):
 * per trace id, the tool calls in order. Spans of the traces interleave in time, as an exporter
 * that batches concurrent runs writes them.
 */
export function otlpExport(
  traces: Readonly<Record<string, readonly { name: string; args: Record<string, unknown> }[]>>,
): object {
  const spans = Object.entries(traces).flatMap(([traceId, calls], t) =>
    calls.map((call, c) => ({
      traceId,
      spanId: `${traceId}-${c}`,
      parentSpanId: `${traceId}-root`,
      name: `execute_tool ${call.name}`,
      startTimeUnixNano: nanoseconds(100 * c + t),
      endTimeUnixNano: nanoseconds(100 * c + t + 50),
      attributes: [
        text("gen_ai.operation.name", "execute_tool"),
        text("gen_ai.tool.name", call.name),
        text("gen_ai.tool.call.id", `${traceId}-call-${c}`),
        text("gen_ai.tool.call.arguments", JSON.stringify(call.args)),
      ],
    })),
  );
  return { resourceSpans: [{ scopeSpans: [{ spans }] }] };
}

/** A call as a transcript reader gives it back: a function call unless `more` says otherwise. */
export function readCall(
  name: string,
  inputParameters: Record<string, unknown>,
  output: unknown,
  more: Partial<Pick<ToolCall, "type" | "id" | "isError">> = {},
): object {
  return { name, inputParameters, output, type: "FUNCTION", ...more };
}
