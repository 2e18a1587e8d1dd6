import type { Metric } from "../core/metric.js";
import type { TestCase } from "../core/test-case.js";

/** What an observed function is: the kinds deepeval and OpenTelemetry GenAI name. */
export type SpanType = "agent" | "llm" | "tool" | "retriever" | "custom";

/** One observed call: what went in, what came out or what was thrown, and when. */
export interface Span {
  /** 16 hex digits (an OpenTelemetry span id). */
  readonly id: string;
  readonly traceId: string;
  readonly parentId?: string;
  name: string;
  readonly type: SpanType;
  /** The arguments: the one argument when there is one (a tool's first), else the list. */
  input: unknown;
  output?: unknown;
  /** Set when the function threw or its promise rejected. */
  error?: { readonly name: string; readonly message: string };
  /** Milliseconds since the epoch, with sub-millisecond precision. */
  readonly startTime: number;
  endTime?: number;
  /** The metrics that score this component (from `observe(fn, { metrics })`). */
  readonly metrics?: readonly Metric[];
  /** The test case set at run time with `updateCurrentSpan({ testCase })`. */
  testCase?: TestCase;
  metadata?: Record<string, unknown>;
  /** The model's id for this tool call, when the caller knows it (AI SDK `toolCallId`). */
  toolCallId?: string;
  readonly children: Span[];
}

/** One run of an application: its spans, and what was set on it at run time. */
export interface Trace {
  /** 32 hex digits (an OpenTelemetry trace id). */
  readonly id: string;
  name?: string;
  /** The outermost spans, in start order. */
  readonly roots: Span[];
  /** Every span, in start order. */
  readonly spans: Span[];
  /** The end-to-end test case set with `updateCurrentTrace({ testCase })`. */
  testCase?: TestCase;
  metadata?: Record<string, unknown>;
  readonly startTime: number;
  endTime?: number;
}
