export {
  ErrorCode,
  InvalidInputError,
  InvalidOptionError,
  JudgeRequiredError,
  JudgeResponseError,
  LimitExceededError,
  MediaLoadError,
  MissingDependencyError,
  MissingParamsError,
  ProviderCallError,
  ProviderConfigError,
  DatasetParseError,
  ResultsFileError,
  ResultsWriteError,
  ToolscoreError,
  UnknownFormatError,
} from "./errors.js";
export type { NumberSpellings } from "./number-spellings.js";
export type { MediaLoadReason, ToolscoreErrorOptions } from "./errors.js";
export {
  DEFAULT_MAX_DEPTH,
  childPath,
  isJsonObject,
  jsonEquals,
  jsonTypeOf,
  toJsonValue,
} from "./json.js";
export type {
  JsonArray,
  JsonObject,
  JsonPrimitive,
  JsonType,
  JsonValue,
  ToJsonValueOptions,
} from "./json.js";
export { toToolCall, toToolCalls } from "./tool-call.js";
export type { ToToolCallOptions, ToolCall, ToolCallInput, ToolCallType } from "./tool-call.js";
export type {
  Content,
  ContentPart,
  ImagePart,
  ImageSource,
  TestCase,
  TextPart,
  ToolSpec,
} from "./test-case.js";
export type {
  AlignmentAlgorithm,
  ArgumentVerdict,
  Mismatch,
  NearMiss,
  PairDetail,
  ToolCallMatchDetails,
} from "./explanation.js";
export { callDiffLines, describeMismatch, formatToolCall } from "./call-diff.js";
export type { CallDiffOptions, DiffCall } from "./call-diff.js";
export { toErroredResult } from "./metric-result.js";
export type { MeasureOptions, Metric, SyncMetric } from "./metric.js";
export type { ErroredResult, MetricResult, ScoredResult, SkippedResult } from "./metric-result.js";
export { trajectoryFormats } from "./trajectory.js";
export type {
  NameMapping,
  Trajectory,
  TrajectoryFormat,
  TrajectoryStep,
  TrajectoryTurn,
  TrajectoryWarning,
  TrajectoryWarningCode,
} from "./trajectory.js";
export type {
  JudgeBatchApi,
  JudgeBatchRequest,
  JudgeBatchResult,
  JudgeBatchStatus,
  JudgeBatchStore,
  JudgeCache,
  JudgeCallOptions,
  JudgeContent,
  JudgeMessage,
  JudgeModel,
  JudgeRequest,
  JudgeResponse,
  JudgeRunSummary,
  JudgeSchema,
  JudgeUsage,
} from "./judge.js";
export type { PreparedContext, ReadyImage } from "./context.js";
