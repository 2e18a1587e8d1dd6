import { setTimeout as delay } from "node:timers/promises";
import { open } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import type { SummaryBuilder } from "../core/summary.js";
import type { ResultsWriter } from "../node/results-file.js";
import type { RunProgress } from "./run-progress.js";
import { createBatchScorer } from "./batch.js";
import type { WorkerBatch, WorkerResult, WorkerSetup } from "./batch.js";
import { JsonlCursor } from "../core/jsonl-lines.js";
import { workerFile } from "./worker-file.js";

const statuses = ["passed", "failed", "error"] as const;

export interface ParallelRunInput {
  readonly setup: WorkerSetup;
  readonly workers: number;
  readonly writer: ResultsWriter;
  readonly builder: SummaryBuilder;
  readonly progress: RunProgress;
  /** Whether the case at a dataset position belongs to this run (shards). */
  readonly inShard: (index: number) => boolean;
  /** Whether the case at a dataset position is already in the results file (resume). */
  readonly done: (index: number) => boolean;
  /** Whether the results file held the case before (a retried one). */
  readonly had: (index: number) => boolean;
  readonly signal?: AbortSignal;
  readonly onError: (error: { id: string; line?: number; message: string }) => void;
  readonly onNote: (note: string) => void;
}

export interface ParallelRunOutcome {
  readonly datasetCases: number;
  readonly ran: number;
  readonly replaced: number;
}

/** Lines per batch sent to a worker, and most bytes in one batch. */
const batchLines = 1024;
const batchBytes = 1 << 19;
/** Room for the line that takes a batch past `batchBytes`, most times. */
const batchRoom = batchBytes + (1 << 16);
/** How long batches in workers may still finish once the run is asked to stop. */
const stopGraceMs = 500;

/** Bytes read from the dataset at a time (more when a line is longer). */
const readBytes = 1 << 20;

/**
 * Scores a JSONL dataset with deterministic metrics in batches, in worker threads (or in this
 * thread with `workers: 0`): this thread splits the file into batches of lines
 * (counting positions and lines exactly as `readDataset` does), workers parse and score them,
 * and each batch's records are appended to the results file the moment it comes back. One batch
 * per worker is in flight; reading waits for them. (Two per worker ran 8-10% faster on two cores
 * but kept workers from ever idling, and their heaps, never trimmed, took the run from about 185
 * to 200-240 MiB.)
 */
