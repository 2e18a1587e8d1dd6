/**
 * toolscore/tracing: capture tool calls from a live agent and evaluate components inside it.
 * `observe` records calls as spans (AsyncLocalStorage keeps concurrent runs apart), tool spans
 * become `toolsCalled`, `evaluateObserved` runs an application over goldens and scores every
 * observed component, and finished traces export as OpenTelemetry GenAI spans or dataset lines.
 */
import { evaluateObserved } from "../tracing/evaluate-observed.js";

export {
  captureTrace,
  currentSpan,
  currentTrace,
  observe,
  onTraceEnd,
  traceTool,
  updateCurrentSpan,
  updateCurrentTrace,
} from "../tracing/observe.js";
export type { ObserveOptions, SpanUpdate } from "../tracing/observe.js";
export type { Span, SpanType, Trace } from "../tracing/span.js";
export {
  evaluationAttributes,
  evaluationsToOtlpLogs,
  toolCallsOf,
  toolSpansOf,
  traceToDatasetRecord,
  traceToOtlp,
} from "../tracing/export.js";
export type { TraceEvaluation } from "../tracing/export.js";
export { observeFunctions, observeTool, observeTools } from "../tracing/tools.js";
export type { ExecutableTool } from "../tracing/tools.js";
export { evaluateObserved };
export type {
  ComponentResult,
  EvaluateObservedOptions,
  Golden,
  ObservedEvaluation,
  ObservedResult,
} from "../tracing/evaluate-observed.js";
