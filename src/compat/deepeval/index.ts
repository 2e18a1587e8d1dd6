/**
 * deepeval-compatible tool correctness: the names and options of deepeval's TypeScript package,
 * deepeval's numbers (with the fixes listed in docs/migration/deepeval.md), and toolscore's
 * explanations.
 */
export {
  MultimodalToolCorrectnessMetric,
  ToolCorrectnessMetric,
} from "./tool-correctness-metric.js";
export type { ToolCorrectnessMetricOptions } from "./tool-correctness-metric.js";
export { ArgumentCorrectnessMetric, TaskCompletionMetric } from "./judged-classes.js";
export type {
  ArgumentCorrectnessDetails,
  DeepevalJudgedMetricOptions,
  TaskCompletionMetricOptions,
} from "./judged-classes.js";
export { AssertionError, assertTest, evaluate } from "./evaluate.js";
export type {
  DeepevalEvaluateOptions,
  EvaluationResult,
  MetricData,
  TestResult,
} from "./evaluate.js";
export {
  LLMTestCase,
  MLLMImage,
  MLLMTestCase,
  ToolCall,
  ToolCallParams,
  ToolCallType,
} from "./test-case.js";
export type {
  LLMTestCaseInit,
  MLLMImageInit,
  MLLMTestCaseInit,
  MultimodalContent,
  ToolCallInit,
} from "./test-case.js";
export {
  InvalidInputError,
  InvalidOptionError,
  JudgeRequiredError,
  JudgeResponseError,
  LimitExceededError,
  MissingParamsError,
  MissingParamsError as MissingTestCaseParamsError,
  ProviderCallError,
  ProviderConfigError,
  ToolscoreError,
} from "../../core/errors.js";
export { DeepEvalToolCorrectnessMetric } from "./trajectory-metric.js";
export { ToolCallParser, TrajectoryParser } from "./trajectory-parsers.js";
export type {
  AvailableTool,
  DeepEvalToolCorrectnessInput,
  DeepEvalToolCorrectnessMetricOptions,
  DeepEvalToolCorrectnessOutcome,
  DeepEvalToolCorrectnessResult,
  MeasureManyOptions,
  TrajectoryToolCall,
} from "./trajectory-metric.js";
export type { ToolStep } from "./trajectory-parsers.js";
export type { SelectionDetails } from "./selection.js";
export { normalizeToolName } from "../../core/normalize-tool-name.js";
export type { NameNormalizationOptions } from "../../core/normalize-tool-name.js";
