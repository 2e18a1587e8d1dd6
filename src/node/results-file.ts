import type { TurnAggregate } from "../core/turns.js";
import type { RecordedGate } from "../core/gate.js";
import type { GroupBy } from "../core/repeats.js";
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { NotARegularFileError, openRegularFile } from "./regular-file.js";
import { ResultsFileError, ResultsWriteError } from "../core/errors.js";
import type { JudgeRunSummary } from "../core/judge.js";
import { DEFAULT_MAX_DEPTH, isJsonObject, nestsDeeperThan } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import { caseStatuses } from "../core/case-result.js";
import type { CaseStatus } from "../core/case-result.js";
import type { CaseRecord } from "../core/case-record.js";
import { jsonlLines } from "./dataset.js";
import { writeFlags } from "./output-path.js";

/** The first line of a results file: what was run, on what, with which configuration. */
export interface ResultsHeader {
  readonly toolscore: "results";
  readonly version: 1;
  /** The dataset, as given on the command line. */
  readonly dataset: string;
  /** A SHA-256 of the dataset's bytes (see `datasetFingerprint`). */
  readonly fingerprint: string;
  /** A hash of everything that changes scores: metrics, their options, name normalization. */
  readonly config: string;
  /** The run's metric names, in order. */
  readonly metrics: readonly string[];
  /**
   * The run's metrics as configured (ids, and options with the run's threshold), in the order of
   * `metrics`: reports compute again the details a passing case's record left out.
   */
  readonly metricConfigs?: readonly { readonly metric: string; readonly options: JsonObject }[];
  /** Set when tool names read from transcripts were normalized (reports read cases again). */
  readonly normalizeNames?: boolean;
  /** Set when the run covers one shard of the dataset: cases whose index mod `count` is `index`. */
  readonly shard?: { readonly index: number; readonly count: number };
  /** Set when the run covers the cases a selection chose (`--filter`, `--only-failed`). */
  readonly selection?: string;
  /** Set when cases were grouped as runs of one case by this (`id`, `metadata.<key>`). */
  readonly groupBy?: GroupBy;
  /** Set when the run said how conversations' turns make their scores (`turnAggregate`). */
  readonly turnAggregate?: TurnAggregate;
  /**
   * The gate the run was started under, so that a later reader (the viewer) states its verdict
   * as the run did. It changes no score; read it with `readRecordedGate` (a file may say anything).
   */
  readonly gate?: RecordedGate;
  readonly startedAt: string;
}

/** The line a run writes when it stops, finished or not. A resumed run appends another. */
export interface ResultsEnd {
  readonly toolscore: "end";
  /** False when the run was interrupted (a signal) before every case finished. */
  readonly complete: boolean;
  /** Cases in the file when the line was written (each index once). */
  readonly cases: number;
  /** Cases of the dataset (of the shard, for a shard) this run saw. */
  readonly datasetCases: number;
  readonly judge?: JudgeRunSummary;
  readonly durationMs: number;
  readonly endedAt: string;
}

/**
 * What a results file holds, indexed in constant memory per case: for each case index, where its
 * last line sits (later lines for the same index win, as a retried case's do) and its status.
 */
export interface ResultsScan {
  readonly header: ResultsHeader;
  /** The last end line, if any. */
  readonly end?: ResultsEnd;
  /** Judge usage summed over every end line (every session of a resumed run). */
  readonly judge?: JudgeRunSummary;
  /** Distinct cases in the file. */
  readonly cases: number;
  /** Bytes up to the end of the last whole line; anything after was torn by a kill. */
  readonly validBytes: number;
  /** True when the file ended in a torn (unterminated, unparseable) line. */
  readonly torn: boolean;
  /** Whether a case index has a record. */
  has(index: number): boolean;
  statusOf(index: number): CaseStatus | undefined;
  /** The case indices with records, ascending. */
  indices(): Generator<number>;
  /** Byte offset and length of a case's record line. */
  locate(index: number): { offset: number; length: number } | undefined;
}

const statusCodes: readonly CaseStatus[] = caseStatuses;

