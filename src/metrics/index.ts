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
export {
  matchToolCalls,
  matchWithResolvedOptions,
  resolveMatchOptions,
} from "./match-tool-calls.js";
export type {
  CallSchemaViolation,
  MatchConstraints,
  MatchOptions,
  MatchResult,
  OrderMode,
  ResolvedMatchOptions,
  RulesInput,
  ScoreKind,
  ToolRules,
  Violation,
} from "./match-tool-calls.js";
export { toExpectedCalls } from "./expected-calls.js";
export type {
  ExpectedCall,
  ExpectedCalls,
  ExpectedCallsInput,
  ExpectedToolCallInput,
} from "./expected-calls.js";
export { toolCallAccuracy } from "./tool-call-accuracy.js";
export type { ToolCallAccuracyCase, ToolCallAccuracyOptions } from "./tool-call-accuracy.js";
