/**
 * A worker thread of a run (`evaluateToFile`, `toolscore eval`): scores the batches of JSONL lines the main thread sends
 * (see batch.ts) and sends back the records and figures.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createBatchScorer } from "./batch.js";
import type { WorkerBatch, WorkerSetup } from "./batch.js";

const run = createBatchScorer(workerData as WorkerSetup);

parentPort?.on("message", (batch: WorkerBatch) => {
  run(batch).then(
    (result) => {
      parentPort?.postMessage(
        result,
        [
          result.lines,
          result.spent,
          result.statuses,
          result.kinds,
          result.scores,
          result.successes,
        ].map((array) => array.buffer as ArrayBuffer),
      );
    },
    (error: unknown) => {
      parentPort?.postMessage({
        id: batch.id,
        failure: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    },
  );
});
