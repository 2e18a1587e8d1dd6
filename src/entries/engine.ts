/**
 * toolscore/engine: the building blocks under the `toolscore` entry point, for library authors
 * and tools built on toolscore (docs/reference/engine.md lists and explains each): alignment over
 * score matrices, the reference libraries' comparisons and score functions, the judges' requests
 * and answer readers, image policies, results-file records and summaries, and JSON helpers.
 *
 * Most users need none of it: `matchToolCalls`, the metrics and `evaluate` of `toolscore` call
 * these for you. Names here may change between minor releases more freely than the root's.
 */

// JSON helpers and results.
export { childPath, isJsonObject, jsonEquals } from "../core/json.js";
export { toErroredResult } from "../core/metric-result.js";

// Transcripts and dataset lines.
export { normalizeTrajectoryNames } from "../adapters/parse-trajectory.js";
export { readToolList } from "../adapters/tool-spec.js";
export { readDatasetCase } from "../adapters/dataset-case.js";
export type {
  CaseTrajectoryInfo,
  DatasetCase,
  ReadDatasetCaseOptions,
} from "../adapters/dataset-case.js";

// Alignment over score matrices.
export { denseScoreMatrix } from "../algorithms/score-matrix.js";
export type { Pair, ScoreMatrix } from "../algorithms/score-matrix.js";
export { maxWeightFlow, optimalAssignment } from "../algorithms/optimal-assignment.js";
export type { Flow, MaxWeightFlowOptions } from "../algorithms/optimal-assignment.js";
export { weightedLcs } from "../algorithms/weighted-lcs.js";
export type { WeightedLcsOptions, WeightedLcsResult } from "../algorithms/weighted-lcs.js";
export { positionalPairs } from "../algorithms/positional.js";
export { axionFirstFitPairs, deepevalGreedyPairs } from "../algorithms/greedy.js";
export type { DeepevalGreedyOptions } from "../algorithms/greedy.js";

// The reference libraries' comparisons and scores, and the argument schema check.
export { sequenceMatcherRatio } from "../matchers/sequence-matcher.js";
export { deepevalCompareParams } from "../matchers/deepeval-compare-params.js";
export { axionFuzzyScore, axionSubsetMatch } from "../matchers/axion-parameters.js";
export { SchemaValidator } from "../matchers/schema-validation.js";
export { scoreDeepevalToolCorrectness } from "../metrics/deepeval-tool-correctness.js";
export type {
  DeepevalEvaluationParam,
  DeepevalMode,
  DeepevalReasonKind,
  DeepevalToolCorrectnessOptions,
  DeepevalToolCorrectnessScore,
  ResolvedDeepevalToolCorrectnessOptions,
} from "../metrics/deepeval-tool-correctness.js";
export { scoreAxionToolCorrectness } from "../metrics/axion-tool-correctness.js";
export type {
  AxionParameterMatchingStrategy,
  AxionScoring,
  AxionToolCorrectnessDetails,
  AxionToolCorrectnessOptions,
  AxionToolCorrectnessScore,
  ResolvedAxionToolCorrectnessOptions,
} from "../metrics/axion-tool-correctness.js";
export type { ResolvedMatchLimits } from "../metrics/limits.js";

// Judges: requests and answer readers.
export { askJudge, unitScore } from "../judges/ask-judge.js";
export type { AskJudgeOptions } from "../judges/ask-judge.js";
export { toolSelectionRequest } from "../judges/tool-selection.js";
export { faithfulnessRequest, readClaims } from "../judges/faithfulness.js";
export { parseModelString } from "../providers/judge-models.js";

// Images without I/O: type and size from the bytes, address and URL policy, limits.
export { sniffImage } from "../media/sniff-image.js";
export type { ImageMediaType, ImageSniff } from "../media/sniff-image.js";
export { checkAddress } from "../media/address-policy.js";
export type { AddressVerdict } from "../media/address-policy.js";
export { checkImageUrl } from "../media/url-policy.js";
export type { UrlCheck } from "../media/url-policy.js";
export { imageLimitsFor } from "../media/limits.js";
export type { ImageLimits } from "../media/limits.js";

// Results-file records and summaries, as `toolscore/node` writes and reads them.
export { createSummaryBuilder } from "../core/summary.js";
export type { SummaryBuilder } from "../core/summary.js";
export { passAtK, passHatK } from "../core/repeats.js";
export { caseContentOf, metricResultsOf, toCaseRecord } from "../evaluate/record.js";
export type { CaseRecordOptions } from "../evaluate/record.js";

// Two runs of a case compared call by call, and their differences weighed against the noise.
export { resolveDiffOptions } from "../diff/diff-rules.js";
export type { DiffOptions, DiffRules } from "../diff/diff-rules.js";
export { diffRunOf } from "../diff/diff-run.js";
export type { DiffCall, DiffRun, DiffTurn } from "../diff/diff-run.js";
export { diffTrajectories } from "../diff/diff-trajectories.js";
export type { DiffTrajectoriesOptions } from "../diff/diff-trajectories.js";
export { divergeCase, divergeRuns } from "../diff/diverge.js";
export type { DivergeCaseOptions, DivergeRunsOptions } from "../diff/diverge.js";
export type {
  CaseDivergence,
  Difference,
  DifferenceKind,
  DivergenceAt,
  TrajectoryComparison,
  TrajectoryDiff,
} from "../core/trajectory-diff.js";
export { answerText, createToolSimulator } from "../simulate/simulate-tools.js";
export type {
  SimulatedCall,
  SimulatedToolSpec,
  ToolAnswer,
  ToolSimulator,
  ToolSimulatorOptions,
} from "../simulate/simulate-tools.js";
export { faultKinds, readToolFixtures } from "../simulate/tool-outputs.js";
export type { FaultKind, ToolFixture } from "../simulate/tool-outputs.js";
export { readSimulatedTools } from "../simulate/simulated-tool-specs.js";
export { exampleOfSchema } from "../simulate/schema-example.js";
export {
  checkUserEnding,
  checkUserMessage,
  expectedByIntent,
  readSimulatedUser,
} from "../simulate/simulated-user.js";
export { lintProviders, lintRules, lintTools, readLintedTools } from "../lint/lint-tools.js";
export { caseToolNames, toolCoverage } from "../lint/tool-coverage.js";
export type { CaseCoverage, CaseToolNames, ToolCoverage, ToolUse } from "../lint/tool-coverage.js";
export type {
  LintFinding,
  LintProvider,
  LintRuleId,
  LintSeverity,
  LintToolsOptions,
} from "../lint/lint-tools.js";
export type {
  SimulatedUser,
  UserFault,
  UserFaultKind,
  UserIntent,
} from "../simulate/simulated-user.js";
