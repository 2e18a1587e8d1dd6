/**
 * toolscore/node: what touches the file system. A judge cache on disk and a store of submitted
 * batches, both safe against crashes mid-write and against processes sharing them.
 */
export { createFileBatchStore, createFileJudgeCache } from "./node/index.js";
export type { FileJudgeCache } from "./node/index.js";
