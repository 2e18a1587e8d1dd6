export { createFileJudgeCache } from "./file-judge-cache.js";
export type { FileJudgeCache } from "./file-judge-cache.js";
export { createFileBatchStore } from "./file-batch-store.js";
export { describeSource, loadImage } from "./load-image.js";
export type { ImageLoadOptions, LoadedImage } from "./load-image.js";
export { prepareContexts } from "./prepare-contexts.js";
export type { PrepareContextsOptions } from "./prepare-contexts.js";
export { loadContentImages } from "./load-content.js";
export { datasetFingerprint, datasetFormatOf, readDataset } from "./dataset.js";
export type { DatasetEntry, DatasetFormat, ReadDatasetOptions } from "./dataset.js";
export {
  createResultsWriter,
  mergeResults,
  readRecords,
  scanResults,
  sumJudgeSummaries,
} from "./results-file.js";
export type {
  MergeResultsOutcome,
  ResultsEnd,
  ResultsHeader,
  ResultsScan,
  ResultsWriter,
  ResultsWriterOptions,
} from "./results-file.js";
export { inlineRecordImages } from "./inline-images.js";
export type { InlineImagesOptions } from "./inline-images.js";
