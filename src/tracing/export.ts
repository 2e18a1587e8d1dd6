import type { JsonObject, JsonValue } from "../core/json.js";
import {
  evaluationAttributes as eventAttributes,
  evaluationEventName,
  evaluationLogRecord,
  otlpLogs,
} from "../core/evaluation-events.js";
import type { MetricResult } from "../core/metric-result.js";
import type { ToolCall } from "../core/tool-call.js";
import type { Span, Trace } from "./span.js";

/** A value as JSON: functions, symbols, cycles and bigints become text instead of failing. */
function json(value: unknown): JsonValue {
  if (value === undefined) return null;
  try {
    const seen = new WeakSet<object>();
    const text = JSON.stringify(value, (_key, item: unknown) => {
      if (typeof item === "bigint") return item.toString();
      if (typeof item === "function" || typeof item === "symbol") return String(item);
      if (typeof item === "object" && item !== null) {
        if (seen.has(item)) return "[circular]";
        seen.add(item);
      }
      return item;
    }) as string | undefined;
    return text === undefined ? null : (JSON.parse(text) as JsonValue);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function argumentsOf(span: Span): JsonObject {
  const value = json(span.input);
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value
    : value === null
      ? {}
      : { input: value };
}

/** The tool spans under a span (or of a whole trace), in the order they started. */
export function toolSpansOf(scope: Trace | Span): Span[] {
  const spans = "spans" in scope ? scope.spans : descendants(scope);
  return spans.filter((span) => span.type === "tool");
}

function descendants(span: Span): Span[] {
  const out: Span[] = [];
  const walk = (node: Span) => {
    for (const child of node.children) {
      out.push(child);
      walk(child);
    }
  };
  walk(span);
  return out.sort((a, b) => a.startTime - b.startTime);
}

/**
 * The tool calls recorded in a trace (or under one span), in the order they started, nested and
 * parallel calls included: name, arguments, output (or the error, with `isError`) and id.
 */
export function toolCallsOf(scope: Trace | Span): ToolCall[] {
  return toolSpansOf(scope).map((span) => ({
    name: span.name,
    inputParameters: argumentsOf(span),
    output:
      span.error === undefined ? json(span.output) : `${span.error.name}: ${span.error.message}`,
    type: "FUNCTION",
    ...(span.toolCallId === undefined ? {} : { id: span.toolCallId }),
    ...(span.error === undefined ? {} : { isError: true }),
  }));
}

/** What scored a trace: its end-to-end results, and each component's by its span. */
export interface TraceEvaluation {
  readonly endToEnd: readonly MetricResult[];
  readonly components: readonly {
    readonly spanId: string;
    readonly results: readonly MetricResult[];
  }[];
}

/** Each span's results: the end-to-end ones on the trace's first root span. */
function evaluationsBySpan(
  trace: Trace,
  evaluation: TraceEvaluation | undefined,
): Map<string, MetricResult[]> {
  const bySpan = new Map<string, MetricResult[]>();
  if (evaluation === undefined) return bySpan;
  const add = (spanId: string | undefined, results: readonly MetricResult[]) => {
    if (spanId === undefined || results.length === 0) return;
    bySpan.set(spanId, [...(bySpan.get(spanId) ?? []), ...results]);
  };
  add(trace.roots[0]?.id, evaluation.endToEnd);
  for (const component of evaluation.components) add(component.spanId, component.results);
  return bySpan;
}

/** A metric result as the attributes of a `gen_ai.evaluation.result` event. */
export function evaluationAttributes(result: MetricResult): JsonObject[] {
  return eventAttributes(result.metric, result);
}

/**
 * Scored traces as OTLP JSON logs (`{ resourceLogs }`): one `gen_ai.evaluation.result` event per
 * metric result, carrying the trace id and the id of the span it scored, as the OpenTelemetry
 * GenAI conventions emit evaluations, for a collector's logs endpoint (`/v1/logs`).
 */
export function evaluationsToOtlpLogs(
  evaluated: readonly (TraceEvaluation & { readonly trace: Trace })[],
  options: { serviceName?: string } = {},
): JsonObject {
  const logRecords = evaluated.flatMap(({ trace, ...evaluation }) =>
    [...evaluationsBySpan(trace, evaluation)].flatMap(([spanId, results]) => {
      const span = trace.spans.find((item) => item.id === spanId);
      const timeUnixNano = nano(span?.endTime ?? span?.startTime ?? trace.startTime);
      return results.map((result) =>
        evaluationLogRecord({
          span: { traceId: trace.id, spanId },
          timeUnixNano,
          metric: result.metric,
          result,
        }),
      );
    }),
  );
  return otlpLogs(logRecords, options.serviceName);
}

const nano = (ms: number) => String(BigInt(Math.round(ms * 1000)) * 1000n);
const text = (key: string, value: string) => ({ key, value: { stringValue: value } });

function operationOf(span: Span): string {
  switch (span.type) {
    case "tool":
      return "execute_tool";
    case "llm":
      return "chat";
    case "agent":
      return "invoke_agent";
    default:
      return span.type;
  }
}

/**
 * A trace as OTLP JSON (`{ resourceSpans }`) with OpenTelemetry GenAI attributes: tool spans are
 * `execute_tool` spans with `gen_ai.tool.name`, `gen_ai.tool.call.id`, `…arguments` and
 * `…result`, errors as status code 2 with `error.type`. `parseTrajectory` reads it back, and so
 * do trace viewers that read OTLP JSON.
 */
export function traceToOtlp(
  trace: Trace,
  options: {
    serviceName?: string;
    /**
     * The trace's scores (an `evaluateObserved` result): each metric result becomes a
     * `gen_ai.evaluation.result` event on the span it scored, the end-to-end ones on the root.
     */
    evaluation?: TraceEvaluation;
  } = {},
): JsonObject {
  const events = evaluationsBySpan(trace, options.evaluation);
  const spans = trace.spans.map((span): JsonObject => {
    const attributes = [text("gen_ai.operation.name", operationOf(span))];
    if (span.type === "tool") {
      attributes.push(text("gen_ai.tool.name", span.name));
      if (span.toolCallId !== undefined)
        attributes.push(text("gen_ai.tool.call.id", span.toolCallId));
      attributes.push(text("gen_ai.tool.call.arguments", JSON.stringify(argumentsOf(span))));
      attributes.push(
        text(
          "gen_ai.tool.call.result",
          JSON.stringify(
            span.error === undefined
              ? json(span.output)
              : `${span.error.name}: ${span.error.message}`,
          ),
        ),
      );
    } else {
      attributes.push(text("toolscore.span.input", JSON.stringify(json(span.input))));
      if (span.error === undefined) {
        attributes.push(text("toolscore.span.output", JSON.stringify(json(span.output))));
      }
    }
    if (span.error !== undefined) attributes.push(text("error.type", span.error.name));
    const name = span.type === "tool" ? `execute_tool ${span.name}` : span.name;
    return {
      traceId: trace.id,
      spanId: span.id,
      ...(span.parentId === undefined ? {} : { parentSpanId: span.parentId }),
      name,
      kind: 1,
      startTimeUnixNano: nano(span.startTime),
      endTimeUnixNano: nano(span.endTime ?? span.startTime),
      attributes,
      ...(events.has(span.id)
        ? {
            events: (events.get(span.id) ?? []).map((result) => ({
              timeUnixNano: nano(span.endTime ?? span.startTime),
              name: evaluationEventName,
              attributes: evaluationAttributes(result),
            })),
          }
        : {}),
      status: span.error === undefined ? { code: 1 } : { code: 2, message: span.error.message },
    };
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [text("service.name", options.serviceName ?? "toolscore")] },
        scopeSpans: [{ scope: { name: "toolscore" }, spans }],
      },
    ],
  };
}

