/**
 * toolscore/node: what touches the file system and the network. A judge cache on disk and a store
 * of submitted batches, both safe against crashes mid-write and processes sharing them; and safe
 * image loading from URLs, files and base64 data; datasets streamed from JSONL, JSON and YAML
 * files; results files that survive a kill, resume, and merge.
 */
export {
  createResultsWriter,
  datasetFingerprint,
  datasetFormatOf,
  inlineRecordImages,
  mergeResults,
  readDataset,
  readRecords,
  scanResults,
  sumJudgeSummaries,
  createFileBatchStore,
  createFileJudgeCache,
  describeSource,
  loadContentImages,
  loadImage,
  prepareContexts,
} from "./node/index.js";
export type {
  DatasetEntry,
  DatasetFormat,
  InlineImagesOptions,
  MergeResultsOutcome,
  ReadDatasetOptions,
  ResultsEnd,
  ResultsHeader,
  ResultsScan,
  ResultsWriter,
  ResultsWriterOptions,
  FileJudgeCache,
  ImageLoadOptions,
  LoadedImage,
  PrepareContextsOptions,
} from "./node/index.js";
export { evaluateToFile } from "./runs/evaluate-to-file.js";
export type {
  EvaluateToFileOptions,
  FileEvaluation,
  RunError,
  RunMetric,
} from "./runs/evaluate-to-file.js";
export type { RunMetricConfig } from "./runs/run-metrics.js";
export type { RunProgress } from "./runs/run-progress.js";