export async function runInWorkers(input: ParallelRunInput): Promise<ParallelRunOutcome> {
  const { setup, writer, builder, progress, signal } = input;
  const metricCount = setup.metrics.length;
  // Opened first: a dataset that cannot be read leaves no worker behind.
  const handle = await open(setup.dataset, "r");
  const pool = Array.from(
    { length: input.workers },
    () =>
      new Worker(workerFile(), {
        workerData: setup,
        // A small young generation keeps each worker's memory down at little cost in speed.
        resourceLimits: { maxYoungGenerationSizeMb: 4 },
      }),
  );
  const idle = [...pool];
  const waiting = new Map<number, (result: WorkerResult) => void>();
  let failure: Error | undefined;
  for (const worker of pool) {
    worker.on("message", (message: WorkerResult | { id: number; failure: string }) => {
      if ("failure" in message) {
        failure ??= new Error(`a worker thread failed: ${message.failure}`);
        waiting.get(message.id)?.(undefined as unknown as WorkerResult);
      } else waiting.get(message.id)?.(message);
      idle.push(worker);
      wake();
    });
    worker.on("error", (error) => {
      failure ??= error;
      wake();
    });
  }
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    const resolve = wakeUp;
    wakeUp = undefined;
    resolve?.();
  };
  signal?.addEventListener("abort", wake, { once: true });
  const inFlight = new Set<Promise<void>>();
  let datasetCases = 0;
  let ran = 0;
  let replaced = 0;
  let nextId = 0;

  const take = (result: WorkerResult, indices: Int32Array) => {
    writer.writeLines(result.lines);
    for (let at = 0; at < result.count; at++) {
      const status = statuses[result.statuses[at]];
      builder.addFlat({
        id: result.ids[at],
        status,
        kinds: result.kinds,
        scores: result.scores,
        successes: result.successes,
        at: at * metricCount,
      });
      if (input.had(indices[at])) replaced++;
      progress.tick(status);
    }
    ran += result.count;
    for (const error of result.errors) input.onError(error);
    for (const note of result.notes) input.onNote(note);
  };

  const inline = input.workers === 0 ? createBatchScorer(setup) : undefined;
  const send = async (batch: WorkerBatch) => {
    if (inline !== undefined) {
      take(await inline(batch), batch.indices);
      return;
    }
    while (idle.length === 0 && failure === undefined && signal?.aborted !== true) {
      await new Promise<void>((resolve) => (wakeUp = resolve));
    }
    // Asked to stop while waiting for a worker: the batch is left for --resume.
    if (failure !== undefined || signal?.aborted === true) return;
    const worker = idle.pop() as Worker;
    const done = new Promise<void>((resolve) => {
      waiting.set(batch.id, (result) => {
        waiting.delete(batch.id);
        try {
          if (failure === undefined) take(result, batch.indices);
        } catch (error) {
          // A results file that cannot be written (a full disk) ends the run, with its error.
          failure ??= error instanceof Error ? error : new Error(String(error));
          wake();
        }
        resolve();
      });
    });
    worker.postMessage(batch, [batch.bytes.buffer as ArrayBuffer]);
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  // The batch being filled: each line's bytes are copied in as it is read.
  let bytes = new Uint8Array(batchRoom);
  let filled = 0;
  let starts: number[] = [];
  let ends: number[] = [];
  let indices: number[] = [];
  let lines: number[] = [];
  let offsets: number[] = [];
  let sizes: number[] = [];
  const flush = async () => {
    if (starts.length === 0) return;
    const batch: WorkerBatch = {
      id: nextId++,
      bytes: bytes.subarray(0, filled),
      starts: Int32Array.from(starts),
      ends: Int32Array.from(ends),
      indices: Int32Array.from(indices),
      lines: Int32Array.from(lines),
      offsets: Float64Array.from(offsets),
      sizes: Int32Array.from(sizes),
    };
    bytes = new Uint8Array(batchRoom);
    filled = 0;
    starts = [];
    ends = [];
    indices = [];
    lines = [];
    offsets = [];
    sizes = [];
    await send(batch);
  };
  /** Adds a line to the batch; true when the batch is full. */
  const addLine = (
    buffer: Buffer,
    start: number,
    end: number,
    place: { index: number; line: number; offset: number; size: number },
  ): boolean => {
    const length = end - start;
    if (filled + length > bytes.length) {
      const grown = new Uint8Array(Math.max(2 * bytes.length, filled + length));
      grown.set(bytes.subarray(0, filled));
      bytes = grown;
    }
    buffer.copy(bytes, filled, start, end);
    starts.push(filled);
    filled += length;
    ends.push(filled);
    indices.push(place.index);
    lines.push(place.line);
    offsets.push(place.offset);
    sizes.push(place.size);
    return starts.length >= batchLines || filled >= batchBytes;
  };

  // One read buffer, reused: lines are copied out of it into batches.
  let buffer = Buffer.allocUnsafeSlow(readBytes);
  /** Bytes at the start of `buffer` kept from the last read: a line not ended yet. */
  let kept = 0;
  /** Where `buffer[0]` is in the file. */
  let base = 0;
  let index = 0;
  const cursor = new JsonlCursor();
  /** Takes one line; true when the batch is full and must be sent. */
  const onLine = (buffer: Buffer, start: number, newline: number): boolean => {
    // Blank lines are not cases; the rule is readDataset's (one cursor for both).
    if (!cursor.take(buffer, start, newline)) return false;
    const line = cursor.line;
    const begin = cursor.begin;
    const stop = cursor.stop;
    const position = index++;
    const size = (newline < buffer.length ? newline + 1 : newline) - start;
    if (!input.inShard(position)) return false;
    datasetCases++;
    if (input.done(position)) {
      progress.tick("skipped");
      return false;
    }
    return addLine(buffer, begin, stop, { index: position, line, offset: base + start, size });
  };
  try {
    for (;;) {
      if (signal?.aborted === true || failure !== undefined) break;
      if (kept === buffer.length) {
        const grown = Buffer.allocUnsafeSlow(2 * buffer.length);
        buffer.copy(grown, 0, 0, kept);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, kept, buffer.length - kept, base + kept);
      if (bytesRead === 0) break;
      // Only the bytes read now and kept count: the rest of the buffer is stale.
      const view = buffer.subarray(0, kept + bytesRead);
      let start = 0;
      let newline = view.indexOf(10, start);
      while (newline !== -1) {
        if (onLine(view, start, newline)) await flush();
        start = newline + 1;
        newline = view.indexOf(10, start);
      }
      kept = view.length - start;
      if (kept > 0) view.copy(buffer, 0, start, view.length);
      base += start;
      progress.bytes(base);
    }
    if (kept > 0 && signal?.aborted !== true && failure === undefined) {
      onLine(buffer.subarray(0, kept), 0, kept);
    }
    if (signal?.aborted !== true) await flush();
    if (signal?.aborted === true) {
      // Asked to stop: batches still in a worker get a moment, then are left to --resume; what
      // came back is written already.
      await Promise.race([Promise.all(inFlight), delay(stopGraceMs, undefined, { ref: false })]);
    } else {
      await Promise.all(inFlight);
    }
  } finally {
    signal?.removeEventListener("abort", wake);
    await handle.close();
    await Promise.all(pool.map((worker) => worker.terminate()));
  }
  if (failure !== undefined) throw failure;
  return { datasetCases, ran, replaced };
}
