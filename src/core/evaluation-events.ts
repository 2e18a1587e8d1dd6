/**
 * Metric results as OpenTelemetry GenAI `gen_ai.evaluation.result` events: the attributes of one
 * (metric, score and label, explanation, or the error), and OTLP JSON log records carrying the
 * trace and span they scored. `toolscore/tracing` puts them on its own traces; reports write them
 * for the traces a dataset's runs came from.
 */
import type { JsonObject } from "./json.js";
import type { TraceContext } from "./trajectory.js";

/** The event's name in the OpenTelemetry GenAI conventions. */
export const evaluationEventName = "gen_ai.evaluation.result";

/** What an event says of a metric's result: a metric result, or a results file's entry of one. */
export type EvaluatedMetric =
  | {
      readonly status: "scored";
      readonly score: number;
      readonly success: boolean;
      readonly reason?: string;
    }
  | { readonly status: "not-evaluable" | "skipped"; readonly reason: string }
  | {
      readonly status: "error";
      readonly error: { readonly code: string; readonly message: string };
    };

const text = (key: string, value: string): JsonObject => ({ key, value: { stringValue: value } });

/**
 * A metric's result as the attributes of a `gen_ai.evaluation.result` event: the metric's name,
 * its score and `pass` / `fail` (or `not_evaluable`, `skipped`), and its reason; an error as
 * `error.type` (its code) with its message.
 */
export function evaluationAttributes(metric: string, result: EvaluatedMetric): JsonObject[] {
  const attributes: JsonObject[] = [text("gen_ai.evaluation.name", metric)];
  switch (result.status) {
    case "scored":
      attributes.push({
        key: "gen_ai.evaluation.score.value",
        value: { doubleValue: result.score },
      });
      attributes.push(text("gen_ai.evaluation.score.label", result.success ? "pass" : "fail"));
      if (result.reason !== undefined)
        attributes.push(text("gen_ai.evaluation.explanation", result.reason));
      break;
    case "not-evaluable":
    case "skipped":
      attributes.push(
        text(
          "gen_ai.evaluation.score.label",
          result.status === "skipped" ? "skipped" : "not_evaluable",
        ),
      );
      attributes.push(text("gen_ai.evaluation.explanation", result.reason));
      break;
    case "error":
      attributes.push(text("error.type", result.error.code));
      attributes.push(text("gen_ai.evaluation.explanation", result.error.message));
      break;
  }
  return attributes;
}

/**
 * A trace or span id as an OTLP log record may carry it: OpenTelemetry's hex (32 digits for a
 * trace, 16 for a span, not all zero; a leading `0x` dropped, lower case), or an OpenAI Agents
 * SDK id as it is (`trace_…`, `span_…`, letters and digits). Anything else (empty, a newline,
 * 100,000 characters) is undefined: a transcript may say anything.
 */
export function otlpId(id: string, kind: "trace" | "span"): string | undefined {
  const digits = kind === "trace" ? 32 : 16;
  const hex = id.startsWith("0x") ? id.slice(2) : id;
  if (hex.length === digits && /^[0-9a-fA-F]+$/.test(hex) && /[1-9a-fA-F]/.test(hex)) {
    return hex.toLowerCase();
  }
  return new RegExp(`^${kind}_[A-Za-z0-9]{1,128}$`).test(id) ? id : undefined;
}

/** A span's ids as OTLP writes them (see `otlpId`); undefined when either is no id. */
export function otlpSpan(span: TraceContext): TraceContext | undefined {
  const traceId = otlpId(span.traceId, "trace");
  const spanId = otlpId(span.spanId, "span");
  return traceId === undefined || spanId === undefined ? undefined : { traceId, spanId };
}

/** One OTLP JSON log record of an evaluation event, on the span it scored. */
export function evaluationLogRecord(input: {
  readonly span: TraceContext;
  readonly timeUnixNano: string;
  readonly metric: string;
  readonly result: EvaluatedMetric;
}): JsonObject {
  return {
    timeUnixNano: input.timeUnixNano,
    observedTimeUnixNano: input.timeUnixNano,
    severityNumber: 9,
    severityText: "INFO",
    eventName: evaluationEventName,
    attributes: evaluationAttributes(input.metric, input.result),
    traceId: input.span.traceId,
    spanId: input.span.spanId,
  };
}

/** Log records as an OTLP JSON logs request (`{ resourceLogs }`), for a collector's `/v1/logs`. */
export function otlpLogs(records: readonly JsonObject[], serviceName = "toolscore"): JsonObject {
  return {
    resourceLogs: [
      {
        resource: { attributes: [text("service.name", serviceName)] },
        scopeLogs: [{ scope: { name: "toolscore" }, logRecords: [...records] }],
      },
    ],
  };
}
