export { createFileJudgeCache } from "./file-judge-cache.js";
export type { FileJudgeCache } from "./file-judge-cache.js";
export { createFileBatchStore } from "./file-batch-store.js";
