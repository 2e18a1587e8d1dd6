import { asArray, asId, asRecord, asString, jsonOrText } from "./read.js";
import { addMessageCalls, readSpans, stepGroups } from "./otlp.js";
import type { DecodedSpan, MessageCall } from "./otlp.js";
import { readToolList } from "./tool-spec.js";
import type { RawResult, TrajectoryBuilder } from "./trajectory-builder.js";

function messagesOf(span: DecodedSpan, key: string): unknown[] {
  return asArray(jsonOrText(span.attributes.get(key))) ?? [];
}

function isToolSpan(span: DecodedSpan): boolean {
  const operation = span.attributes.get("gen_ai.operation.name");
  return (
    operation === "execute_tool" ||
    (operation === undefined && span.name.startsWith("execute_tool"))
  );
}

/**
 * OpenTelemetry GenAI spans (OTLP JSON): `execute_tool` spans ordered by start time, with
 * `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.call.arguments` and
 * `gen_ai.tool.call.result`, errors from the span status or `error.type`; tool-call parts of
 * `gen_ai.output.messages` group those spans into steps, and stand in for them (with results from
 * the `tool_call_response` parts of later `gen_ai.input.messages`) when a trace has no tool spans.
 * Tools come from `gen_ai.tool.definitions`.
 */
export function readOtel(input: unknown, builder: TrajectoryBuilder): void {
  const spans = readSpans(input, builder);
  for (const span of spans) {
    for (const tool of readToolList(jsonOrText(span.attributes.get("gen_ai.tool.definitions"))))
      builder.addTool(tool);
  }

  const messageCalls: MessageCall[] = [];
  const responses = new Map<string, RawResult & { path: string }>();
  let step = 0;
  for (const span of spans) {
    for (const message of messagesOf(span, "gen_ai.input.messages")) {
      for (const part of asArray(asRecord(message)?.parts) ?? []) {
        const record = asRecord(part);
        const id = record && asId(record.id);
        if (record?.type === "tool_call_response" && id !== undefined && !responses.has(id)) {
          // Conversation history repeats earlier responses in every later span; the first counts.
          const value = "response" in record ? record.response : record.result;
          responses.set(id, { output: jsonOrText(value) ?? null, isError: false, path: span.path });
        }
      }
    }
    for (const message of messagesOf(span, "gen_ai.output.messages")) {
      let found = false;
      for (const part of asArray(asRecord(message)?.parts) ?? []) {
        const record = asRecord(part);
        const name = record && asString(record.name);
        if (record?.type !== "tool_call" || name === undefined) continue;
        messageCalls.push({
          id: asId(record.id),
          name,
          arguments: jsonOrText(record.arguments),
          step,
          path: span.path,
        });
        found = true;
      }
      if (found) step++;
    }
  }

  const toolSpans = spans.filter(isToolSpan);
  if (toolSpans.length === 0) {
    addMessageCalls(builder, messageCalls, responses);
    return;
  }

  const byId = new Map(
    messageCalls.flatMap((call) => (call.id === undefined ? [] : [[call.id, call] as const])),
  );
  const items = toolSpans.map((span) => {
    const id = asId(span.attributes.get("gen_ai.tool.call.id"));
    return { span, id, step: id === undefined ? undefined : byId.get(id)?.step };
  });
  for (const group of stepGroups(items)) {
    builder.startStep();
    for (const { span, id } of group) {
      const name =
        asString(span.attributes.get("gen_ai.tool.name")) ??
        (span.name.startsWith("execute_tool ")
          ? span.name.slice("execute_tool ".length)
          : undefined);
      if (name === undefined || name === "") {
        builder.warn(
          "missing-name",
          "an execute_tool span without gen_ai.tool.name was skipped",
          span.path,
        );
        continue;
      }
      const description = asString(span.attributes.get("gen_ai.tool.description"));
      builder.addTool({ name, ...(description === undefined ? {} : { description }) });
      const argumentsValue =
        span.attributes.get("gen_ai.tool.call.arguments") ??
        (id === undefined ? undefined : byId.get(id)?.arguments);
      const resultValue = span.attributes.get("gen_ai.tool.call.result");
      const response = id === undefined ? undefined : responses.get(id);
      const isError = span.isError || span.attributes.has("error.type");
      builder.addCall({
        name,
        arguments: argumentsValue,
        id,
        path: span.path,
        result: {
          output: resultValue !== undefined ? jsonOrText(resultValue) : (response?.output ?? null),
          isError,
        },
      });
    }
    builder.endStep();
  }
}
