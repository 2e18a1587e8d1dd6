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

const kinds: Record<
  string,
  "assistant" | "user" | "tool" | "system" | "function" | "chat" | "remove"
> = {
  ai: "assistant",
  AIMessage: "assistant",
  AIMessageChunk: "assistant",
  human: "user",
  HumanMessage: "user",
  HumanMessageChunk: "user",
  tool: "tool",
  ToolMessage: "tool",
  ToolMessageChunk: "tool",
  system: "system",
  SystemMessage: "system",
  SystemMessageChunk: "system",
  function: "function",
  FunctionMessage: "function",
  chat: "chat",
  ChatMessage: "chat",
  remove: "remove",
  RemoveMessage: "remove",
};

const roles: Record<string, "assistant" | "user" | "tool" | "system"> = {
  assistant: "assistant",
  ai: "assistant",
  user: "user",
  human: "user",
  tool: "tool",
  system: "system",
  developer: "system",
};

/** The kind and fields of a message in any of LangChain's dictionary forms. */
function unwrap(message: Record_): { kind: string | undefined; fields: Record_ } {
  // The serializable constructor form: { lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs }.
  if (message.lc !== undefined && message.type === "constructor") {
    const id = asArray(message.id);
    return { kind: asString(id?.[id.length - 1]), fields: asRecord(message.kwargs) ?? {} };
  }
  // messages_to_dict: { type: "ai", data: { content, tool_calls, ... } }.
  const data = asRecord(message.data);
  if (data && typeof message.type === "string" && message.content === undefined) {
    return { kind: message.type, fields: data };
  }
  return { kind: asString(message.type), fields: message };
}

function readCalls(fields: Record_, path: string, builder: TrajectoryBuilder): void {
  const toolCalls = asArray(fields.tool_calls);
  const invalid = asArray(fields.invalid_tool_calls);
  toolCalls?.forEach((value, index) => {
    const callPath = at(at(path, "tool_calls"), index);
    const call = asRecord(value);
    const name = call && asString(call.name);
    if (!call || name === undefined) {
      builder.warn("missing-name", "a tool call without a name was skipped", callPath);
      return;
    }
    builder.addCall({ name, arguments: call.args ?? {}, id: asId(call.id), path: callPath });
  });
  invalid?.forEach((value, index) => {
    const callPath = at(at(path, "invalid_tool_calls"), index);
    const call = asRecord(value);
    const name = call && asString(call.name);
    if (!call || name === undefined) {
      builder.warn("missing-name", "an invalid tool call without a name was skipped", callPath);
      return;
    }
    // LangChain keeps the raw argument text of calls it could not parse, and says why.
    builder.addCall({
      name,
      arguments: call.args ?? "",
      id: asId(call.id),
      path: callPath,
      invalid: asString(call.error) ?? "LangChain could not parse them",
    });
  });
  if (toolCalls === undefined && invalid === undefined) {
    // Older messages carry OpenAI's format in additional_kwargs.
    const legacy = asArray(asRecord(fields.additional_kwargs)?.tool_calls);
    legacy?.forEach((value, index) => {
      const callPath = at(at(at(path, "additional_kwargs"), "tool_calls"), index);
      const fn = asRecord(asRecord(value)?.function);
      const name = fn && asString(fn.name);
      if (!fn || name === undefined) {
        builder.warn("missing-name", "a tool call without a name was skipped", callPath);
        return;
      }
      builder.addCall({
        name,
        arguments: fn.arguments,
        id: asId(asRecord(value)?.id),
        path: callPath,
      });
    });
  }
}

/**
 * LangChain messages as dictionaries: plain (`{type: "ai", tool_calls: [{name, args, id}]}`),
 * `messages_to_dict` (`{type, data}`), or the serialized constructor form (`{lc: 1, type:
 * "constructor", id: [..., "AIMessage"], kwargs}`); `invalid_tool_calls` keep their raw text;
 * tool messages join by `tool_call_id`, with `status: "error"` marking errors.
 */
export function readLangChain(input: unknown, builder: TrajectoryBuilder): void {
  const record = asRecord(input);
  if (record) for (const tool of readToolList(record.tools)) builder.addTool(tool);
  const { items, path } = messageList(input, ["messages"], "LangChain");
  items.forEach((item, index) => {
    const messagePath = at(path, index);
    const message = builder.objectAt(item, messagePath, "a message");
    if (!message) return;
    const { kind, fields } = unwrap(message);
    // ChatMessage, and dicts that name a role instead of a type (LangGraph state, to_openai-like
    // dumps with LangChain's tool_calls), say who spoke in `role`.
    let role = kind === undefined ? undefined : kinds[kind];
    if (role === "chat" || kind === undefined) role = roles[asString(fields.role) ?? ""];
    switch (role) {
      case "system":
      case "remove":
        return;
      case "user":
        builder.startTurn(textOf(fields.content));
        return;
      case "assistant":
        builder.addReply(replyTextOf(fields.content));
        builder.addUsage(
          fields.usage_metadata,
          asRecord(fields.response_metadata)?.model_name ??
            asRecord(fields.response_metadata)?.model,
          at(messagePath, "usage_metadata"),
        );
        builder.startStep();
        readCalls(fields, messagePath, builder);
        builder.endStep();
        return;
      case "tool":
        builder.addResult({
          id: asId(fields.tool_call_id),
          name: asString(fields.name),
          output: blocksOutput(fields.content ?? null),
          isError: fields.status === "error",
          path: messagePath,
        });
        return;
      case "function":
        builder.addResult({
          name: asString(fields.name),
          output: blocksOutput(fields.content ?? null),
          isError: false,
          path: messagePath,
        });
        return;
      default:
        builder.warn(
          "unknown-role",
          `a message of type ${JSON.stringify(kind)} was skipped`,
          messagePath,
        );
    }
  });
}
