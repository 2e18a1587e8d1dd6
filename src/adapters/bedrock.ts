import { asArray, asId, asRecord, asString, at, messageList, replyTextOf, textOf } from "./read.js";
import { readToolList } from "./tool-spec.js";
import type { TrajectoryBuilder } from "./trajectory-builder.js";

/** A Bedrock tool result's content: one block is its value, text blocks are joined, else a list. */
function toolResultOutput(content: unknown): unknown {
  const blocks = asArray(content);
  if (!blocks) return content ?? null;
  const values = blocks.map((block) => {
    const record = asRecord(block);
    if (!record) return block;
    if (record.json !== undefined) return record.json;
    if (record.text !== undefined) return record.text;
    return record;
  });
  if (values.length === 1) return values[0];
  if (values.length > 0 && values.every((value) => typeof value === "string"))
    return values.join("\n");
  return values;
}

/**
 * Amazon Bedrock Converse: `toolUse` blocks and `toolResult` blocks (with `status: "error"`)
 * joined by `toolUseId`; the `output.message` of a response; tools from `toolConfig.tools`.
 */
export function readBedrock(input: unknown, builder: TrajectoryBuilder): void {
  const record = asRecord(input);
  const toolConfig = record && asRecord(record.toolConfig);
  if (toolConfig)
    for (const tool of readToolList(toolConfig.tools, "toolConfig.tools")) builder.addTool(tool);
  const responseMessage = record && asRecord(asRecord(record.output)?.message);
  readBedrockMessages(input, builder, responseMessage);
  if (record) builder.addUsage(record.usage, record.modelId, "$.usage");
}

function readBedrockMessages(
  input: unknown,
  builder: TrajectoryBuilder,
  responseMessage: Record<string, unknown> | undefined,
): void {
  const { items, path } = responseMessage
    ? { items: [responseMessage], path: "$.output.message" }
    : messageList(input, ["messages"], "Bedrock");
  items.forEach((item, index) => {
    const messagePath = responseMessage ? path : at(path, index);
    const message = builder.objectAt(item, messagePath, "a message");
    if (!message) return;
    const role = message.role;
    if (role !== "user" && role !== "assistant") {
      builder.unknownRole(role, messagePath);
      return;
    }
    const blocks = asArray(message.content) ?? [];
    if (role === "user") {
      const userContent = blocks.filter((block) => asRecord(block)?.toolResult === undefined);
      if (userContent.length > 0) builder.startTurn(textOf(userContent));
    } else {
      builder.addReply(replyTextOf(blocks));
      builder.startStep();
    }
    blocks.forEach((value, blockIndex) => {
      const blockPath = at(at(messagePath, "content"), blockIndex);
      const block = builder.objectAt(value, blockPath, "a content block");
      if (!block) return;
      const toolUse = asRecord(block.toolUse);
      if (toolUse) {
        const name = asString(toolUse.name);
        if (name === undefined)
          builder.warn("missing-name", "a toolUse without a name was skipped", blockPath);
        else
          builder.addCall({
            name,
            arguments: toolUse.input ?? {},
            id: asId(toolUse.toolUseId),
            path: blockPath,
          });
        return;
      }
      const toolResult = asRecord(block.toolResult);
      if (toolResult) {
        builder.addResult({
          id: asId(toolResult.toolUseId),
          output: toolResultOutput(toolResult.content),
          isError: toolResult.status === "error",
          path: blockPath,
        });
        return;
      }
      const known = [
        "text",
        "image",
        "document",
        "video",
        "reasoningContent",
        "cachePoint",
        "guardContent",
        "citationsContent",
      ];
      if (!Object.keys(block).some((key) => known.includes(key))) {
        builder.warn(
          "unknown-block",
          `a content block with keys ${JSON.stringify(Object.keys(block))} was skipped`,
          blockPath,
        );
      }
    });
    if (role === "assistant") builder.endStep();
  });
}
