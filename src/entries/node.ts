/**
 * toolscore/node: what touches the file system and the network. A judge cache on disk and a store
 * of submitted batches, both safe against crashes mid-write and processes sharing them; and safe
 * image loading from URLs, files and base64 data; datasets streamed from JSONL, JSON and YAML
 * files, or built from recorded transcripts; results files that survive a kill, resume, and merge.
 */
export { createFileJudgeCache } from "../node/file-judge-cache.js";
export type { FileJudgeCache } from "../node/file-judge-cache.js";
export { createFileBatchStore } from "../node/file-batch-store.js";
export { describeSource, loadImage } from "../node/load-image.js";
export type { ImageLoadOptions, LoadedImage } from "../node/load-image.js";
export type { ImageLimits } from "../media/limits.js";
export { prepareContexts } from "../node/prepare-contexts.js";
export type { PrepareContextsOptions } from "../node/prepare-contexts.js";
export { loadContentImages } from "../node/load-content.js";
export { datasetFingerprint, datasetFormatOf, readDataset } from "../node/dataset.js";
export type { DatasetEntry, DatasetFormat, ReadDatasetOptions } from "../node/dataset.js";
export type { DatasetCase } from "../adapters/dataset-case.js";
export { buildRecordingsDataset, findTranscripts } from "../node/recordings.js";
export type { RecordingsDataset, RecordingsDatasetOptions } from "../node/recordings.js";
export { readTranscriptFile } from "../node/transcript-file.js";
export {
  createResultsWriter,
  readRecords,
  scanResults,
  sumJudgeSummaries,
} from "../node/results-file.js";
export { mergeResults } from "../node/merge-results.js";
export type {
  ResultsEnd,
  ResultsHeader,
  ResultsScan,
  ResultsWriter,
  ResultsWriterOptions,
} from "../node/results-file.js";
export type { MergeResultsOutcome } from "../node/merge-results.js";
export { inlineRecordImages } from "../node/inline-images.js";
export type { InlineImagesOptions } from "../node/inline-images.js";
export { evaluateToFile } from "../evaluate-to-file/evaluate-to-file.js";
export { dryRun } from "../evaluate-to-file/dry-run.js";
export type { DryRunResult } from "../evaluate-to-file/dry-run.js";
export {
  compareResults,
  summarizeResults,
  writeEvaluationEvents,
  writeResultsReports,
} from "../reports/results-reports.js";
export type { EvaluationEventsWritten } from "../reports/results-reports.js";
export { compareTrajectories } from "../reports/trajectory-comparison.js";
export type { CompareTrajectoriesOptions } from "../reports/trajectory-comparison.js";
export type {
  CaseDivergence,
  Difference,
  DivergenceAt,
  TrajectoryComparison,
} from "../core/trajectory-diff.js";
export type { DiffOptions } from "../diff/diff-rules.js";
export type { WriteResultsReportsOptions } from "../reports/results-reports.js";
export type {
  EvaluateToFileOptions,
  FileEvaluation,
  RunError,
  RunMetric,
} from "../evaluate-to-file/run-options.js";
export type { RunMetricConfig } from "../metrics/definitions.js";
export type { RecordedGate } from "../core/gate.js";
export type { RunBatchOptions } from "../evaluate-to-file/judge-batches.js";
export type { RunProgress } from "../evaluate-to-file/run-options.js";
export { recordAgentRuns } from "../agent/record-runs.js";
export type {
  FinishedRun,
  RecordAgentRunsOptions,
  RecordedRuns,
  StartedRun,
} from "../agent/record-runs.js";
export { resolveAgent } from "../agent/resolve-agent.js";
export { mergeRecordings } from "../agent/merge-recordings.js";
export type { MergeRecordingsOptions } from "../agent/merge-recordings.js";
export type { ResolveAgentOptions } from "../agent/resolve-agent.js";
export type { CommandProcess } from "../agent/command-agent.js";
export { runAgentOnce } from "../agent/agent.js";
export { createToolbox } from "../agent/toolbox.js";
export type { ToolResult, Toolbox } from "../agent/toolbox.js";
export { loadToolSimulation } from "../agent/simulation.js";
export type { ToolSimulation } from "../agent/simulation.js";
export { serveToolsOverStdio, startHttpToolServer } from "../agent/mcp-tools.js";
export type { HttpToolServer, ToolServer } from "../agent/mcp-tools.js";
export type {
  Agent,
  AgentContext,
  AgentFunction,
  AgentOutcome,
  AgentRequest,
  AgentTurn,
} from "../agent/agent.js";
