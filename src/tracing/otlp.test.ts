import { SpanKind, SpanStatusCode, context, trace as otelTrace } from "@opentelemetry/api";
import type { Span as OtelSpan } from "@opentelemetry/api";
import { SeverityNumber } from "@opentelemetry/api-logs";
import { JsonLogsSerializer, JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from "@opentelemetry/sdk-logs";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { parseTrajectory } from "../adapters/parse-trajectory.js";
import type { MetricResult } from "../core/metric-result.js";
import {
  captureTrace,
  evaluationsToOtlpLogs,
  observe,
  traceTool,
  traceToOtlp,
} from "../entries/tracing.js";
import type { Trace } from "../entries/tracing.js";

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

describe("evaluation results as OpenTelemetry gen_ai.evaluation.result events", () => {
  /** A scored trace: an agent that looks up an order, scored end to end and on its tool. */
  async function scoredTrace() {
    const lookup = traceTool("lookup", (args: { id: number }) => ({ found: args.id }));
    const agent = observe(
      async (question: string) =>
        `${question}: ${(await Promise.resolve(lookup({ id: 1 }))).found}`,
      {
        name: "agent",
        type: "agent",
      },
    );
    const { trace } = await captureTrace(() => agent("order"));
    const tool = trace.spans.find((span) => span.type === "tool");
    const evaluation = {
      endToEnd: [
        {
          status: "scored",
          metric: "Tool Call Accuracy",
          score: 0.5,
          threshold: 1,
          success: false,
          reason: "$.id is 1, expected 2",
          details: null,
        },
        { status: "not-evaluable", metric: "Task Completion", reason: "cannot tell: no reference" },
      ] as MetricResult[],
      components: [
        {
          spanId: tool?.id ?? "",
          results: [
            {
              status: "error",
              metric: "Argument Correctness",
              error: { code: "JUDGE_REQUIRED", message: "needs a judge" },
            },
          ] as MetricResult[],
        },
      ],
    };
    return { trace, evaluation, tool };
  }

  const attributesOf = (
    list: readonly { key: string; value: Record<string, unknown> }[],
  ): Record<string, unknown> =>
    Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));

  it("puts each result on the span it scored, as the SDK's addEvent writes it", async () => {
    const { trace, evaluation, tool } = await scoredTrace();
    const ours = JSON.parse(JSON.stringify(traceToOtlp(trace, { evaluation }))) as OtlpRequest;
    const spans = ours.resourceSpans[0].scopeSpans[0].spans;
    const root = spans.find((span) => span.spanId === trace.roots[0]?.id);
    const events = root?.events as {
      name: string;
      timeUnixNano: string;
      attributes: { key: string; value: Record<string, unknown> }[];
    }[];
    expect(events.map((event) => [event.name, attributesOf(event.attributes)])).toEqual([
      [
        "gen_ai.evaluation.result",
        {
          "gen_ai.evaluation.name": "Tool Call Accuracy",
          "gen_ai.evaluation.score.value": 0.5,
          "gen_ai.evaluation.score.label": "fail",
          "gen_ai.evaluation.explanation": "$.id is 1, expected 2",
        },
      ],
      [
        "gen_ai.evaluation.result",
        {
          "gen_ai.evaluation.name": "Task Completion",
          "gen_ai.evaluation.score.label": "not_evaluable",
          "gen_ai.evaluation.explanation": "cannot tell: no reference",
        },
      ],
    ]);
    const toolEvents = spans.find((span) => span.spanId === tool?.id)?.events as {
      attributes: { key: string; value: Record<string, unknown> }[];
    }[];
    expect(attributesOf(toolEvents[0].attributes)).toEqual({
      "gen_ai.evaluation.name": "Argument Correctness",
      "error.type": "JUDGE_REQUIRED",
      "gen_ai.evaluation.explanation": "needs a judge",
    });

    // The SDK's own span with the same events, through its OTLP JSON serializer.
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      idGenerator: {
        generateTraceId: () => trace.id,
        generateSpanId: () => trace.roots[0]?.id ?? "",
      },
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const span = provider.getTracer("toolscore").startSpan("agent", { startTime: trace.startTime });
    for (const event of events) {
      span.addEvent(
        event.name,
        attributesOf(event.attributes) as Record<string, string | number>,
        Number(BigInt(event.timeUnixNano) / 1000n) / 1000,
      );
    }
    span.end();
    const bytes = JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans());
    const theirs = JSON.parse(new TextDecoder().decode(bytes)) as OtlpRequest;
    const theirEvents = theirs.resourceSpans[0].scopeSpans[0].spans[0].events as typeof events;
    expect(events.map(({ name, attributes }) => ({ name, attributes }))).toEqual(
      theirEvents.map(({ name, attributes }) => ({ name, attributes })),
    );
    events.forEach((event, at) => {
      const gap = BigInt(event.timeUnixNano) - BigInt(theirEvents[at].timeUnixNano);
      expect(gap >= -1000n && gap <= 1000n).toBe(true);
    });
    // Readers of the trace are not troubled by the events.
    expect(parseTrajectory(ours).calls.map((call) => call.name)).toEqual(["lookup"]);
  });

  it("writes them as OTLP logs with the trace and span they scored, as the SDK's logger does", async () => {
    const { trace, evaluation, tool } = await scoredTrace();
    const ours = JSON.parse(JSON.stringify(evaluationsToOtlpLogs([{ trace, ...evaluation }]))) as {
      resourceLogs: { scopeLogs: { scope: unknown; logRecords: Record<string, unknown>[] }[] }[];
    };
    const records = ours.resourceLogs[0].scopeLogs[0].logRecords;
    expect(records.map((record) => [record.eventName, record.traceId, record.spanId])).toEqual([
      ["gen_ai.evaluation.result", trace.id, trace.roots[0]?.id],
      ["gen_ai.evaluation.result", trace.id, trace.roots[0]?.id],
      ["gen_ai.evaluation.result", trace.id, tool?.id],
    ]);

    const exporter = new InMemoryLogRecordExporter();
    const provider = new LoggerProvider({
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    const logger = provider.getLogger("toolscore");
    for (const record of records) {
      logger.emit({
        eventName: record.eventName as string,
        severityNumber: SeverityNumber.INFO,
        severityText: "INFO",
        timestamp: Number(BigInt(record.timeUnixNano as string) / 1000n) / 1000,
        observedTimestamp: Number(BigInt(record.observedTimeUnixNano as string) / 1000n) / 1000,
        attributes: attributesOf(
          record.attributes as { key: string; value: Record<string, unknown> }[],
        ) as Record<string, string | number>,
        context: otelTrace.setSpanContext(context.active(), {
          traceId: record.traceId as string,
          spanId: record.spanId as string,
          traceFlags: 0,
        }),
      });
    }
    await provider.forceFlush();
    expect(exporter.getFinishedLogRecords()).toHaveLength(3);
    const bytes = JsonLogsSerializer.serializeRequest(exporter.getFinishedLogRecords());
    const theirs = JSON.parse(new TextDecoder().decode(bytes)) as typeof ours;
    const comparable = (record: Record<string, unknown>) => {
      // Times within the microsecond the SDK keeps; an empty body and the zero counts are OTLP's
      // defaults, which the SDK writes and we leave out.
      const { timeUnixNano, observedTimeUnixNano, flags, droppedAttributesCount, body, ...rest } =
        record;
      expect(body ?? {}).toEqual({});
      expect(String(timeUnixNano)).toMatch(/^\d{19}$/);
      return rest;
    };
    expect(records.map(comparable)).toEqual(
      theirs.resourceLogs[0].scopeLogs[0].logRecords.map(comparable),
    );
  });
});
