import { statSync } from "node:fs";
import { ResultsFileError } from "../core/errors.js";
import type { JudgeRunSummary } from "../core/judge.js";
import type { CaseStatus } from "../core/case-result.js";
import type { CaseRecord } from "../core/case-record.js";
import type { EvaluationSummary, SummaryBuilder } from "../core/summary.js";
import {
  createResultsWriter,
  holdsFinishedRun,
  readRecords,
  scanResults,
} from "../node/results-file.js";
import { lockResultsFile } from "../node/results-lock.js";
import type { ResultsHeader, ResultsScan, ResultsWriter } from "../node/results-file.js";

/** How the options that steer a results file are spelled where the user sets them. */
export interface ResultsRunWording {
  /** The file, as the user named it. */
  readonly file: string;
  readonly resume: string;
  readonly overwrite: string;
  readonly out: string;
}

/** A results file opened for a run: new, resumed, or started over. */
export interface ResultsRun {
  readonly writer: ResultsWriter;
  /** The earlier run's file, when this run resumes it. */
  readonly previous?: ResultsScan;
  /** True for a case the earlier run finished (and that is not to be retried). */
  readonly done: (index: number) => boolean;
  /** The earlier run's records of the cases `done` skips, in case order. */
  carried(): AsyncGenerator<CaseRecord>;
  /**
   * True when the records `onScanned` was given are exactly those `carried()` yields (no case
   * twice, none to retry), so that a caller summing them up need not read them again.
   */
  readonly scannedAreCarried: boolean;
  /** Writes the end line and closes the file (see {@link concludeRun}); releases the lock. */
  close(ending: RunEnding): void;
  /** Releases the file's lock without writing (a run that wrote nothing); idempotent. */
  release(): void;
}

/** How a run ended, for its end line and summary. */
export interface RunEnding {
  /** What stopped the run, when something failed (the file is closed first). */
  readonly failure?: unknown;
  readonly aborted: boolean;
  /** True when the run's limit left cases for a later run: the file is unfinished. */
  readonly limited?: boolean;
  /** Cases this session ran, and how many of them the earlier run held already (retried). */
  readonly ran: number;
  readonly replaced: number;
  readonly datasetCases: number;
  readonly judge?: JudgeRunSummary | undefined;
  /** `performance.now()` when the run started. */
  readonly started: number;
  /** The summary of every case, carried ones included. */
  readonly builder: SummaryBuilder;
}

/**
 * Opens a run's results file. Without `resume`, an existing file that holds an unfinished run is
 * refused (it would be lost) unless `overwrite`; a finished one is replaced. With `resume`, the
 * file must come from the same dataset (`fingerprint`), configuration (`config`) and shard, and
 * its cases are skipped (those that ended in an error run again with `retryErrors`).
 */
export async function openResultsRun(input: {
  file: string;
  header: ResultsHeader;
  resume?: boolean;
  overwrite?: boolean;
  retryErrors?: boolean;
  wording: ResultsRunWording;
  /** Each record of a resumed file as it is checked, in file order (duplicates included). */
  onScanned?: (record: CaseRecord) => void;
}): Promise<ResultsRun> {
  const { file, wording } = input;
  // One run writes a results file at a time: a second one would interleave its lines.
  const release = lockResultsFile(file, wording.file);
  try {
    return await openLocked(input, release);
  } catch (error) {
    release();
    throw error;
  }
}

async function openLocked(
  input: Parameters<typeof openResultsRun>[0],
  release: () => void,
): Promise<ResultsRun> {
  const { file, header, wording } = input;
  let previous: ResultsScan | undefined;
  let scanned = 0;
  let scannedErrors = 0;
  // A finished run is replaced: its first and last lines tell so, without reading it all.
  const replaced =
    input.resume !== true && input.overwrite !== true && (await holdsFinishedRun(file));
  // An empty file holds no run (the lock creates one to lock it): nothing to keep or resume.
  const holdsLines = (statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0;
  if (holdsLines && input.overwrite !== true && !replaced) {
    let scan: ResultsScan;
    try {
      scan = await scanResults(
        file,
        input.resume === true
          ? (record) => {
              scanned++;
              if (record.status === "error") scannedErrors++;
              input.onScanned?.(record);
            }
          : undefined,
      );
    } catch (error) {
      throw new ResultsFileError({
        file,
        message: `${wording.file} exists and is not a usable results file (${error instanceof Error ? error.message : String(error)}); choose another ${wording.out}, or ${wording.overwrite}`,
        cause: error,
      });
    }
    if (input.resume === true) {
      const same = scan.header;
      const mismatch =
        same.fingerprint !== header.fingerprint
          ? "the dataset, or a transcript file its cases name, has changed since"
          : same.config !== header.config
            ? "the metrics or their options have changed since"
            : JSON.stringify(same.shard) !== JSON.stringify(header.shard)
              ? "it was run with another shard"
              : same.selection !== header.selection
                ? "it was run on another selection of cases (--filter, --only-failed)"
                : same.groupBy !== header.groupBy
                  ? "it grouped its runs otherwise (--group-by)"
                  : undefined;
      if (mismatch !== undefined) {
        throw new ResultsFileError({
          file,
          message: `cannot resume ${wording.file}: ${mismatch}; run with ${wording.overwrite} to start over, or choose another ${wording.out}`,
        });
      }
      previous = scan;
    } else if (scan.end?.complete !== true) {
      throw new ResultsFileError({
        file,
        message: `${wording.file} holds an unfinished run (${scan.cases} cases); add ${wording.resume} to finish it, or ${wording.overwrite} to start over`,
      });
    }
  }
  const retry = input.retryErrors === true;
  const scannedAreCarried =
    previous === undefined || (scanned === previous.cases && !(retry && scannedErrors > 0));
  const done = (index: number) =>
    previous !== undefined &&
    previous.has(index) &&
    !(retry && previous.statusOf(index) === ("error" satisfies CaseStatus));
  const writer = createResultsWriter(file, previous === undefined ? header : previous.header, {
    ...(previous === undefined ? {} : { append: { validBytes: previous.validBytes } }),
  });
  return {
    writer,
    ...(previous === undefined ? {} : { previous }),
    done,
    scannedAreCarried,
    close(ending) {
      const { judge } = ending;
      try {
        writer.close({
          complete: ending.failure === undefined && !ending.aborted && ending.limited !== true,
          cases: (previous?.cases ?? 0) + ending.ran - ending.replaced,
          datasetCases: ending.datasetCases,
          ...(judge === undefined ? {} : { judge }),
          durationMs: performance.now() - ending.started,
        });
      } finally {
        release();
      }
    },
    release,
    async *carried() {
      if (previous === undefined) return;
      for await (const record of readRecords(file, previous)) {
        if (done(record.index)) yield record;
      }
    },
  };
}

/**
 * Ends a run: closes its results file, when it has one, with the end line; then rethrows the
 * run's failure, if it had one, or sums it up.
 */
export function concludeRun(ending: RunEnding, run?: ResultsRun): EvaluationSummary {
  run?.close(ending);
  const { failure, judge } = ending;
  if (failure !== undefined)
    throw failure instanceof Error ? failure : new Error("the run failed", { cause: failure });
  return ending.builder.summary({
    durationMs: performance.now() - ending.started,
    aborted: ending.aborted,
    ...(judge === undefined ? {} : { judge }),
  });
}
