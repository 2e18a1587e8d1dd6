import { asArray, asId, asRecord, asString, at, messageList, replyTextOf, textOf } from "./read.js";
import type { Record_ } from "./read.js";
import { readToolList } from "./tool-spec.js";
import type { RawResult, TrajectoryBuilder } from "./trajectory-builder.js";

/** A tool result part's output: v5+ `{type, value}` outputs, or v4's `result` with `isError`. */
function resultOutput(part: Record_): RawResult {
  const output = asRecord(part.output);
  const type = output && asString(output.type);
  if (output && type !== undefined && ("value" in output || type === "execution-denied")) {
    switch (type) {
      case "error-text":
      case "error-json":
        return { output: output.value ?? null, isError: true };
      case "execution-denied":
        return { output: asString(output.reason) ?? "denied", isError: true };
      default:
        return { output: output.value ?? null, isError: false };
    }
  }
  const value = part.output !== undefined ? part.output : part.result;
  return { output: value ?? null, isError: part.isError === true };
}

function errorText(error: unknown): unknown {
  const record = asRecord(error);
  return (record && asString(record.message)) ?? error ?? null;
}

/** One tool-call content part (`tool-call`, with v5+ `input` or v4 `args`). */
function addCallPart(part: Record_, path: string, builder: TrajectoryBuilder): void {
  const name = asString(part.toolName);
  if (name === undefined) {
    builder.warn("missing-name", "a tool-call part without a toolName was skipped", path);
    return;
  }
  builder.addCall({
    name,
    arguments: part.input !== undefined ? part.input : part.args,
    id: asId(part.toolCallId),
    path,
    // v5+ marks calls whose input failed validation, or that name no known tool.
    invalid:
      part.invalid === true
        ? (asString(asRecord(part.error)?.message) ?? "the AI SDK rejected them")
        : undefined,
  });
}

function readContentParts(parts: unknown[], path: string, builder: TrajectoryBuilder): void {
  parts.forEach((value, index) => {
    const partPath = at(path, index);
    const part = asRecord(value);
    if (!part) return;
    switch (part.type) {
      case "tool-call":
        addCallPart(part, partPath, builder);
        return;
      case "tool-result":
        builder.addResult({
          id: asId(part.toolCallId),
          name: asString(part.toolName),
          ...resultOutput(part),
          path: partPath,
        });
        return;
      case "tool-error":
        builder.addResult({
          id: asId(part.toolCallId),
          name: asString(part.toolName),
          output: errorText(part.error),
          isError: true,
          path: partPath,
        });
        return;
    }
  });
}

/** generateText / streamText results: `{steps}` or a list of step results. */
function readSteps(steps: unknown[], path: string, builder: TrajectoryBuilder): void {
  steps.forEach((value, index) => {
    const stepPath = at(path, index);
    const step = builder.objectAt(value, stepPath, "a step");
    if (!step) return;
    builder.startStep();
    builder.addUsage(
      step.usage,
      asRecord(step.response)?.modelId ?? step.model,
      at(stepPath, "usage"),
    );
    const content = asArray(step.content);
    if (content) {
      readContentParts(content, at(stepPath, "content"), builder);
    } else {
      asArray(step.toolCalls)?.forEach((call, callIndex) => {
        const record = asRecord(call);
        if (record) addCallPart(record, at(at(stepPath, "toolCalls"), callIndex), builder);
      });
      asArray(step.toolResults)?.forEach((result, resultIndex) => {
        const record = asRecord(result);
        if (!record) return;
        builder.addResult({
          id: asId(record.toolCallId),
          name: asString(record.toolName),
          ...resultOutput(record),
          path: at(at(stepPath, "toolResults"), resultIndex),
        });
      });
    }
    builder.endStep();
  });
}

/** A UI tool part's call and, by its state, its result. */
function readToolInvocation(
  name: string,
  invocation: Record_,
  path: string,
  builder: TrajectoryBuilder,
): void {
  const state = asString(invocation.state);
  let result: RawResult | undefined;
  switch (state) {
    case "output-available":
      result = { output: invocation.output ?? null, isError: false };
      break;
    case "output-error":
      result = { output: invocation.errorText ?? null, isError: true };
      break;
    case "output-denied":
      builder.warn("denied-call", `the call to ${name} was denied`, path);
      result = {
        output: asString(asRecord(invocation.approval)?.reason) ?? "denied",
        isError: true,
      };
      break;
    case "result": // v4
      result = { output: invocation.result ?? null, isError: false };
      break;
  }
  builder.addCall({
    name,
    arguments: invocation.input !== undefined ? invocation.input : invocation.args,
    id: asId(invocation.toolCallId),
    path,
    result,
  });
}

