import { SpanKind, SpanStatusCode, context, trace as otelTrace } from "@opentelemetry/api";
import type { Span as OtelSpan } from "@opentelemetry/api";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { captureTrace, observe, traceTool, traceToOtlp } from "../tracing.js";
import type { Trace } from "../tracing.js";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: { stringValue: string } }[];
  status: { code: number; message?: string };
  [key: string]: unknown;
}

interface OtlpRequest {
  resourceSpans: {
    resource: { attributes: { key: string; value: unknown }[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

/**
 * The same trace sent through OpenTelemetry's own SDK and its OTLP JSON serializer (what the
 * OTLP/HTTP JSON exporter posts to a collector, Jaeger or Tempo): our ids, names, kinds, times,
 * attributes and statuses, re-created span by span.
 */
function officialOtlp(trace: Trace, ours: OtlpRequest): OtlpRequest {
  const spans = ours.resourceSpans[0].scopeSpans[0].spans;
  const ids = spans.map((span) => span.spanId);
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    idGenerator: {
      generateTraceId: () => trace.id,
      generateSpanId: () => ids.shift() ?? "0000000000000000",
    },
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer("toolscore");
  const started = new Map<string, OtelSpan>();
  trace.spans.forEach((span, at) => {
    const mine = spans[at];
    const parent = span.parentId === undefined ? undefined : started.get(span.parentId);
    const otel = tracer.startSpan(
      mine.name,
      {
        // In-process agents and tools are internal spans (OpenTelemetry GenAI conventions).
        kind: SpanKind.INTERNAL,
        startTime: span.startTime,
        attributes: Object.fromEntries(
          mine.attributes.map((attribute) => [attribute.key, attribute.value.stringValue]),
        ),
      },
      parent === undefined ? context.active() : otelTrace.setSpan(context.active(), parent),
    );
    started.set(span.id, otel);
  });
  // Ended children first, as they really end.
  [...trace.spans].reverse().forEach((span) => {
    const otel = started.get(span.id);
    if (otel === undefined) return;
    otel.setStatus(
      span.error === undefined
        ? { code: SpanStatusCode.OK }
        : { code: SpanStatusCode.ERROR, message: span.error.message },
    );
    otel.end(span.endTime);
  });
  const bytes = JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans());
  if (bytes === undefined) throw new Error("the serializer returned nothing");
  return JSON.parse(new TextDecoder().decode(bytes)) as OtlpRequest;
}

/** Fields the SDK always writes with their empty values (OTLP defaults), left out here. */
const defaults = [
  "droppedAttributesCount",
  "events",
  "droppedEventsCount",
  "links",
  "droppedLinksCount",
  "flags",
];

describe("traceToOtlp against OpenTelemetry's own OTLP JSON serializer", () => {
  it("writes what the OTLP exporter would for the same spans, field for field", async () => {
    const lookup = traceTool("lookup", (args: { id: number }) => ({ found: args.id }));
    const fail = traceTool("fail", async () => {
      await Promise.resolve();
      throw new RangeError("out of range");
    });
    const agent = observe(
      async (question: string) => {
        const [a, b] = await Promise.all([
          Promise.resolve(lookup({ id: 1 })),
          Promise.resolve(lookup({ id: 2 })),
        ]);
        await fail().catch(() => undefined);
        return `${question}: ${a.found + b.found}`;
      },
      { name: "agent", type: "agent" },
    );
    const { trace } = await captureTrace(() => agent("sum"));
    const ours = JSON.parse(JSON.stringify(traceToOtlp(trace))) as OtlpRequest;
    const theirs = officialOtlp(trace, ours);

    const oursSpans = ours.resourceSpans[0].scopeSpans[0].spans;
    // The SDK exports spans as they end; ours are in start order.
    const theirSpans = [...theirs.resourceSpans[0].scopeSpans[0].spans].sort(
      (a, b) =>
        oursSpans.findIndex((span) => span.spanId === a.spanId) -
        oursSpans.findIndex((span) => span.spanId === b.spanId),
    );
    expect(theirSpans).toHaveLength(4);
    const comparable = (span: OtlpSpan) => {
      const copy: Record<string, unknown> = Object.fromEntries(
        Object.entries(span).filter(([key]) => !defaults.includes(key)),
      );
      // Times are compared below, within the microsecond we round to.
      delete copy.startTimeUnixNano;
      delete copy.endTimeUnixNano;
      return copy;
    };
    expect(oursSpans.map(comparable)).toEqual(theirSpans.map(comparable));
    for (const [at, span] of oursSpans.entries()) {
      for (const key of ["startTimeUnixNano", "endTimeUnixNano"] as const) {
        expect(span[key]).toMatch(/^\d{19}$/);
        const gap = BigInt(span[key]) - BigInt(theirSpans[at][key]);
        expect(gap >= -1000n && gap <= 1000n, `${key} ${span[key]} vs ${theirSpans[at][key]}`).toBe(
          true,
        );
      }
    }
    // Nothing of ours the SDK would not write, and the same types for every field.
    for (const [at, span] of oursSpans.entries()) {
      for (const [key, value] of Object.entries(span)) {
        expect(typeof theirSpans[at][key], key).toBe(typeof value);
      }
    }
    expect(ours.resourceSpans[0].scopeSpans[0].scope).toEqual(
      theirs.resourceSpans[0].scopeSpans[0].scope,
    );
    expect(ours.resourceSpans[0].resource.attributes).toEqual([
      { key: "service.name", value: { stringValue: "toolscore" } },
    ]);
    const failed = oursSpans.find((span) => span.name === "execute_tool fail");
    expect(failed?.status).toEqual({ code: 2, message: "out of range" });
  });
});
