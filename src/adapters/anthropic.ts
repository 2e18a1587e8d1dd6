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
import { readToolList } from "./tool-spec.js";
import type { TrajectoryBuilder } from "./trajectory-builder.js";

/** Whether a server tool's result content reports an error (`web_search_tool_result_error`, ...). */
function serverResultIsError(content: unknown): boolean {
  const record = asRecord(content);
  const type = record && asString(record.type);
  return type !== undefined && type.endsWith("_error");
}

/**
 * Anthropic Messages: `tool_use` blocks and `tool_result` blocks (with `is_error`) joined by id,
 * server tools (`server_tool_use` and any `*_tool_result`, whose `*_error` content marks an
 * error), MCP connector blocks (`mcp_tool_use`, `mcp_tool_result`); tools from a request's
 * `tools` (`input_schema`). A user message that holds only tool results does not open a turn.
 */
export function readAnthropic(input: unknown, builder: TrajectoryBuilder): void {
  const record = asRecord(input);
  if (record) for (const tool of readToolList(record.tools)) builder.addTool(tool);
  // A request names its model; a message names its own below.
  if (record && Array.isArray(record.messages)) builder.addUsage(undefined, record.model, "$");
  const { items, path } = messageList(input, ["messages"], "Anthropic");
  items.forEach((item, index) => {
    const messagePath = at(path, index);
    const message = builder.objectAt(item, messagePath, "a message");
    if (!message) return;
    const role = message.role;
    if (role !== "user" && role !== "assistant") {
      builder.unknownRole(role, messagePath);
      return;
    }
    if (role === "assistant") {
      builder.addReply(replyTextOf(message.content));
      builder.addUsage(message.usage, message.model, at(messagePath, "usage"));
    }
    const blocks = asArray(message.content);
    if (!blocks) {
      if (role === "user") builder.startTurn(textOf(message.content));
      return;
    }
    if (role === "user") {
      const userContent = blocks.filter((block) => {
        const type = asRecord(block)?.type;
        return type !== "tool_result" && type !== "mcp_tool_result";
      });
      if (userContent.length > 0) builder.startTurn(textOf(userContent));
    } else {
      builder.startStep();
    }
    blocks.forEach((value, blockIndex) => {
      const blockPath = at(at(messagePath, "content"), blockIndex);
      const block = builder.objectAt(value, blockPath, "a content block");
      if (!block) return;
      const type = asString(block.type) ?? "";
      switch (type) {
        case "tool_use":
        case "server_tool_use":
        case "mcp_tool_use": {
          const name = asString(block.name);
          if (name === undefined) {
            builder.warn("missing-name", `a ${type} block without a name was skipped`, blockPath);
            return;
          }
          builder.addCall({
            name,
            arguments: block.input,
            id: asId(block.id),
            type: type === "mcp_tool_use" ? "MCP" : "FUNCTION",
            path: blockPath,
          });
          return;
        }
        case "tool_result":
        case "mcp_tool_result":
          builder.addResult({
            id: asId(block.tool_use_id),
            output: blocksOutput(block.content ?? null),
            isError: block.is_error === true,
            path: blockPath,
          });
          return;
        case "text":
        case "thinking":
        case "redacted_thinking":
        case "image":
        case "document":
        case "search_result":
        case "container_upload":
          return;
      }
      if (type.endsWith("_tool_result")) {
        builder.addResult({
          id: asId(block.tool_use_id),
          output: block.content ?? null,
          isError: serverResultIsError(block.content),
          path: blockPath,
        });
        return;
      }
      builder.warn(
        "unknown-block",
        `a content block of type ${JSON.stringify(type)} was skipped`,
        blockPath,
      );
    });
    if (role === "assistant") builder.endStep();
  });
}
