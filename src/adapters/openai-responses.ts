import {
  asArray,
  asId,
  asRecord,
  asString,
  at,
  blocksOutput,
  replyTextOf,
  textOf,
} from "./read.js";
import type { Record_ } from "./read.js";
import { readToolList, readToolSpecs } from "./tool-spec.js";
import type { TrajectoryBuilder } from "./trajectory-builder.js";

function itemsOf(input: unknown): { items: unknown[]; path: string }[] {
  const list = asArray(input);
  if (list) return [{ items: list, path: "$" }];
  const record = asRecord(input);
  if (!record) return [{ items: [input], path: "$" }];
  const parts: { items: unknown[]; path: string }[] = [];
  if (typeof record.input === "string")
    parts.push({ items: [{ role: "user", content: record.input }], path: "$.input" });
  const inputItems = asArray(record.input);
  if (inputItems) parts.push({ items: inputItems, path: "$.input" });
  const output = asArray(record.output);
  if (output) parts.push({ items: output, path: "$.output" });
  if (parts.length === 0) parts.push({ items: [record], path: "$" });
  return parts;
}

/** The arguments of a built-in tool call: what the model asked the tool to do. */
export function builtInArguments(item: Record_): unknown {
  if (item.action !== undefined) return item.action;
  if (item.operation !== undefined) return item.operation;
  if (item.queries !== undefined) return { queries: item.queries };
  if (item.code !== undefined) return { code: item.code };
  return {};
}

/** The output a built-in tool call carries itself, when it does. */
export function builtInOutput(item: Record_): unknown {
  return item.outputs ?? item.results ?? item.result ?? item.output ?? null;
}

/**
 * OpenAI Responses API items, as a list or inside a request (`input`) or response (`output`):
 * `function_call` / `function_call_output` joined by `call_id`, `custom_tool_call`, `mcp_call`
 * (with its output or error), built-in tool calls (`web_search_call`, `file_search_call`,
 * `code_interpreter_call`, `image_generation_call`, `computer_call`, `local_shell_call`, and any
 * other `*_call` with its `*_call_output`), MCP approvals, and tools from `tools` and
 * `mcp_list_tools`. Consecutive calls with nothing between them form one step.
 */
export function readOpenAIResponses(input: unknown, builder: TrajectoryBuilder): void {
  readResponseItems(input, builder);
  // A response's usage, counted in the turn its output belongs to: the last.
  const record = asRecord(input);
  if (record) builder.addUsage(record.usage, record.model, "$.usage");
}

function readResponseItems(input: unknown, builder: TrajectoryBuilder): void {
  const record = asRecord(input);
  if (record) for (const tool of readToolList(record.tools)) builder.addTool(tool);
  const approvals = new Map<string, { name: string; arguments: unknown; path: string }>();

  for (const { items, path } of itemsOf(input)) {
    items.forEach((value, index) => {
      const itemPath = at(path, index);
      const item = builder.objectAt(value, itemPath, "an item");
      if (!item) return;
      const type = asString(item.type) ?? (item.role !== undefined ? "message" : undefined);
      if (type === undefined) {
        builder.warn("unknown-block", "an item without a type was skipped", itemPath);
        return;
      }
      const inStep = (): void => {
        if (!builder.stepIsOpen) builder.startStep();
      };
      switch (type) {
        case "message":
          builder.endStep();
          if (item.role === "user") builder.startTurn(textOf(item.content));
          else if (item.role === "assistant") builder.addReply(replyTextOf(item.content));
          else if (
            item.role !== "assistant" &&
            item.role !== "system" &&
            item.role !== "developer"
          ) {
            builder.unknownRole(item.role, itemPath);
          }
          return;
        case "reasoning":
        case "item_reference":
          return;
        case "function_call":
        case "custom_tool_call": {
          const name = asString(item.name);
          if (name === undefined) {
            builder.warn("missing-name", `a ${type} without a name was skipped`, itemPath);
            return;
          }
          inStep();
          builder.addCall({
            name,
            arguments: type === "function_call" ? item.arguments : { input: item.input ?? "" },
            id: asId(item.call_id) ?? asId(item.id),
            path: itemPath,
          });
          return;
        }
        case "mcp_call": {
          const name = asString(item.name);
          if (name === undefined) {
            builder.warn("missing-name", "an mcp_call without a name was skipped", itemPath);
            return;
          }
          inStep();
          const error = item.error ?? undefined;
          builder.addCall({
            name,
            arguments: item.arguments,
            id: asId(item.id),
            type: "MCP",
            path: itemPath,
            result: {
              output: error ?? item.output ?? null,
              isError: error !== undefined || item.status === "failed",
            },
          });
          return;
        }
        case "mcp_list_tools":
          asArray(item.tools)?.forEach((tool, toolIndex) => {
            for (const spec of readToolSpecs(tool, at(at(itemPath, "tools"), toolIndex)))
              builder.addTool(spec);
          });
          return;
        case "mcp_approval_request": {
          const id = asId(item.id);
          const name = asString(item.name);
          if (id !== undefined && name !== undefined)
            approvals.set(id, { name, arguments: item.arguments, path: itemPath });
          return;
        }
        case "mcp_approval_response": {
          const request = approvals.get(asId(item.approval_request_id) ?? "");
          if (request && item.approve === false) {
            builder.warn("denied-call", `the call to ${request.name} was denied`, itemPath);
            inStep();
            builder.addCall({
              name: request.name,
              arguments: request.arguments,
              type: "MCP",
              path: request.path,
              result: { output: asString(item.reason) ?? "denied", isError: true },
            });
          }
          return;
        }
        case "function_call_output":
        case "custom_tool_call_output":
          builder.endStep();
          builder.addResult({
            id: asId(item.call_id),
            output: blocksOutput(item.output),
            isError: item.status === "failed",
            path: itemPath,
          });
          return;
      }
      if (type.endsWith("_call_output")) {
        builder.endStep();
        builder.addResult({
          id: asId(item.call_id) ?? asId(item.id),
          output: blocksOutput(item.output ?? null),
          isError: item.status === "failed",
          path: itemPath,
        });
        return;
      }
      if (type.endsWith("_call")) {
        inStep();
        const id = asId(item.call_id) ?? asId(item.id);
        // computer, local shell, shell and apply-patch calls get a separate *_call_output item;
        // the others (web search, file search, code interpreter, image generation) carry theirs.
        const separateOutput = item.call_id !== undefined;
        builder.addCall({
          name: type.slice(0, -"_call".length),
          arguments: builtInArguments(item),
          id,
          path: itemPath,
          ...(separateOutput
            ? {}
            : {
                result: {
                  output: builtInOutput(item),
                  isError: item.status === "failed" || item.status === "incomplete",
                },
              }),
        });
        return;
      }
      builder.warn(
        "unknown-block",
        `an item of type ${JSON.stringify(type)} was skipped`,
        itemPath,
      );
    });
  }
}
