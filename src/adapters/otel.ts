import { asArray, asId, asRecord, asString, jsonOrText } from "./read.js";
import {
  addMessageCalls,
  addSpanUsage,
  historyCalls,
  readSpans,
  spanMs,
  stepGroups,
} from "./otlp.js";
import type { DecodedSpan, HistoryCall, MessageCall } from "./otlp.js";
import { readToolList } from "./tool-spec.js";
import type { RawResult, TrajectoryBuilder } from "./trajectory-builder.js";

function messagesOf(span: DecodedSpan, key: string): unknown[] {
  return asArray(jsonOrText(span.attributes.get(key))) ?? [];
}

/** The message part types of the GenAI conventions that carry no tool call. */
const otherParts: ReadonlySet<string> = new Set([
  "text",
  "tool_call_response",
  "reasoning",
  "blob",
  "file",
  "uri",
]);

/**
 * A `tool_call` part as a call; undefined for other parts. A tool call without a name, or a part
 * of a type the conventions do not define, is a warning at its path, never dropped in silence.
 */
function toolCallPart(
  part: unknown,
  where: string,
  builder: TrajectoryBuilder,
): { id: string | undefined; name: string; arguments: unknown } | undefined {
  const record = asRecord(part);
  const type = record?.type;
  if (record === undefined || type !== "tool_call") {
    if (typeof type !== "string" || !otherParts.has(type)) {
      builder.warn(
        "unknown-block",
        `a message part of ${typeof type === "string" ? `unknown type ${JSON.stringify(type)}` : "no type"} was skipped`,
        where,
      );
    }
    return undefined;
  }
  const name = asString(record.name);
  if (name === undefined || name === "") {
    builder.warn("missing-name", "a tool_call part without a name was skipped", where);
    return undefined;
  }
  return { id: asId(record.id), name, arguments: jsonOrText(record.arguments) };
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
 * the `tool_call_response` parts of later `gen_ai.input.messages`) when a trace has no tool spans;
 * when no span gives any, the tool-call parts of `gen_ai.input.messages` (the conversation's
 * history) do. Tools come from `gen_ai.tool.definitions`.
 */
export function readOtel(input: unknown, builder: TrajectoryBuilder): void {
  const spans = readSpans(input, builder);
  readOtelCalls(spans, builder);
  addSpanUsage(spans, builder, {
    usage: {
      input_tokens: "gen_ai.usage.input_tokens",
      output_tokens: "gen_ai.usage.output_tokens",
      // The conventions' names before 1.27.
      prompt_tokens: "gen_ai.usage.prompt_tokens",
      completion_tokens: "gen_ai.usage.completion_tokens",
    },
    model: ["gen_ai.response.model", "gen_ai.request.model"],
  });
}

function readOtelCalls(spans: readonly DecodedSpan[], builder: TrajectoryBuilder): void {
  for (const span of spans) {
    for (const tool of readToolList(jsonOrText(span.attributes.get("gen_ai.tool.definitions"))))
      builder.addTool(tool);
  }

  const messageCalls: MessageCall[] = [];
  const inHistory: HistoryCall[] = [];
  const responses = new Map<string, RawResult & { path: string }>();
  let step = 0;
  for (const [spanIndex, span] of spans.entries()) {
    for (const [messageIndex, message] of messagesOf(span, "gen_ai.input.messages").entries()) {
      const record = asRecord(message);
      const parts = asArray(record?.parts) ?? [];
      for (const [partIndex, part] of parts.entries()) {
        const where = `${span.path}.attributes["gen_ai.input.messages"][${messageIndex}].parts[${partIndex}]`;
        const call = toolCallPart(part, where, builder);
        if (call !== undefined) {
          // The conversation so far: calls the model made in earlier turns.
          inHistory.push({ ...call, span: spanIndex, message: messageIndex, path: where });
          continue;
        }
        const response = asRecord(part);
        const id = response && asId(response.id);
        if (response?.type === "tool_call_response" && id !== undefined && !responses.has(id)) {
          // Conversation history repeats earlier responses in every later span; the first counts.
          const value = "response" in response ? response.response : response.result;
          responses.set(id, { output: jsonOrText(value) ?? null, isError: false, path: span.path });
        }
      }
    }
    for (const [messageIndex, message] of messagesOf(span, "gen_ai.output.messages").entries()) {
      let found = false;
      for (const [partIndex, part] of (asArray(asRecord(message)?.parts) ?? []).entries()) {
        const where = `${span.path}.attributes["gen_ai.output.messages"][${messageIndex}].parts[${partIndex}]`;
        const call = toolCallPart(part, where, builder);
        if (call === undefined) continue;
        messageCalls.push({ ...call, step, path: span.path });
        found = true;
      }
      if (found) step++;
    }
  }

  const toolSpans = spans.filter(isToolSpan);
  if (toolSpans.length === 0) {
    // Calls held only in the conversation's history count when nothing else gives them.
    addMessageCalls(
      builder,
      messageCalls.length > 0 ? messageCalls : historyCalls(inHistory),
      responses,
    );
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
        durationMs: spanMs(span),
        result: {
          output: resultValue !== undefined ? jsonOrText(resultValue) : (response?.output ?? null),
          isError,
        },
      });
    }
    builder.endStep();
  }
}
