/**
 * Mastra: its stored messages (read by the AI SDK reader: UI messages with their parts under
 * `content`) and its AI tracing spans, as an exporter hands them over (`type`, `startTime`,
 * `errorInfo`) or its storage keeps them (`spanType`, `startedAt`, `error`), per
 * mastra-ai/mastra's `AISpanType` and span attributes.
 */
import { readAiSdk } from "./ai-sdk.js";
import { asArray, asId, asRecord, asString, at, datesMs } from "./read.js";
import type { Record_ } from "./read.js";
import type { TrajectoryBuilder } from "./trajectory-builder.js";

/** Mastra's AI span types (`AISpanType`): what tells its spans from other exports'. */
const spanTypes: ReadonlySet<string> = new Set([
  "agent_run",
  "generic",
  "llm_generation",
  "llm_chunk",
  "mcp_tool_call",
  "tool_call",
  "workflow_run",
  "workflow_step",
  "workflow_conditional",
  "workflow_conditional_eval",
  "workflow_parallel",
  "workflow_loop",
  "workflow_sleep",
  "workflow_wait_event",
]);

const typeOf = (span: Record_) => asString(span.spanType) ?? asString(span.type);

/** Whether a value is one of Mastra's AI tracing spans. */
export function isMastraSpan(value: unknown): boolean {
  const record = asRecord(value);
  const type = record === undefined ? undefined : typeOf(record);
  return (
    record !== undefined &&
    type !== undefined &&
    spanTypes.has(type) &&
    typeof record.traceId === "string"
  );
}

/** Mastra's spans: a list, or `{ spans }` as its storage lists them. */
function spansOf(input: unknown): { items: unknown[]; path: string } | undefined {
  const list = asArray(input);
  if (list?.some(isMastraSpan)) return { items: list, path: "$" };
  const spans = asArray(asRecord(input)?.spans);
  if (spans?.some(isMastraSpan)) return { items: spans, path: "$.spans" };
  return undefined;
}

/**
 * Mastra: stored messages (see the AI SDK reader), or AI tracing spans: `tool_call` and
 * `mcp_tool_call` spans by start time are the calls (the tool's id, else the span's name; the
 * input the arguments; the output, or the error, which marks an error), and the trace's root span
 * is where its scores belong. Spans of several traces are read as one run, with a warning.
 */
export function readMastra(input: unknown, builder: TrajectoryBuilder): void {
  const found = spansOf(input);
  if (found === undefined) {
    readAiSdk(input, builder);
    return;
  }
  const spans = found.items
    .map((value, index) => ({ span: asRecord(value), path: at(found.path, index), index }))
    .filter(
      (entry): entry is { span: Record_; path: string; index: number } =>
        entry.span !== undefined && isMastraSpan(entry.span),
    );
  const chosen = builder.traceId;
  const traces = [...new Set(spans.map(({ span }) => span.traceId as string))];
  const own = spans.filter(({ span }) => chosen === undefined || span.traceId === chosen);
  if (chosen === undefined && traces.length > 1) {
    builder.warn(
      "several-traces",
      `the spans belong to ${traces.length} traces, read here as one run; choose one with traceId`,
      found.path,
    );
  }
  const started = (span: Record_) => asString(span.startTime) ?? asString(span.startedAt) ?? "";
  own.sort((a, b) => started(a.span).localeCompare(started(b.span)) || a.index - b.index);
  const root = own.find(
    ({ span }) =>
      span.isRootSpan === true || span.parentSpanId === null || span.parentSpanId === undefined,
  )?.span;
  const rootId = root === undefined ? undefined : (asId(root.spanId) ?? asId(root.id));
  if (root !== undefined && rootId !== undefined && (chosen !== undefined || traces.length === 1))
    builder.setTrace({ traceId: root.traceId as string, spanId: rootId });
  const ended = (span: Record_) => span.endTime ?? span.endedAt;
  const runMs = root === undefined ? undefined : datesMs(started(root), ended(root));
  if (runMs !== undefined) builder.setDuration(runMs);
  for (const { span, path } of own) {
    const type = typeOf(span);
    const attributes = asRecord(span.attributes) ?? {};
    // A model call's tokens: the agent's run span does not repeat them.
    if (type === "model_generation" || type === "llm_generation")
      builder.addUsage(attributes.usage, attributes.model, at(path, "attributes"));
    if (type !== "tool_call" && type !== "mcp_tool_call") continue;
    const name = asString(attributes.toolId) ?? asString(span.name);
    if (name === undefined) {
      builder.warn("missing-name", "a tool span without a name was skipped", path);
      continue;
    }
    const error = span.errorInfo ?? span.error ?? undefined;
    const failed = error !== undefined || attributes.success === false;
    const message = asRecord(error)?.message;
    builder.addCall({
      name,
      arguments: span.input ?? {},
      id: asId(span.spanId) ?? asId(span.id),
      ...(type === "mcp_tool_call" ? { type: "MCP" as const } : {}),
      path,
      durationMs: datesMs(started(span), ended(span)),
      result: {
        output: error !== undefined ? (message ?? error) : (span.output ?? null),
        isError: failed,
      },
    });
  }
}

/** The traces of Mastra spans, each once, in the order the spans first name them. */
export function mastraTraceIds(input: unknown): string[] {
  const found = spansOf(input);
  if (found === undefined) return [];
  return [
    ...new Set(
      found.items.flatMap((item) => {
        const record = asRecord(item);
        return record !== undefined && isMastraSpan(record) ? [record.traceId as string] : [];
      }),
    ),
  ];
}
