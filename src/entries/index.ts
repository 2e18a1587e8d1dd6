/**
 * toolscore: score AI agents' tool calls. This entry point holds what users call: matching and
 * the deterministic metrics, value matchers, transcript parsing, `evaluate` and the metric
 * registry, judge models and sessions, reporters, and the typed errors.
 *
 * Elsewhere: the compatible metrics in `toolscore/deepeval`, `toolscore/axion` and
 * `toolscore/ragas`; files, datasets and results files in `toolscore/node`; live agents in
 * `toolscore/tracing`; test matchers in `toolscore/vitest` and `toolscore/jest`; the building
 * blocks (alignment algorithms, score functions, prompt builders, record helpers) in
 * `toolscore/engine`.
 */

// Errors: every error toolscore throws or records has a stable `code`.
export {
  AgentRunError,
  DatasetParseError,
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
  ResultsFileError,
  ResultsWriteError,
  ToolscoreError,
  UnknownFormatError,
} from "../core/errors.js";
export type { MediaLoadReason, ToolscoreErrorOptions } from "../core/errors.js";

// The data model.
export type { JsonArray, JsonObject, JsonPrimitive, JsonValue } from "../core/json.js";
export { toToolCall, toToolCalls } from "../core/tool-call.js";
export type {
  ToToolCallOptions,
  ToolCall,
  ToolCallInput,
  ToolCallType,
} from "../core/tool-call.js";
export type {
  CaseTurn,
  Content,
  ContentPart,
  ImagePart,
  ImageSource,
  RunSpend,
  TestCase,
  TextPart,
  ToolSpec,
} from "../core/test-case.js";
export type { TurnOutcome, TurnsDetails } from "../core/turns.js";
export type { MeasureOptions, Metric, SyncMetric, TurnScore } from "../core/metric.js";
export type {
  ErroredResult,
  MetricResult,
  ScoredResult,
  SkippedResult,
} from "../core/metric-result.js";
export type { NumberSpellings } from "../core/number-spellings.js";

// Matching tool calls, and the deterministic metrics.
export { matchToolCalls, scoreToolCalls } from "../metrics/match-tool-calls.js";
export { matchToolCallsByTurn } from "../metrics/match-by-turn.js";
export type {
  MatchByTurnOptions,
  MisplacedCall,
  TurnAggregate,
  TurnInput,
  TurnsMatchResult,
} from "../metrics/match-by-turn.js";
export { toolCallAccuracy } from "../metrics/tool-call-accuracy.js";
export type {
  ToolCallAccuracyCase,
  ToolCallAccuracyOptions,
} from "../metrics/tool-call-accuracy.js";
export { responseContains } from "../metrics/response-contains.js";
export type {
  ResponseContainsCase,
  ResponseContainsDetails,
  ResponseContainsOptions,
} from "../metrics/response-contains.js";
export { recovery } from "../metrics/recovery.js";
export { toolSafety, looksDeciding } from "../metrics/tool-safety.js";
export type {
  ToolSafetyCase,
  ToolSafetyDetails,
  ToolSafetyOptions,
  ToolSafetyViolation,
  ToolSafetyViolationKind,
} from "../metrics/tool-safety.js";
export { efficiency } from "../metrics/efficiency.js";
export type {
  BudgetCheck,
  EfficiencyCase,
  EfficiencyDetails,
  EfficiencyLoop,
  EfficiencyOptions,
  ToolBudgets,
  ToolEfficiency,
} from "../metrics/efficiency.js";
export type {
  RecoveryCase,
  RecoveryDetails,
  RecoveryFailure,
  RecoveryOptions,
} from "../metrics/recovery.js";
export type {
  CompareArgumentsFunction,
  MatchConstraints,
  MatchOptions,
  OrderMode,
  RulesInput,
  ScoreKind,
  StringsRule,
  ToolRules,
} from "../metrics/match-options.js";
export type { MatchLimits } from "../metrics/limits.js";
export type {
  CallSchemaViolation,
  MatchResult,
  ToolCallScore,
  Violation,
} from "../metrics/match-result.js";
export type { ExpectedCallsInput, ExpectedToolCallInput } from "../metrics/expected-calls.js";
export type {
  AlignmentAlgorithm,
  ArgumentVerdict,
  Mismatch,
  NearMiss,
  PairDetail,
  ToolCallMatchDetails,
} from "../core/explanation.js";
export { callDiffLines, describeMismatch, formatToolCall } from "../core/call-diff.js";
export type { CallDiffOptions, DiffCall } from "../core/call-diff.js";

// Value matchers and argument comparison.
export { isValueMatcher, match } from "../matchers/value-matchers.js";
export type {
  CloseToOptions,
  ExpectedValue,
  RangeOptions,
  TextOptions,
  ValueMatcher,
} from "../matchers/value-matchers.js";
export { compareArguments } from "../matchers/compare-arguments.js";
export type { ArgumentMode, ArgumentRule } from "../matchers/compare-arguments.js";
export { diffArguments } from "../matchers/diff-arguments.js";
export type { DiffArgumentsOptions } from "../matchers/diff-arguments.js";
export type { SchemaViolation } from "../matchers/schema-validation.js";

