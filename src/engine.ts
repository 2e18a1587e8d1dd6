/**
 * toolscore/engine: the building blocks under the `toolscore` entry point, for library authors
 * and tools built on toolscore: the alignment algorithms, the compatible metrics' score
 * functions, the reference libraries' parameter comparisons, the judges' prompt builders and
 * answer readers, image policies, results-file records and summaries, and JSON helpers.
 *
 * Most users need none of it: `matchToolCalls`, the metrics and `evaluate` of `toolscore` call
 * these for you. Names here may change between minor releases more freely than the root's.
 */

// JSON helpers and results.
export {
  DEFAULT_MAX_DEPTH,
  childPath,
  isJsonObject,
  jsonEquals,
  jsonTypeOf,
  toJsonValue,
} from "./core/json.js";
export type { JsonType, ToJsonValueOptions } from "./core/json.js";
export { toErroredResult } from "./core/metric-result.js";

// Transcripts and dataset lines.
export { normalizeTrajectoryNames } from "./adapters/parse-trajectory.js";
export { readToolList } from "./adapters/tool-spec.js";
export { readDatasetCase } from "./adapters/dataset-case.js";
export type {
  CaseTrajectoryInfo,
  DatasetCase,
  ReadDatasetCaseOptions,
} from "./adapters/dataset-case.js";

// Alignment over score matrices.
export { denseScoreMatrix } from "./algorithms/score-matrix.js";
export type { Pair, ScoreMatrix } from "./algorithms/score-matrix.js";
export {
  assignmentWork,
  maxWeightFlow,
  optimalAssignment,
} from "./algorithms/optimal-assignment.js";
export type { Flow, MaxWeightFlowOptions } from "./algorithms/optimal-assignment.js";
export { weightedLcs } from "./algorithms/weighted-lcs.js";
export type { WeightedLcsOptions, WeightedLcsResult } from "./algorithms/weighted-lcs.js";
export { positionalPairs } from "./algorithms/positional.js";
export { axionFirstFitPairs, deepevalGreedyPairs } from "./algorithms/greedy.js";
export type { DeepevalGreedyOptions } from "./algorithms/greedy.js";

// The reference libraries' comparisons, and the argument schema check.
export { sequenceMatcherRatio } from "./matchers/sequence-matcher.js";
export { deepevalCompareParams } from "./matchers/deepeval-compare-params.js";
export {
  axionFuzzyScore,
  axionSubsetMatch,
  axionValueSimilarity,
} from "./matchers/axion-parameters.js";
export { SchemaValidator } from "./matchers/schema-validation.js";

// The compatible metrics' score functions, and match limits.
export {
  finalizeDeepevalScore,
  resolveDeepevalToolCorrectnessOptions,
  scoreDeepevalToolCorrectness,
} from "./metrics/deepeval-tool-correctness.js";
export type {
  DeepevalEvaluationParam,
  DeepevalMode,
  DeepevalReasonKind,
  DeepevalToolCorrectnessOptions,
  DeepevalToolCorrectnessScore,
  ResolvedDeepevalToolCorrectnessOptions,
} from "./metrics/deepeval-tool-correctness.js";
export {
  resolveAxionToolCorrectnessOptions,
  scoreAxionToolCorrectness,
} from "./metrics/axion-tool-correctness.js";
export type {
  AxionParameterMatchingStrategy,
  AxionScoring,
  AxionToolCorrectnessDetails,
  AxionToolCorrectnessOptions,
  AxionToolCorrectnessScore,
  ResolvedAxionToolCorrectnessOptions,
} from "./metrics/axion-tool-correctness.js";
export { defaultMatchLimits } from "./metrics/limits.js";
export type { ResolvedMatchLimits } from "./metrics/limits.js";
export { deterministicMetrics } from "./metrics/registry.js";

// Judges: requests, prompts and answer readers.
export { askJudge, unitScore } from "./judges/ask-judge.js";
export type { AskJudgeOptions } from "./judges/ask-judge.js";
export { readToolSelection, toolSelectionRequest } from "./judges/tool-selection.js";
export {
  toolSelectionInstructions,
  toolSelectionPromptVersion,
  toolSelectionSchema,
} from "./judges/prompts/tool-selection.js";
export {
  claimsRequest,
  claimsScore,
  contextParts,
  faithfulnessRequest,
  readClaims,
  relevanceRequest,
  unjudgeableContexts,
} from "./judges/faithfulness.js";
export { judgeProviders, parseModelString } from "./providers/registry.js";
export { batchRunKey } from "./providers/judge-batch.js";
export { judgeCacheKey } from "./providers/cache-key.js";
export { priceOf } from "./providers/pricing.js";

// Images without I/O: type and size from the bytes, address and URL policy, limits.
export { sniffImage } from "./media/sniff-image.js";
export type { ImageMediaType, ImageSniff } from "./media/sniff-image.js";
export { classifyContext } from "./media/classify-context.js";
export type { ClassifiedContext } from "./media/classify-context.js";
export { checkAddress } from "./media/address-policy.js";
export type { AddressVerdict } from "./media/address-policy.js";
export { checkImageUrl } from "./media/url-policy.js";
export type { UrlCheck } from "./media/url-policy.js";
export { defaultImageLimits, imageLimitsFor, providerImageLimits } from "./media/limits.js";
export type { ImageLimits } from "./media/limits.js";

// Results-file records and summaries, as `toolscore/node` writes and reads them.
export { caseStatusOf } from "./core/case-result.js";
export { FlatOutcome, createSummaryBuilder } from "./core/summary.js";
export { createRepeatTally, groupKeyOf, passAtK, passHatK, readGroupBy } from "./core/repeats.js";
export type { RepeatTally } from "./core/repeats.js";
export type { SummaryBuilder } from "./core/summary.js";
export { caseContentOf, metricResultsOf, toCaseRecord } from "./evaluate/record.js";
export type { CaseRecordOptions } from "./evaluate/record.js";
export { createCaseSelector } from "./reporters/html.js";
export { escapeXml } from "./reporters/junit.js";