/** A growable index from case number to line position, in typed arrays (about 13 bytes a case). */
/** Where each case's last record line sits, by case index. */
class LineIndex {
  // Dense while the indices are (a run of a dataset, or a shard of one); an index far past the
  // cases seen (a results file may say anything) goes to the map, so no file sizes these arrays.
  offsets = new Float64Array(1024);
  lengths = new Uint32Array(1024);
  statuses = new Uint8Array(1024);
  readonly sparse = new Map<
    number,
    { readonly offset: number; readonly length: number; readonly status: number }
  >();
  count = 0;

  set(index: number, offset: number, length: number, status: CaseStatus) {
    const code = statusCodes.indexOf(status) + 1;
    if (
      this.sparse.has(index) ||
      (index >= this.offsets.length && index >= 8 * (this.count + 1024))
    ) {
      if (!this.sparse.has(index)) this.count++;
      this.sparse.set(index, { offset, length, status: code });
      return;
    }
    if (index >= this.offsets.length) {
      let size = this.offsets.length;
      while (size <= index) size *= 2;
      const offsets = new Float64Array(size);
      offsets.set(this.offsets);
      const lengths = new Uint32Array(size);
      lengths.set(this.lengths);
      const statuses = new Uint8Array(size);
      statuses.set(this.statuses);
      this.offsets = offsets;
      this.lengths = lengths;
      this.statuses = statuses;
    }
    if (this.lengths[index] === 0) this.count++;
    this.offsets[index] = offset;
    this.lengths[index] = length;
    this.statuses[index] = code;
  }

  has(at: number): boolean {
    return (at < this.lengths.length && this.lengths[at] !== 0) || this.sparse.has(at);
  }

  /** The status of case `at`'s record, as a 1-based code; 0 if none. */
  statusCode(at: number): number {
    if (at < this.lengths.length && this.lengths[at] !== 0) return this.statuses[at];
    return this.sparse.get(at)?.status ?? 0;
  }

  /** Where the record of case `at` sits; undefined if none. */
  locate(at: number): { offset: number; length: number } | undefined {
    if (at < this.lengths.length && this.lengths[at] !== 0) {
      return { offset: this.offsets[at], length: this.lengths[at] };
    }
    return this.sparse.get(at);
  }

  /** The indices held, in order. */
  *indices(): Generator<number> {
    for (let at = 0; at < this.lengths.length; at++) if (this.lengths[at] !== 0) yield at;
    yield* [...this.sparse.keys()].sort((a, b) => a - b);
  }
}

function isHeader(value: unknown): value is ResultsHeader {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { toolscore?: unknown }).toolscore === "results" &&
    (value as { version?: unknown }).version === 1
  );
}

function isEnd(value: unknown): value is ResultsEnd {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { toolscore?: unknown }).toolscore === "end"
  );
}

function isRecord(value: unknown): value is CaseRecord {
  if (typeof value !== "object" || value === null) return false;
  const record = value as { index?: unknown; status?: unknown; id?: unknown };
  return (
    typeof record.index === "number" &&
    Number.isInteger(record.index) &&
    record.index >= 0 &&
    typeof record.id === "string" &&
    statusCodes.includes(record.status as CaseStatus)
  );
}

/** The most of a file's head and tail read for its header and end lines. */
const EDGE_BYTES = 1 << 16;

/**
 * Whether a results file holds a finished run, told from its first and last lines only: a results
 * header, and an end line saying the run was complete. False when that cannot be told so (a long
 * line, a torn or missing end, a file that is not results): `scanResults` then reads it whole.
 */