function readUiParts(parts: unknown[], path: string, builder: TrajectoryBuilder): void {
  builder.startStep();
  parts.forEach((value, index) => {
    const partPath = at(path, index);
    const part = asRecord(value);
    if (!part) return;
    const type = asString(part.type) ?? "";
    if (type === "step-start") {
      builder.startStep();
    } else if (type === "dynamic-tool") {
      const name = asString(part.toolName);
      if (name === undefined)
        builder.warn(
          "missing-name",
          "a dynamic-tool part without a toolName was skipped",
          partPath,
        );
      else readToolInvocation(name, part, partPath, builder);
    } else if (type === "tool-invocation") {
      const invocation = asRecord(part.toolInvocation);
      const name = invocation && asString(invocation.toolName);
      if (!invocation || name === undefined)
        builder.warn(
          "missing-name",
          "a tool-invocation part without a toolName was skipped",
          partPath,
        );
      else readToolInvocation(name, invocation, partPath, builder);
    } else if (type.startsWith("tool-")) {
      readToolInvocation(type.slice("tool-".length), part, partPath, builder);
    }
  });
  builder.endStep();
}

function readMessages(items: unknown[], path: string, builder: TrajectoryBuilder): void {
  items.forEach((value, index) => {
    const messagePath = at(path, index);
    const message = builder.objectAt(value, messagePath, "a message");
    if (!message) return;
    // Mastra keeps a UI message's parts (and v4 toolInvocations) under `content`.
    const nested = asRecord(message.content);
    const parts =
      asArray(message.parts) ?? (nested === undefined ? undefined : asArray(nested.parts));
    const partsPath = at(
      message.parts === undefined ? at(messagePath, "content") : messagePath,
      "parts",
    );
    const content = asArray(message.content);
    switch (message.role) {
      case "system":
        return;
      case "user":
        builder.startTurn(textOf(parts ?? message.content));
        return;
      case "assistant": {
        builder.addReply(replyTextOf(parts ?? message.content));
        const invocations = asArray(message.toolInvocations ?? nested?.toolInvocations); // v4 UI messages
        if (parts && (parts.length > 0 || invocations === undefined)) {
          readUiParts(parts, partsPath, builder);
          return;
        }
        if (invocations) {
          builder.startStep();
          invocations.forEach((invocation, i) => {
            const record = asRecord(invocation);
            const name = record && asString(record.toolName);
            if (record && name !== undefined)
              readToolInvocation(name, record, at(at(messagePath, "toolInvocations"), i), builder);
          });
          builder.endStep();
          return;
        }
        builder.startStep();
        if (content) readContentParts(content, at(messagePath, "content"), builder);
        builder.endStep();
        return;
      }
      case "tool":
        if (content) readContentParts(content, at(messagePath, "content"), builder);
        return;
      default:
        builder.unknownRole(message.role, messagePath);
    }
  });
}

/**
 * The Vercel AI SDK: step results (`{steps}` from generateText, or a list of them; v5+ `content`
 * parts with `tool-call`, `tool-result` and `tool-error`, or `toolCalls` / `toolResults`), model
 * messages (`tool-call` parts with v5+ `input` or v4 `args`; `tool-result` parts with v5+ typed
 * `output` or v4 `result`), and UI messages (`tool-<name>` and `dynamic-tool` parts by state,
 * `output-error` and `output-denied` included; `step-start` boundaries; v4 `toolInvocations`).
 * Mastra's stored messages are UI messages with their parts under `content` (`format` 2 or 3):
 * the `mastra` format reads them here.
 */
export function readAiSdk(input: unknown, builder: TrajectoryBuilder): void {
  const record = asRecord(input);
  if (record) for (const tool of readToolList(record.tools)) builder.addTool(tool);
  const steps = record && asArray(record.steps);
  if (steps) {
    readSteps(steps, "$.steps", builder);
    return;
  }
  const { items, path } = messageList(input, ["messages"], "AI SDK");
  const first = asRecord(items[0]);
  if (
    first &&
    first.role === undefined &&
    (first.toolCalls !== undefined ||
      first.content !== undefined ||
      first.toolResults !== undefined)
  ) {
    readSteps(items, path, builder);
    return;
  }
  readMessages(items, path, builder);
}
