/**
 * axion-compatible tool correctness: axion's names, options and explanations, on toolscore's
 * engine.
 */
export { ToolCorrectness } from "./tool-correctness.js";
export type { MetricEvaluationResult, ToolCorrectnessOptions } from "./tool-correctness.js";
export { DatasetItem, ToolCall } from "./dataset-item.js";
export type { DatasetItemInit, ToolCallLike } from "./dataset-item.js";
export { MetricRunner } from "./metric-runner.js";
export type { AxionMetric, MetricRunnerOptions, MetricRunnerResult } from "./metric-runner.js";
export type {
  AxionParameterMatchingStrategy as ParameterMatchingStrategy,
  AxionScoring as Scoring,
  AxionToolCorrectnessDetails as ToolCorrectnessDetails,
} from "../../metrics/axion-tool-correctness.js";
export {
  InvalidInputError,
  InvalidOptionError,
  LimitExceededError,
  MissingParamsError,
  ToolscoreError,
} from "../../core/errors.js";