export async function holdsFinishedRun(file: string): Promise<boolean> {
  try {
    const { handle, size } = await openRegularFile(file);
    try {
      const head = Buffer.alloc(Math.min(size, EDGE_BYTES));
      await handle.read(head, 0, head.length, 0);
      const headEnd = head.indexOf(10);
      const tailStart = Math.max(0, size - EDGE_BYTES);
      const tail = Buffer.alloc(size - tailStart);
      await handle.read(tail, 0, tail.length, tailStart);
      // The end line, whole: after a newline, and ending with its own.
      const lastStart = tail.lastIndexOf(10, tail.length - 2) + 1;
      if (headEnd < 0 || tail.at(-1) !== 10 || (lastStart === 0 && tailStart > 0)) return false;
      if (tailStart + lastStart <= headEnd) return false;
      const header = JSON.parse(head.toString("utf8", 0, headEnd)) as unknown;
      const end = JSON.parse(tail.toString("utf8", lastStart, tail.length - 1)) as unknown;
      // A file may say anything: only a true `complete` is one.
      return isHeader(header) && isEnd(end) && (end.complete as unknown) === true;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/**
 * Reads a results file's header and indexes its records. A torn last line (the process was
 * killed mid-write) is noted, not an error; any other bad line is.
 *
 * @param onRecord called with every record line in file order (duplicates included), to rebuild
 * a summary without a second pass.
 */
export async function scanResults(
  file: string,
  onRecord?: (record: CaseRecord) => void,
): Promise<ResultsScan> {
  let header: ResultsHeader | undefined;
  let end: ResultsEnd | undefined;
  const judges: JudgeRunSummary[] = [];
  const index = new LineIndex();
  let validBytes = 0;
  let torn = false;
  let pendingError: ResultsFileError | undefined;
  let size: number;
  let endsWithNewline: boolean;
  try {
    const opened = await openRegularFile(file);
    const { handle } = opened;
    try {
      size = opened.size;
      const last = Buffer.alloc(1);
      if (size > 0) await handle.read(last, 0, 1, size - 1);
      endsWithNewline = size > 0 && last[0] === 10;
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new ResultsFileError({
      file,
      message: `cannot read the results file ${file}${error instanceof NotARegularFileError ? `: it ${error.message}` : ""}`,
      cause: error,
    });
  }
  for await (const { text, line, offset, bytes } of jsonlLines(file)) {
    if (pendingError !== undefined) throw pendingError;
    // A last line without its newline was cut short by a kill: dropped, and its case runs again.
    if (offset + bytes === size && !endsWithNewline) {
      torn = true;
      break;
    }
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch (error) {
      pendingError = new ResultsFileError({
        file,
        message: `${file} line ${line} is not valid JSON; the results file is damaged (run again with --overwrite)`,
        cause: error,
      });
      continue;
    }
    // Nothing toolscore writes nests so deep; what does would overflow a report's recursion.
    if (nestsDeeperThan(value, DEFAULT_MAX_DEPTH)) {
      throw new ResultsFileError({
        file,
        message: `${file} line ${line} is nested more than ${DEFAULT_MAX_DEPTH} levels deep: not a line toolscore writes (see docs/reference/limits.md)`,
      });
    }
    if (header === undefined) {
      if (!isHeader(value)) {
        throw new ResultsFileError({
          file,
          message: `${file} is not a toolscore results file (its first line is not a results header)`,
        });
      }
      header = value;
    } else if (isEnd(value)) {
      end = value;
      if (value.judge !== undefined) judges.push(value.judge);
    } else if (isRecord(value)) {
      index.set(value.index, offset, bytes, value.status);
      onRecord?.(value);
    } else {
      throw new ResultsFileError({
        file,
        message: `${file} line ${line} is neither a case record nor an end line`,
      });
    }
    validBytes = offset + bytes;
  }
  if (pendingError !== undefined) throw pendingError;
  if (header === undefined) {
    throw new ResultsFileError({ file, message: `${file} is empty: it holds no results header` });
  }
  const scanned = header;
  const judge = sumJudgeSummaries(judges);
  return {
    header: scanned,
    ...(end === undefined ? {} : { end }),
    ...(judge === undefined ? {} : { judge }),
    cases: index.count,
    validBytes,
    torn,
    has: (at) => index.has(at),
    statusOf: (at) => {
      const code = index.statusCode(at);
      return code === 0 ? undefined : statusCodes[code - 1];
    },
    indices: () => index.indices(),
    locate: (at) => index.locate(at),
  };
}

/**
 * The first `max` records of failed and not evaluable cases in a results file, in the order they
 * finished; reading stops there, so a run with early failures costs little whatever its size.
 * (Such a case is final: a resumed run keeps it, and only errored cases run again.)
 */
export async function firstFailures(file: string, max: number): Promise<CaseRecord[]> {
  const found: CaseRecord[] = [];
  if (max <= 0) return found;
  for await (const { text } of jsonlLines(file)) {
    // Most lines are not failures: only those are parsed.
    if (!text.includes('"status":"failed"') && !text.includes('"status":"not-evaluable"')) continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      continue; // a line torn by a kill
    }
    if (
      isJsonObject(record) &&
      (record.status === "failed" || record.status === "not-evaluable") &&
      typeof record.index === "number"
    ) {
      found.push(record as unknown as CaseRecord);
      if (found.length >= max) break;
    }
  }
  return found;
}

/**
 * The records of a scanned results file in case order (each index once, its last line), read
 * by position in batches, in constant memory.
 */
export async function* readRecords(file: string, scan: ResultsScan): AsyncGenerator<CaseRecord> {
  const { handle } = await openRegularFile(file);
  try {
    const batch: { offset: number; length: number }[] = [];
    const flush = async function* () {
      if (batch.length === 0) return;
      const start = batch[0].offset;
      const last = batch[batch.length - 1];
      const contiguous = batch.every(
        (item, at) => at === 0 || item.offset === batch[at - 1].offset + batch[at - 1].length,
      );
      if (contiguous) {
        const buffer = Buffer.alloc(last.offset + last.length - start);
        await handle.read(buffer, 0, buffer.length, start);
        for (const item of batch) {
          yield JSON.parse(
            buffer.toString("utf8", item.offset - start, item.offset - start + item.length),
          ) as CaseRecord;
        }
      } else {
        for (const item of batch) {
          const buffer = Buffer.alloc(item.length);
          await handle.read(buffer, 0, item.length, item.offset);
          yield JSON.parse(buffer.toString("utf8")) as CaseRecord;
        }
      }
      batch.length = 0;
    };
    for (const at of scan.indices()) {
      const where = scan.locate(at);
      if (where === undefined) continue;
      batch.push(where);
      if (batch.length >= 512) yield* flush();
    }
    yield* flush();
  } finally {
    await handle.close();
  }
}

export interface ResultsWriterOptions {
  /** Append to an existing results file (resume) instead of starting a new one. */
  readonly append?: { readonly validBytes: number };
  /** How often written lines are forced to disk with fdatasync. Default 1000 ms; 0 for every batch. */
  readonly syncIntervalMs?: number;
}

/**
 * Appends records to a results file as they finish. Lines written in the same tick go out in
 * one write, straight to the file (a killed process keeps every line written); fdatasync runs at
 * most once per `syncIntervalMs` and at close, so a power cut loses at most that window. The file
 * is created (or an earlier one replaced) by the first line written, so that a run that ends
 * before it has anything to write can leave an earlier file as it was (`abandon`).
 */
export interface ResultsWriter {
  write(record: CaseRecord): void;
  /** Appends records already written as JSON lines (each ending in a newline), at once. */
  writeLines(text: string | Uint8Array): void;
  /** Writes any pending lines now. */
  flush(): void;
  /** Writes the end line, syncs and closes. */
  close(end: Omit<ResultsEnd, "toolscore" | "endedAt">): void;
  /**
   * Closes without writing, when nothing was written yet: true, and the file (or the earlier
   * one) is as it was. False, and nothing happens, when lines were written.
   */
  abandon(): boolean;
}

/** A write that failed, as the typed error the run ends with, saying what to do. */
function writeErrorOf(file: string, error: unknown): ResultsWriteError {
  const code = (error as { code?: unknown } | null)?.code;
  const systemCode = typeof code === "string" ? code : undefined;
  const cause = error instanceof Error ? error.message : String(error);
  const full = systemCode === "ENOSPC" || systemCode === "EDQUOT";
  return new ResultsWriteError({
    file,
    ...(systemCode === undefined ? {} : { systemCode }),
    message: full
      ? `the disk is full: ${file} cannot take more results (${cause}). Every case written before is kept: free some space, then run the same command with --resume`
      : `${file} cannot be written (${cause}). Every case written before is kept: fix the cause, then run the same command with --resume`,
    cause: error,
  });
}

export function createResultsWriter(
  file: string,
  header: ResultsHeader,
  options: ResultsWriterOptions = {},
): ResultsWriter {
  const interval = options.syncIntervalMs ?? 1000;
  let opened: number | undefined;
  /** The file, created or opened for appending on the first line written. */
  const open = (): number => {
    if (opened !== undefined) return opened;
    // Never through a symbolic link at the file's name: its target is not the results file.
    if (options.append === undefined) {
      mkdirSync(path.dirname(file), { recursive: true });
      opened = openSync(file, writeFlags.truncate);
      writeSync(opened, `${JSON.stringify(header)}\n`);
    } else {
      const fd = openSync(file, writeFlags.update);
      // Drop a line torn by a kill, then write after the last whole line.
      if (fstatSync(fd).size !== options.append.validBytes)
        ftruncateSync(fd, options.append.validBytes);
      closeSync(fd);
      opened = openSync(file, writeFlags.append);
    }
    return opened;
  };
  let pending: string[] = [];
  let scheduled = false;
  let lastSync = performance.now();
  let closed = false;

  let failure: ResultsWriteError | undefined;
  /** A failed write as the run's error, kept: every later write throws it too. */
  const failed = (error: unknown): ResultsWriteError => {
    failure ??= writeErrorOf(file, error);
    return failure;
  };
  /** Writes lines now; forces them to disk when the last sync is `interval` old. */
  const append = (text: string | Uint8Array) => {
    if (failure !== undefined) throw failure;
    try {
      appendNow(text);
    } catch (error) {
      throw failed(error);
    }
  };
  const appendNow = (text: string | Uint8Array) => {
    const fd = open();
    if (typeof text === "string") writeSync(fd, text);
    else for (let at = 0; at < text.length;) at += writeSync(fd, text, at, text.length - at);
    const now = performance.now();
    if (now - lastSync >= interval) {
      fdatasyncSync(fd);
      lastSync = now;
    }
  };
  const flush = () => {
    scheduled = false;
    if (pending.length === 0 || closed) return;
    const text = pending.join("");
    pending = [];
    append(text);
  };
  // A flush of its own (after write) has no caller to throw to: the next call throws.
  const flushLater = () => {
    try {
      flush();
    } catch {
      // Kept in `failure`.
    }
  };

  return {
    write(record) {
      if (closed) throw new Error("the results writer is closed");
      if (failure !== undefined) throw failure;
      pending.push(`${JSON.stringify(record)}\n`);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flushLater);
      }
    },
    writeLines(text) {
      if (closed) throw new Error("the results writer is closed");
      if (text.length === 0) return;
      flush();
      append(text);
    },
    flush,
    close(end) {
      if (closed) return;
      flush();
      const line: ResultsEnd = { toolscore: "end", ...end, endedAt: new Date().toISOString() };
      if (failure !== undefined) throw failure;
      try {
        const fd = open();
        writeSync(fd, `${JSON.stringify(line)}\n`);
        fdatasyncSync(fd);
        closeSync(fd);
      } catch (error) {
        throw failed(error);
      }
      closed = true;
    },
    abandon() {
      if (closed) return opened === undefined;
      flush();
      if (opened !== undefined || pending.length > 0) return false;
      closed = true;
      return true;
    },
  };
}

/** Judge usage over several runs or sessions (a resumed run adds an end line per session). */
export function sumJudgeSummaries(
  summaries: readonly JudgeRunSummary[],
): JudgeRunSummary | undefined {
  if (summaries.length === 0) return undefined;
  const costs = summaries.map((summary) => summary.estimatedCostUsd);
  return {
    calls: summaries.reduce((sum, summary) => sum + summary.calls, 0),
    batchedRequests: summaries.reduce((sum, summary) => sum + summary.batchedRequests, 0),
    cacheHits: summaries.reduce((sum, summary) => sum + summary.cacheHits, 0),
    cacheMisses: summaries.reduce((sum, summary) => sum + summary.cacheMisses, 0),
    failures: summaries.reduce((sum, summary) => sum + summary.failures, 0),
    inputTokens: summaries.reduce((sum, summary) => sum + summary.inputTokens, 0),
    outputTokens: summaries.reduce((sum, summary) => sum + summary.outputTokens, 0),
    estimatedCostUsd: costs.some((cost) => cost === undefined)
      ? undefined
      : costs.reduce((sum: number, cost) => sum + (cost ?? 0), 0),
    unpricedModels: [...new Set(summaries.flatMap((summary) => summary.unpricedModels))],
  };
}
