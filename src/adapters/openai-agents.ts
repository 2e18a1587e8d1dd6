/**
 * The OpenAI Agents SDK (`@openai/agents`): a run's items in the SDK's own protocol, and the
 * traces it exports. Shapes as `packages/agents-core/src/types/protocol.ts`, `items.ts` and
 * `tracing/spans.ts` of openai/openai-agents-js define them.
 */
import {
  asArray,
  asId,
  asRecord,
  asString,
  at,
  blocksOutput,
  datesMs,
  jsonOrText,
  replyTextOf,
  textOf,
} from "./read.js";
import type { Record_ } from "./read.js";
import { InvalidInputError } from "../core/errors.js";
import { builtInArguments, builtInOutput } from "./openai-responses.js";
import { readToolSpecs } from "./tool-spec.js";
import type { TrajectoryBuilder } from "./trajectory-builder.js";

/** Whether an object is one of the SDK's exported trace records (a span or its trace). */
export function isAgentsTraceRecord(value: unknown): boolean {
  const object = asRecord(value)?.object;
  return object === "trace.span" || object === "trace";
}

/**
 * The items of a run in whatever holds them: a list (a history, `result.newItems`), a saved
 * result or state (`history`, `newItems`, `items`), or an export batch (`data`).
 */
function itemsOf(input: unknown): { items: unknown[]; path: string } {
  const list = asArray(input);
  if (list) return { items: list, path: "$" };
  const record = asRecord(input) ?? {};
  for (const key of ["history", "newItems", "items", "data"]) {
    const items = asArray(record[key]);
    if (items) return { items, path: `$.${key}` };
  }
  return { items: [input], path: "$" };
}

/**
 * A run of the OpenAI Agents SDK, as items of its protocol (`result.history`, a session's items):
 * `function_call` / `function_call_result` joined by `callId`, `hosted_tool_call` (web and file
 * search, code interpreter, image generation, and MCP calls with their server's tools),
 * computer, shell, apply-patch, tool-search and program calls with their results, and messages;
 * or as run items (`{ type: "tool_call_item", rawItem }`, `handoff_call_item`, ...), each read as
 * its `rawItem`. A handoff is the call of its handoff tool (`transfer_to_<agent>`), as the model
 * made it. Or the traces it exports (`trace.span` records): function spans are calls with their
 * output (an error when the span has one), handoff spans calls of `transfer_to_<agent>`.
 */
export function readOpenAIAgents(input: unknown, builder: TrajectoryBuilder): void {
  const { items, path } = itemsOf(input);
  if (items.some(isAgentsTraceRecord)) {
    readTrace(items, path, builder);
    return;
  }
  items.forEach((value, index) => {
    const itemPath = at(path, index);
    const item = builder.objectAt(value, itemPath, "an item");
    if (!item) return;
    // A run item holds the protocol item it stands for.
    const raw = asRecord(item.rawItem);
    if (raw !== undefined) {
      if (item.type === "tool_approval_item") {
        builder.warn(
          "unknown-block",
          "a tool call waiting for approval was skipped (it ran only if a later item shows it)",
          itemPath,
        );
        return;
      }
      readItem(raw, at(itemPath, "rawItem"), builder);
      return;
    }
    readItem(item, itemPath, builder);
  });
}

/**
 * A function tool's output: a string, one output part (`{ type: "text", text }` is its text; an
 * image or a file is kept as it is), or a list of `input_*` parts (text parts joined).
 */
function toolOutputOf(output: unknown): unknown {
  const part = asRecord(output);
  if (part?.type === "text" && typeof part.text === "string") return part.text;
  return blocksOutput(output);
}

/** Calls of a step go together until a result or a message comes between them. */
function inStep(builder: TrajectoryBuilder): void {
  if (!builder.stepIsOpen) builder.startStep();
}

/** The id that joins a call to its result: `callId` in the SDK, `call_id` where it keeps the wire's. */
const callIdOf = (item: Record_) => asId(item.callId) ?? asId(item.call_id) ?? asId(item.id);

/** The calls of the SDK's own tools, by item type: the tool's name and its arguments. */
const ownCalls: ReadonlyMap<string, { name: string; args: (item: Record_) => unknown }> = new Map([
  [
    "computer_call",
    {
      name: "computer",
      args: (item: Record_) =>
        asArray(item.actions) ? { actions: item.actions } : (item.action ?? {}),
    },
  ],
  ["shell_call", { name: "shell", args: (item: Record_) => item.action ?? {} }],
  ["apply_patch_call", { name: "apply_patch", args: (item: Record_) => item.operation ?? {} }],
  [
    "program",
    { name: "programmatic_tool_calling", args: (item: Record_) => ({ code: item.code ?? "" }) },
  ],
  [
    "tool_search_call",
    {
      name: "tool_search",
      args: (item: Record_) => asRecord(item.arguments) ?? { arguments: item.arguments ?? null },
    },
  ],
]);