/**
 * A trace as one toolscore dataset record: the end-to-end test case set at run time (or the
 * outermost span's input and output), with the tool calls the trace recorded, so captured runs
 * become regression datasets (`expectedTools` left for a person to confirm, or taken from
 * `options.expectedTools`).
 */
export function traceToDatasetRecord(
  trace: Trace,
  options: { id?: string; expectedTools?: readonly ToolCall[] } = {},
): JsonObject {
  const root = trace.roots.at(0);
  const testCase = trace.testCase;
  const input = testCase?.input ?? (root === undefined ? undefined : json(root.input));
  const output = testCase?.actualOutput ?? (root === undefined ? undefined : json(root.output));
  const calls = toolCallsOf(trace);
  return {
    id: options.id ?? trace.id,
    ...(input === undefined ? {} : { input: json(input) }),
    ...(output === undefined ? {} : { actualOutput: json(output) }),
    toolsCalled: calls.map((call) => ({
      name: call.name,
      inputParameters: call.inputParameters,
      ...(call.output === null ? {} : { output: call.output }),
      ...(call.id === undefined ? {} : { id: call.id }),
      ...(call.isError === true ? { isError: true } : {}),
    })),
    ...(options.expectedTools === undefined
      ? testCase?.expectedTools === undefined
        ? {}
        : { expectedTools: json(testCase.expectedTools) }
      : { expectedTools: json(options.expectedTools) }),
    metadata: { traceId: trace.id, ...(trace.name === undefined ? {} : { trace: trace.name }) },
  };
}
