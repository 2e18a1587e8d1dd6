import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setTimeout as delay } from "node:timers/promises";
import { openRegularFile } from "../node/regular-file.js";
import type { FileHandle } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { caseStatuses } from "../core/case-result.js";
import type { SummaryBuilder } from "../core/summary.js";
import type { ResultsWriter } from "../node/results-file.js";
import type { RunProgress } from "./run-options.js";
import { createBatchScorer } from "./batch.js";
import type { WorkerBatch, WorkerResult, WorkerSetup } from "./batch.js";
import { JsonlCursor, isOverlongLine } from "../core/jsonl-lines.js";
import type { CasePlacer } from "./shard.js";

const statuses = caseStatuses;

export interface ParallelRunInput {
  readonly setup: WorkerSetup;
  /** Where batches are scored (see `startScoring`); the run closes it when it ends. */
  readonly scoring: Scoring;
  readonly writer: ResultsWriter;
  readonly builder: SummaryBuilder;
  readonly progress: RunProgress;
  /** Where each case stands (shard, resume, limit); reading stops at the first left for later. */
  readonly placer: CasePlacer;
  /**
   * Lines per batch at most, or a function asked as each batch starts (a run that stops after
   * n failures sends batches of at most the failures it has left). Default 1024.
   */
  readonly batchLines?: number | (() => number);
  /** Whether the results file held the case before (a retried one). */
  readonly had: (index: number) => boolean;
  readonly signal?: AbortSignal;
  readonly onError: (error: { id: string; line?: number; message: string }) => void;
  readonly onNote: (note: string) => void;
}

export interface ParallelRunOutcome {
  readonly ran: number;
  readonly replaced: number;
  /** Whether the dataset was read to its end. */
  readonly readToEnd: boolean;
}

/**
 * The worker thread's script: beside this module in the ES module build; from the CommonJS
 * bundle (which has no copy of its own) or the sources, the ES module build's, found in the
 * folders above.
 */
function workerFile(): URL {
  const beside = new URL("./worker.js", import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  let folder = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    for (const candidate of [
      path.join(folder, "evaluate-to-file", "worker.js"),
      path.join(folder, "dist", "evaluate-to-file", "worker.js"),
    ]) {
      if (existsSync(candidate)) return pathToFileURL(candidate);
    }
    const parent = path.dirname(folder);
    if (parent === folder) {
      throw new Error(
        "toolscore's worker thread script (dist/evaluate-to-file/worker.js) is missing: reinstall toolscore, or run with workers: 0",
      );
    }
    folder = parent;
  }
}

/** Lines per batch sent to a worker by default, and most bytes in one batch. */
const defaultBatchLines = 1024;
const batchBytes = 1 << 19;
/** Room for the line that takes a batch past `batchBytes`, most times. */
const batchRoom = batchBytes + (1 << 16);
/** How long batches in workers may still finish once the run is asked to stop. */
const stopGraceMs = 500;

/** Bytes read from the dataset at a time (more when a line is longer). */
const readBytes = 1 << 20;

/**
 * Scores a JSONL dataset with deterministic metrics in batches, in worker threads (or in this
 * thread with `workers: 0`): this thread splits the file into batches of lines (counting
 * positions and lines exactly as `readDataset` does), workers parse and score them, and each
 * batch's records are appended to the results file the moment it comes back. Two batches per
 * worker are in flight at most, and reading waits for them, which keeps the heaps small.
 */