const ownResults: ReadonlySet<string> = new Set([
  "computer_call_result",
  "shell_call_output",
  "apply_patch_call_output",
  "program_output",
  "tool_search_output",
]);

function readItem(item: Record_, itemPath: string, builder: TrajectoryBuilder): void {
  const type = asString(item.type) ?? (item.role !== undefined ? "message" : undefined);
  switch (type) {
    case "message":
      builder.endStep();
      if (item.role === "user") builder.startTurn(textOf(item.content));
      else if (item.role === "assistant") builder.addReply(replyTextOf(item.content));
      else if (item.role !== "system") builder.unknownRole(item.role, itemPath);
      return;
    case "reasoning":
    case "compaction":
      return;
    case "function_call": {
      const name = asString(item.name);
      if (name === undefined) {
        builder.warn("missing-name", "a function_call without a name was skipped", itemPath);
        return;
      }
      inStep(builder);
      builder.addCall({ name, arguments: item.arguments, id: callIdOf(item), path: itemPath });
      return;
    }
    case "function_call_result":
      builder.endStep();
      builder.addResult({
        id: callIdOf(item),
        name: asString(item.name),
        output: toolOutputOf(item.output),
        isError: false,
        path: itemPath,
      });
      return;
    case "hosted_tool_call":
      readHostedCall(item, itemPath, builder);
      return;
  }
  if (type === undefined) {
    builder.warn("unknown-block", "an item without a type was skipped", itemPath);
    return;
  }
  const own = ownCalls.get(type);
  if (own !== undefined) {
    inStep(builder);
    builder.addCall({
      name: own.name,
      arguments: own.args(item),
      id: callIdOf(item),
      path: itemPath,
    });
    return;
  }
  if (ownResults.has(type)) {
    builder.endStep();
    builder.addResult({
      id: callIdOf(item),
      output:
        type === "tool_search_output"
          ? { tools: item.tools ?? [] }
          : blocksOutput(item.output ?? null),
      isError: item.status === "failed",
      path: itemPath,
    });
    return;
  }
  builder.warn("unknown-block", `an item of type ${JSON.stringify(type)} was skipped`, itemPath);
}

/**
 * A tool the model provider runs (`hosted_tool_call`): the SDK names it by the Responses API's
 * item type and keeps that item in `providerData`. MCP calls are named by their MCP tool; an MCP
 * server's tool list gives tools; an approval request is not a call.
 */
function readHostedCall(item: Record_, itemPath: string, builder: TrajectoryBuilder): void {
  const kind = asString(item.name) ?? "hosted_tool";
  const data = asRecord(item.providerData) ?? {};
  if (kind === "mcp_list_tools") {
    asArray(data.tools)?.forEach((tool, index) => {
      for (const spec of readToolSpecs(tool, at(at(at(itemPath, "providerData"), "tools"), index)))
        builder.addTool(spec);
    });
    return;
  }
  if (kind === "mcp_approval_request") return;
  inStep(builder);
  const failed = item.status === "failed" || item.status === "incomplete";
  if (kind === "mcp_call") {
    const error = data.error ?? undefined;
    builder.addCall({
      name: asString(data.name) ?? kind,
      arguments: data.arguments ?? item.arguments,
      id: asId(item.id) ?? asId(data.id),
      type: "MCP",
      path: itemPath,
      result: { output: error ?? item.output ?? null, isError: error !== undefined || failed },
    });
    return;
  }
  builder.addCall({
    name: kind.endsWith("_call") ? kind.slice(0, -"_call".length) : kind,
    arguments: item.arguments !== undefined ? item.arguments : builtInArguments(data),
    id: asId(item.id),
    path: itemPath,
    result: {
      output: item.output !== undefined ? jsonOrText(item.output) : builtInOutput(data),
      isError: failed,
    },
  });
}

/** The traces an export's spans belong to, each once, in the order the spans first name them. */
function traceIdsIn(items: readonly unknown[]): string[] {
  const ids = new Set<string>();
  for (const item of items) {
    const record = asRecord(item);
    const id = record?.object === "trace.span" ? asString(record.trace_id) : undefined;
    if (id !== undefined) ids.add(id);
  }
  return [...ids];
}

