/**
 * toolscore/node: what touches the file system and the network. A judge cache on disk and a store
 * of submitted batches, both safe against crashes mid-write and processes sharing them; and safe
 * image loading from URLs, files and base64 data.
 */
export {
  createFileBatchStore,
  createFileJudgeCache,
  describeSource,
  loadContentImages,
  loadImage,
  prepareContexts,
} from "./node/index.js";
export type {
  FileJudgeCache,
  ImageLoadOptions,
  LoadedImage,
  PrepareContextsOptions,
} from "./node/index.js";