// Reading transcripts.
export { parseTrajectories, parseTrajectory } from "../adapters/parse-trajectory.js";
export { traceIdsOf } from "../adapters/otlp.js";
export type { ParseTrajectoryOptions } from "../adapters/parse-trajectory.js";
export { detectFormat } from "../adapters/detect-format.js";
export type { FormatDetection } from "../adapters/detect-format.js";
export { createNameNormalizer, normalizeToolName } from "../core/normalize-tool-name.js";
export type { NameNormalizationOptions } from "../core/normalize-tool-name.js";
export { readToolSpecs } from "../adapters/tool-spec.js";
export { trajectoryFormats } from "../core/trajectory.js";
export type {
  NameMapping,
  TokenUsage,
  TraceContext,
  Trajectory,
  TrajectoryFormat,
  TrajectoryStep,
  TrajectoryTurn,
  TrajectoryWarning,
  TrajectoryWarningCode,
} from "../core/trajectory.js";

// Running metrics over cases, and the metric registry.
export { evaluate } from "../evaluate/evaluate.js";
export type { CasePosition, EvaluateOptions, Evaluation, RunEvent } from "../evaluate/evaluate.js";
export type { CaseError, CaseResult, CaseStatus } from "../core/case-result.js";
export type { EvaluationSummary, MetricSummary, TurnSummary } from "../core/summary.js";
export type { GroupBy, RepeatedCase, RepeatsAtK, RepeatSummary } from "../core/repeats.js";
export type { CaseContent, CaseRecord, MetricEntry, RecordedCall } from "../core/case-record.js";
export { createMetric, metricDefinitions } from "../registry/metric-registry.js";
export type { MetricConfigInput, MetricContext } from "../registry/metric-registry.js";
export type { MetricDefinition } from "../core/metric.js";

// Judge models, sessions, batches and prices.
export type {
  DecisionAnswers,
  DecisionQuestion,
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
} from "../core/judge.js";
export { createOpenAIJudge } from "../providers/openai.js";
export type {
  OpenAIClient,
  OpenAIJudgeOptions,
  OpenAIStructuredOutput,
} from "../providers/openai.js";
export { createAnthropicJudge } from "../providers/anthropic.js";
export type {
  AnthropicClient,
  AnthropicJudgeOptions,
  AnthropicStructuredOutput,
} from "../providers/anthropic.js";
export { fromAiSdk, fromAiSdkDecisionModel } from "../providers/ai-sdk.js";
export type {
  AiSdkDecisionJudgeOptions,
  AiSdkDecisionModel,
  AiSdkJudgeOptions,
  AiSdkLanguageModel,
} from "../providers/ai-sdk.js";
export { createOpenAIDecisionsJudge } from "../providers/openai-decisions.js";
export type { OpenAIDecisionsJudgeOptions } from "../providers/openai-decisions.js";
export { createSystemOneJudge } from "../providers/systemone.js";
export type { SystemOneJudgeOptions } from "../providers/systemone.js";
export { defaultDecisionBand } from "../judges/decisions.js";
export type { DecisionBand } from "../judges/decisions.js";
export { resolveJudgeModel } from "../providers/judge-models.js";
export type { JudgeModelSettings } from "../providers/judge-models.js";
export { createJudgeSession } from "../providers/judge-session.js";
export type {
  JudgeCacheMode,
  JudgeSession,
  JudgeSessionOptions,
} from "../providers/judge-session.js";
export { runJudgeBatch } from "../providers/judge-batch.js";
export type { JudgeBatchOutcome, RunJudgeBatchOptions } from "../providers/judge-batch.js";
export { costOf, defaultPrices } from "../core/pricing.js";
export type { ModelPrice, PriceTable } from "../core/pricing.js";

// Judged checks, and calibrating a judge against labels.
export { judgeToolSelection } from "../judges/tool-selection.js";
export type {
  SelectedCall,
  ToolSelectionInput,
  ToolSelectionVerdict,
} from "../judges/tool-selection.js";
export { judgeClaims, judgeFaithfulness, judgeRelevance } from "../judges/faithfulness.js";
export type { BinaryVerdict, ClaimVerdict, ContextReference } from "../judges/faithfulness.js";
export type { JudgeAnswer } from "../judges/ask-judge.js";
export type { PreparedContext, ReadyImage } from "../core/context.js";
export {
  calibrateJudge,
  calibrationSet,
  defaultCalibrationGates,
} from "../judges/calibration/calibrate.js";
export type {
  CalibratedMetric,
  CalibrationCaseResult,
  CalibrationGates,
  CalibrationReport,
  JudgeCalibrationOptions,
} from "../judges/calibration/calibrate.js";
export type { CallLabel, LabelledCase } from "../judges/calibration/judged-metric-cases.js";
export { agreementStats, kappaInterval } from "../judges/calibration/agreement.js";
export type { AgreementStats, LabelledScore } from "../judges/calibration/agreement.js";

// Reports.
export { formatConsoleReport } from "../reporters/console.js";
export type { ConsoleReportOptions } from "../reporters/console.js";
export { formatMarkdownReport } from "../reporters/markdown.js";
export type { MarkdownReportOptions } from "../reporters/markdown.js";
export { formatJUnitReport } from "../reporters/junit.js";
export type { JUnitReportOptions } from "../reporters/junit.js";
export { formatHtmlReport } from "../reporters/html.js";
export type { HtmlReportOptions } from "../reporters/html.js";
