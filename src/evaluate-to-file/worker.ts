/**
 * A worker thread of a run (`evaluateToFile`, `toolscore eval`): scores the batches of JSONL lines the main thread sends
 * (see batch.ts) and sends back the records and figures.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createBatchScorer } from "./batch.js";
import type { WorkerBatch, WorkerSetup } from "./batch.js";

// Batches that arrive before the metrics are made wait for them, in order.
const ready = createBatchScorer(workerData as WorkerSetup);
// A failure to make them is each batch's failure, reported with it.
ready.catch(() => undefined);

parentPort?.on("message", (batch: WorkerBatch) => {
  ready
    .then((run) => run(batch))
    .then(
      (result) => {
        parentPort?.postMessage(
          result,
          [result.lines, result.statuses, result.kinds, result.scores, result.successes].map(
            (array) => array.buffer as ArrayBuffer,
          ),
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
