export { defaultMatchLimits, resolveMatchLimits } from "./limits.js";
export type { MatchLimits, ResolvedMatchLimits } from "./limits.js";
export { toolCallMatrix } from "./tool-call-matrix.js";
export type { ToolCallMatrix, ToolCallMatrixOptions, ToolGroup } from "./tool-call-matrix.js";
export { pairToolCalls } from "./pairing.js";
export type { Pairing } from "./pairing.js";
export { buildMatchDetails, precisionRecallF1 } from "./match-details.js";
export type { BuildMatchDetailsOptions, PairExplanation } from "./match-details.js";
export {
  finalizeDeepevalScore,
  resolveDeepevalToolCorrectnessOptions,
  scoreDeepevalToolCorrectness,
} from "./deepeval-tool-correctness.js";
export type {
  DeepevalEvaluationParam,
  DeepevalMode,
  DeepevalReasonKind,
  DeepevalToolCorrectnessOptions,
  DeepevalToolCorrectnessScore,
  ResolvedDeepevalToolCorrectnessOptions,
} from "./deepeval-tool-correctness.js";
export {
  resolveAxionToolCorrectnessOptions,
  scoreAxionToolCorrectness,
} from "./axion-tool-correctness.js";
export type {
  AxionParameterMatchingStrategy,
  AxionScoring,
  AxionToolCorrectnessDetails,
  AxionToolCorrectnessOptions,
  AxionToolCorrectnessScore,
  ResolvedAxionToolCorrectnessOptions,
} from "./axion-tool-correctness.js";
export { matchToolCalls, matchWithResolvedOptions, scoreToolCalls } from "./match-tool-calls.js";
export { resolveMatchOptions } from "./match-options.js";
export type {
  MatchConstraints,
  MatchOptions,
  OrderMode,
  ResolvedMatchOptions,
  RulesInput,
  ScoreKind,
  ToolCompiled,
  ToolRules,
  StringsRule,
  CompareArgumentsFunction,
} from "./match-options.js";
export type { CallSchemaViolation, MatchResult, ToolCallScore, Violation } from "./match-result.js";
export { toExpectedCalls } from "./expected-calls.js";
export type {
  ExpectedCall,
  ExpectedCalls,
  ExpectedCallsInput,
  ExpectedToolCallInput,
} from "./expected-calls.js";
export { responseContains } from "./response-contains.js";
export type {
  ResponseContainsCase,
  ResponseContainsDetails,
  ResponseContainsOptions,
} from "./response-contains.js";
export { toolCallAccuracy } from "./tool-call-accuracy.js";
export type { ToolCallAccuracyCase, ToolCallAccuracyOptions } from "./tool-call-accuracy.js";
