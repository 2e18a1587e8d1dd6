/**
 * toolscore/tracing: capture tool calls from a live agent and evaluate components inside it.
 * `observe` records calls as spans (AsyncLocalStorage keeps concurrent runs apart), tool spans
 * become `toolsCalled`, `evaluate` runs an application over goldens and scores every
 * observed component, and finished traces export as OpenTelemetry GenAI spans or dataset lines.
 */
export {
  captureTrace,
  currentSpan,
  currentTrace,
  evaluate,
  observe,
  observeFunctions,
  observeTool,
  observeTools,
  onTraceEnd,
  toolCallsOf,
  toolSpansOf,
  traceTool,
  traceToDatasetRecord,
  traceToOtlp,
  updateCurrentSpan,
  updateCurrentTrace,
} from "./tracing/index.js";
export type {
  ComponentResult,
  EvaluateObservedOptions,
  ExecutableTool,
  Golden,
  ObserveOptions,
  ObservedEvaluation,
  ObservedResult,
  Span,
  SpanType,
  SpanUpdate,
  Trace,
} from "./tracing/index.js";