/** The traces of an Agents SDK trace export (a list of records, or the exporter's `{ data }`). */
export function agentsTraceIds(input: unknown): string[] {
  return traceIdsIn(itemsOf(input).items);
}

/** The default name of the tool that hands off to an agent, as the SDK makes it. */
export function handoffToolName(agent: string): string {
  return `transfer_to_${agent.replace(/\s/g, "_").replace(/[^a-zA-Z0-9]/g, "_")}`;
}

/**
 * Exported spans in the order they started: function spans (calls, their input the arguments,
 * their output, `error` an error) and handoff spans (the handoff tool's call). Other spans
 * (agent, generation, response, guardrail) hold no call.
 */
function readTrace(items: readonly unknown[], path: string, builder: TrajectoryBuilder): void {
  const all = items
    .map((value, index) => ({ span: asRecord(value), path: at(path, index) }))
    .filter(
      (entry): entry is { span: Record_; path: string } => entry.span?.object === "trace.span",
    );
  const ids = traceIdsIn(items);
  const chosen = builder.traceId;
  if (chosen !== undefined && !ids.includes(chosen)) {
    throw new InvalidInputError({
      field: "traceId",
      message: `no span belongs to trace ${JSON.stringify(chosen)}; the traces are ${ids.map((id) => JSON.stringify(id)).join(", ")}`,
    });
  }
  if (chosen === undefined && ids.length > 1) {
    builder.warn(
      "several-traces",
      `the spans belong to ${ids.length} traces, read here as one run; choose one with traceId (toolscore dataset makes a case of each)`,
      path,
    );
  }
  const own = all.filter((entry) => chosen === undefined || entry.span.trace_id === chosen);
  // The run's root: the first span without a parent among its trace's.
  const rootSpan = own
    .filter((entry) => entry.span.parent_id === null || entry.span.parent_id === undefined)
    .sort((a, b) =>
      (asString(a.span.started_at) ?? "").localeCompare(asString(b.span.started_at) ?? ""),
    )
    .at(0)?.span;
  const rootTrace = rootSpan === undefined ? undefined : asString(rootSpan.trace_id);
  const rootId = rootSpan === undefined ? undefined : asId(rootSpan.id);
  if (rootTrace !== undefined && rootId !== undefined && (chosen !== undefined || ids.length === 1))
    builder.setTrace({ traceId: rootTrace, spanId: rootId });
  const runMs =
    rootSpan === undefined ? undefined : datesMs(rootSpan.started_at, rootSpan.ended_at);
  if (runMs !== undefined) builder.setDuration(runMs);
  const spans = own
    .map((entry, order) => ({ ...entry, order }))
    .sort(
      (a, b) =>
        (asString(a.span.started_at) ?? "").localeCompare(asString(b.span.started_at) ?? "") ||
        a.order - b.order,
    );
  for (const { span, path: spanPath } of spans) {
    const data = asRecord(span.span_data);
    if (data === undefined) {
      builder.warn("unknown-block", "a span without span_data was skipped", spanPath);
      continue;
    }
    const error = asRecord(span.error);
    // A model call's tokens: generation spans carry them, response spans in later SDKs.
    if (data.type === "generation" || data.type === "response") {
      builder.addUsage(
        data.usage ?? asRecord(data.response)?.usage,
        data.model ?? asRecord(data.response)?.model,
        at(spanPath, "span_data"),
      );
    }
    if (data.type === "function") {
      const name = asString(data.name);
      if (name === undefined) {
        builder.warn("missing-name", "a function span without a name was skipped", spanPath);
        continue;
      }
      builder.addCall({
        name,
        arguments: data.input === "" ? undefined : data.input,
        id: asId(span.id),
        ...(data.mcp_data === undefined ? {} : { type: "MCP" as const }),
        path: spanPath,
        durationMs: datesMs(span.started_at, span.ended_at),
        result: {
          output: error !== undefined ? (error.message ?? error) : (data.output ?? null),
          isError: error !== undefined,
        },
      });
    } else if (data.type === "handoff") {
      const to = asString(data.to_agent);
      if (to === undefined) {
        builder.warn("missing-name", "a handoff span without to_agent was skipped", spanPath);
        continue;
      }
      builder.addCall({
        name: handoffToolName(to),
        arguments: {},
        id: asId(span.id),
        path: spanPath,
        result: { output: JSON.stringify({ assistant: to }), isError: error !== undefined },
      });
    }
  }
}