export async function runInWorkers(input: ParallelRunInput): Promise<ParallelRunOutcome> {
  const { signal, scoring: scorer } = input;
  let handle: FileHandle;
  try {
    ({ handle } = await openRegularFile(input.setup.dataset));
  } catch (error) {
    // A dataset that cannot be read leaves no worker behind.
    await scorer.close();
    throw error;
  }
  const tally = createTally(input);
  // A stop or a failure ends the run; the limit only ends the reading.
  const stopped = () => signal?.aborted === true || scorer.failure() !== undefined;
  const batches = createBatchFiller(input.batchLines ?? defaultBatchLines);
  const submit = async () => {
    const batch = batches.take();
    if (batch !== undefined) await scorer.submit(batch, stopped, tally.take);
  };
  const lines = selectLines(input, batches);
  let readToEnd: boolean;
  try {
    readToEnd = await readLines(handle, {
      onLine: lines,
      flush: submit,
      stopped: () => stopped() || input.placer.limited(),
      progress: input.progress,
    });
    if (signal?.aborted !== true) await submit();
    // Asked to stop, now or while the last batches are scored: those still in a worker get a
    // moment, then are left to --resume; what came back is written already.
    await scorer.drain(stopGraceMs);
  } finally {
    await handle.close();
    await scorer.close();
  }
  const failure = scorer.failure();
  if (failure !== undefined) throw failure;
  return { ...tally.counts, readToEnd };
}

/** What the run counts, and what it does with a scored batch: write, summarize, report. */
function createTally(input: ParallelRunInput) {
  const { writer, builder, progress } = input;
  const metricCount = input.setup.metrics.length;
  const counts: { ran: number; replaced: number } = { ran: 0, replaced: 0 };
  const take = (result: WorkerResult, indices: Int32Array) => {
    writer.writeLines(result.lines);
    for (let at = 0; at < result.count; at++) {
      const status = statuses[result.statuses[at]];
      const group = result.groups?.[at];
      builder.addFlat({
        id: result.ids[at],
        group: group === "" ? undefined : group,
        status,
        turns: result.turns?.[at],
        simulatorFault: result.simulatorFaults?.includes(at),
        kinds: result.kinds,
        scores: result.scores,
        successes: result.successes,
        at: at * metricCount,
      });
      if (input.had(indices[at])) counts.replaced++;
      progress.tick(status);
    }
    counts.ran += result.count;
    for (const error of result.errors) input.onError(error);
    for (const note of result.notes) input.onNote(note);
  };
  return { counts, take };
}

/**
 * Which lines become cases of this run: not blank (the JSONL line rule, one cursor for every
 * reader), and placed to run (see `createCasePlacer`). Returns the line handler for `readLines`:
 * true when the batch is full. A line over the longest read goes in with no bytes and its true
 * size, which makes it its case's error where the batch is read.
 */
function selectLines(input: ParallelRunInput, batches: BatchFiller): LineHandler {
  const cursor = new JsonlCursor();
  let index = 0;
  return (buffer, start, newline, base, overlong) => {
    const size = overlong ?? (newline < buffer.length ? newline + 1 : newline) - start;
    if (isOverlongLine(size)) cursor.skip();
    else if (!cursor.take(buffer, start, newline)) return false;
    const position = index++;
    if (input.placer.place(position) !== "run") return false;
    return batches.add(buffer, cursor.begin, cursor.stop, {
      index: position,
      line: cursor.line,
      offset: base + start,
      size,
    });
  };
}

/**
 * Takes one line of `buffer` (`newline` is its end); `base` is where the buffer sits in the file.
 * A line over the longest read comes with its size (`overlong`) and none of its bytes.
 */
type LineHandler = (
  buffer: Buffer,
  start: number,
  newline: number,
  base: number,
  overlong?: number,
) => boolean;

/**
 * Reads a file's lines through one reused buffer, grown for a longer line (up to the longest
 * read: the rest of a longer one is passed over, counted): each is handed to `onLine` as a view
 * of the buffer, and `flush` runs whenever `onLine` says so. Resolves to whether every line was
 * handed over (false when `stopped` ended the reading before the end).
 */
