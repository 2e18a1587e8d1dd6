export {
  captureTrace,
  currentSpan,
  currentTrace,
  observe,
  onTraceEnd,
  traceTool,
  updateCurrentSpan,
  updateCurrentTrace,
} from "./observe.js";
export type { ObserveOptions, SpanUpdate } from "./observe.js";
export type { Span, SpanType, Trace } from "./span.js";
export { toolCallsOf, toolSpansOf, traceToDatasetRecord, traceToOtlp } from "./export.js";
export { observeFunctions, observeTool, observeTools } from "./tools.js";
export type { ExecutableTool } from "./tools.js";
export { evaluate } from "./evaluate-observed.js";
export type {
  ComponentResult,
  EvaluateObservedOptions,
  Golden,
  ObservedEvaluation,
  ObservedResult,
} from "./evaluate-observed.js";
