import {
  asArray,
  asId,
  asRecord,
  asString,
  at,
  blocksOutput,
  messageList,
  replyTextOf,
  textOf,
} from "./read.js";
import type { Record_ } from "./read.js";
import { readToolList } from "./tool-spec.js";
import type { TrajectoryBuilder } from "./trajectory-builder.js";

function readToolCalls(message: Record_, path: string, builder: TrajectoryBuilder): void {
  const toolCalls = asArray(message.tool_calls);
  toolCalls?.forEach((item, index) => {
    const callPath = `${path}.tool_calls[${index}]`;
    const call = builder.objectAt(item, callPath, "a tool call");
    if (!call) return;
    const fn = asRecord(call.function);
    const custom = asRecord(call.custom);
    const name = asString(fn?.name) ?? asString(custom?.name);
    if (name === undefined) {
      builder.warn("missing-name", "a tool call without a function name was skipped", callPath);
      return;
    }
    builder.addCall({
      name,
      // Custom tools take free text, not JSON arguments.
      arguments: fn ? fn.arguments : { input: custom?.input ?? "" },
      id: asId(call.id),
      path: callPath,
    });
  });
  const legacy = asRecord(message.function_call);
  if (legacy) {
    const name = asString(legacy.name);
    if (name === undefined)
      builder.warn(
        "missing-name",
        "a function_call without a name was skipped",
        at(path, "function_call"),
      );
    else builder.addCall({ name, arguments: legacy.arguments, path: at(path, "function_call") });
  }
}

/**
 * OpenAI Chat Completions messages: assistant `tool_calls` (JSON-string arguments, custom tools),
 * the legacy `function_call`, `tool` messages joined by `tool_call_id`, legacy `function`
 * messages joined by name; tools from a request's `tools` or `functions`.
 */
export function readOpenAIChat(input: unknown, builder: TrajectoryBuilder): void {
  const record = asRecord(input);
  if (record) {
    for (const tool of [
      ...readToolList(record.tools),
      ...readToolList(record.functions, "functions"),
    ])
      builder.addTool(tool);
  }
  const choices = record && asArray(record.choices);
  const { items, path } = choices
    ? { items: choices.map((choice) => asRecord(choice)?.message), path: "$.choices" }
    : messageList(input, ["messages"], "OpenAI chat");
  items.forEach((item, index) => {
    const messagePath = choices ? at(at(path, index), "message") : at(path, index);
    const message = builder.objectAt(item, messagePath, "a message");
    if (!message) return;
    switch (message.role) {
      case "system":
      case "developer":
        return;
      case "user":
        builder.startTurn(textOf(message.content));
        return;
      case "assistant":
        builder.addReply(replyTextOf(message.content));
        // Logs that keep each response's usage on its message (and Anthropic's replies, which
        // read as chat when they made no calls).
        builder.addUsage(message.usage, message.model, at(messagePath, "usage"));
        builder.startStep();
        readToolCalls(message, messagePath, builder);
        builder.endStep();
        return;
      case "tool":
        builder.addResult({
          id: asId(message.tool_call_id),
          output: blocksOutput(message.content),
          isError: false,
          path: messagePath,
        });
        return;
      case "function":
        builder.addResult({
          name: asString(message.name),
          output: blocksOutput(message.content),
          isError: false,
          path: messagePath,
        });
        return;
      default:
        builder.unknownRole(message.role, messagePath);
    }
  });
  if (record) builder.addUsage(record.usage, record.model, "$.usage");
}