async function readLines(
  handle: FileHandle,
  input: {
    onLine: LineHandler;
    flush: () => Promise<void>;
    stopped: () => boolean;
    progress: RunProgress;
  },
): Promise<boolean> {
  let buffer = Buffer.allocUnsafeSlow(readBytes);
  /** Bytes at the start of `buffer` kept from the last read: a line not ended yet. */
  let kept = 0;
  /** Where `buffer[0]` is in the file. */
  let base = 0;
  /** Bytes of an over-long line passed over so far, while there is one. */
  let skipped: number | undefined;
  const empty = Buffer.alloc(0);
  const { size } = await handle.stat();
  for (;;) {
    if (kept === buffer.length) {
      const grown = Buffer.allocUnsafeSlow(2 * buffer.length);
      buffer.copy(grown, 0, 0, kept);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, kept, buffer.length - kept, base + kept);
    if (bytesRead === 0) break;
    // Checked after the read: a stop at the last line still finds the file's end.
    if (input.stopped()) return false;
    // Only the bytes read now and kept count: the rest of the buffer is stale.
    const view = buffer.subarray(0, kept + bytesRead);
    let start = 0;
    let newline = view.indexOf(10, start);
    if (skipped !== undefined) {
      if (newline === -1) {
        skipped += view.length;
        base += view.length;
        kept = 0;
        continue;
      }
      const line = skipped + newline + 1;
      if (input.onLine(empty, 0, 0, base - skipped, line)) await input.flush();
      skipped = undefined;
      start = newline + 1;
      newline = view.indexOf(10, start);
    }
    while (newline !== -1) {
      if (input.onLine(view, start, newline, base)) {
        await input.flush();
        // Stopped by this batch: read to the end only if it held the file's last line.
        if (input.stopped()) return newline + 1 >= view.length && base + view.length >= size;
      }
      start = newline + 1;
      newline = view.indexOf(10, start);
    }
    kept = view.length - start;
    if (isOverlongLine(kept)) {
      // Its bytes are never held: the line is counted until it ends.
      skipped = kept;
      base += view.length;
      kept = 0;
      buffer = Buffer.allocUnsafeSlow(readBytes);
      input.progress.bytes(base);
      continue;
    }
    if (kept > 0) view.copy(buffer, 0, start, view.length);
    base += start;
    input.progress.bytes(base);
  }
  // The last line, without a newline.
  if (skipped === undefined && kept === 0) return true;
  if (input.stopped()) return false;
  if (skipped !== undefined) input.onLine(empty, 0, 0, base - skipped, skipped);
  else input.onLine(buffer.subarray(0, kept), 0, kept, base);
  return true;
}

/** The batch being filled: each line's bytes are copied in as it is read. */
function createBatchFiller(batchLines: number | (() => number)) {
  const linesPerBatch = typeof batchLines === "number" ? () => batchLines : batchLines;
  let most = linesPerBatch();
  let nextId = 0;
  let bytes = new Uint8Array(batchRoom);
  let filled = 0;
  let starts: number[] = [];
  let ends: number[] = [];
  let indices: number[] = [];
  let lines: number[] = [];
  let offsets: number[] = [];
  let sizes: number[] = [];
  return {
    /** Adds a line; true when the batch is full. */
    add(
      buffer: Buffer,
      start: number,
      end: number,
      place: { index: number; line: number; offset: number; size: number },
    ): boolean {
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
      return starts.length >= most || filled >= batchBytes;
    },
    /** The batch filled so far (undefined when empty), and a new one started. */
    take(): WorkerBatch | undefined {
      if (starts.length === 0) return undefined;
      const batch: WorkerBatch = {
        id: nextId++,
        bytes: bytes.subarray(0, filled),
        starts: Int32Array.from(starts),
        ends: Int32Array.from(ends),
        indices: Int32Array.from(indices),
        lines: Int32Array.from(lines),
        offsets: Float64Array.from(offsets),
        sizes: Float64Array.from(sizes),
      };
      bytes = new Uint8Array(batchRoom);
      filled = 0;
      most = linesPerBatch();
      starts = [];
      ends = [];
      indices = [];
      lines = [];
      offsets = [];
      sizes = [];
      return batch;
    },
  };
}

type BatchFiller = ReturnType<typeof createBatchFiller>;

/**
 * Where a run's batches are scored: `workers` worker threads, or this thread with 0. Started
 * before the run reads its dataset's fingerprint, so that the workers load while it is read; its
 * owner closes it (closing twice is harmless).
 */
export function startScoring(setup: WorkerSetup, workers: number, signal?: AbortSignal): Scoring {
  return workers === 0 ? inlineScorer(setup) : createWorkerPool(setup, workers, signal);
}

/** Where batches are scored: worker threads, or this thread. */
export interface Scoring {
  /**
   * Hands a batch over, waiting for a free worker; `take` gets its result when it comes back.
   * A batch is dropped (left for --resume) when the run stops while it waits.
   */
  submit(
    batch: WorkerBatch,
    stopped: () => boolean,
    take: (result: WorkerResult, indices: Int32Array) => void,
  ): Promise<void>;
  /** What ended the run: a worker that failed, or a results file that could not be written. */
  failure(): Error | undefined;
  /**
   * Waits for the batches in flight; once the run is asked to stop (before or while it waits),
   * at most `graceMs` more.
   */
  drain(graceMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Scores each batch in this thread as it is submitted. */
function inlineScorer(setup: WorkerSetup): Scoring {
  const ready = createBatchScorer(setup);
  // A failure to make the metrics is the first batch's, thrown when it is submitted.
  ready.catch(() => undefined);
  return {
    async submit(batch, stopped, take) {
      const score = await ready;
      // A batch handed over after the run stopped is left for --resume, as a worker pool does.
      if (stopped()) return;
      take(await score(batch), batch.indices);
    },
    failure: () => undefined,
    drain: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

/** Worker threads, two batches in flight each; a stop wakes a batch waiting for a worker. */
function createWorkerPool(setup: WorkerSetup, count: number, signal?: AbortSignal): Scoring {
  const pool = Array.from(
    { length: count },
    () =>
      new Worker(workerFile(), {
        workerData: setup,
        // A small young generation keeps each worker's memory down at little cost in speed.
        resourceLimits: { maxYoungGenerationSizeMb: 3 },
      }),
  );
  // Two batches in flight a worker: the next one waits in its queue while the main thread writes
  // the last one's records, so that no worker idles between batches.
  const idle = [...pool, ...pool];
  const waiting = new Map<number, (result: WorkerResult | undefined) => void>();
  const inFlight = new Set<Promise<void>>();
  let failure: Error | undefined;
  let closed: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    const resolve = wakeUp;
    wakeUp = undefined;
    resolve?.();
  };
  const fail = (error: unknown) => {
    failure ??= error instanceof Error ? error : new Error(String(error));
    wake();
  };
  for (const worker of pool) {
    worker.on("message", (message: WorkerResult | { id: number; failure: string }) => {
      if ("failure" in message) {
        fail(new Error(`a worker thread failed: ${message.failure}`));
        waiting.get(message.id)?.(undefined);
      } else waiting.get(message.id)?.(message);
      idle.push(worker);
      wake();
    });
    worker.on("error", fail);
  }
  signal?.addEventListener("abort", wake, { once: true });
  return {
    async submit(batch, stopped, take) {
      while (idle.length === 0 && !stopped()) {
        await new Promise<void>((resolve) => (wakeUp = resolve));
      }
      if (stopped()) return;
      const worker = idle.pop() as Worker;
      const done = new Promise<void>((resolve) => {
        waiting.set(batch.id, (result) => {
          waiting.delete(batch.id);
          try {
            if (failure === undefined && result !== undefined) take(result, batch.indices);
          } catch (error) {
            // A results file that cannot be written (a full disk) ends the run, with its error.
            fail(error);
          }
          resolve();
        });
      });
      worker.postMessage(batch, [batch.bytes.buffer as ArrayBuffer]);
      inFlight.add(done);
      void done.then(() => inFlight.delete(done));
    },
    failure: () => failure,
    async drain(graceMs) {
      const all = Promise.all(inFlight).then(() => undefined);
      if (signal === undefined) return all;
      let stop: (() => void) | undefined;
      const stopped = signal.aborted
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            stop = () => {
              resolve();
            };
            signal.addEventListener("abort", stop, { once: true });
          });
      try {
        await Promise.race([all, stopped]);
        if (signal.aborted) await Promise.race([all, delay(graceMs, undefined, { ref: false })]);
      } finally {
        if (stop !== undefined) signal.removeEventListener("abort", stop);
      }
    },
    close() {
      signal?.removeEventListener("abort", wake);
      closed ??= Promise.all(pool.map((worker) => worker.terminate())).then(() => undefined);
      return closed;
    },
  };
}
