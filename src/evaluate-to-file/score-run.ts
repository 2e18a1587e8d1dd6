/**
 * The run's fourth step: its cases scored in batches of JSONL lines (worker threads, or this
 * thread) or one by one with `evaluate`, each record written as it finishes; and the pass that
 * only gathers a batch run's judge questions.
 */
import { DatasetParseError } from "../core/errors.js";
import type { ToolscoreError } from "../core/errors.js";
import { readDataset } from "../node/dataset.js";
import type { DatasetEntry } from "../node/dataset.js";
import { evaluate } from "../evaluate/evaluate.js";
import { caseContentOf, toCaseRecord } from "../evaluate/record.js";
import type { CaseContent } from "../core/case-record.js";
import { defaultDescribe } from "../evaluate/score-case.js";
import type { CasePosition } from "../evaluate/score-case.js";
import { createSummaryBuilder } from "../core/summary.js";
import { describeEntry, keepError } from "./batch.js";
import type { RunError, WorkerSetup } from "./batch.js";
import { runInWorkers } from "./parallel.js";
import type { Scoring } from "./parallel.js";
import { createCasePlacer } from "./shard.js";
import type { CasePlacer } from "./shard.js";
import { noProgress } from "./run-options.js";
import type { RunProgress, EvaluateToFileOptions } from "./run-options.js";
import type { RunPlan } from "./plan-run.js";
import type { OpenedRun } from "./open-run.js";
import { discard } from "./open-run.js";

/** What scoring the cases came to. */
export interface RunOutcome {
  readonly ran: number;
  readonly replaced: number;
  /** Whether the dataset was read to its end (a bail at its last case stopped nothing). */
  readonly readToEnd: boolean;
  /** What ended the scoring early, if anything did. */
  readonly failure: unknown;
}

/** What scoring the cases writes to and reports through. */
export interface Scorer {
  readonly opened: OpenedRun;
  readonly placer: CasePlacer;
  readonly progress: RunProgress & { failures(): number };
  readonly signal: AbortSignal | undefined;
  readonly errors: RunError[];
}

/** Scores the run's cases in worker threads (or this one) in batches of JSONL lines. */
export async function runInBatches<TCase extends object>(
  options: EvaluateToFileOptions<TCase>,
  setup: WorkerSetup,
  scoring: Scoring,
  scorer: Scorer,
): Promise<RunOutcome> {
  const { opened, placer, progress, signal, errors } = scorer;
  const { bail } = options;
  try {
    const outcome = await runInWorkers({
      setup,
      scoring,
      writer: opened.writer,
      builder: opened.builder,
      progress,
      placer,
      // Batches of at most the failures left: no case starts after the last one allowed.
      ...(bail === undefined
        ? {}
        : { batchLines: () => Math.max(1, Math.min(16, bail - progress.failures())) }),
      had: (index) => opened.previous?.has(index) === true,
      signal,
      onError: (error) => {
        keepError(errors, error);
      },
      onNote: (note) => options.onNote?.(note),
    });
    return { ...outcome, failure: undefined };
  } catch (error) {
    return { ran: 0, replaced: 0, readToEnd: false, failure: error };
  }
}

/** Scores the run's cases one by one with `evaluate`, from the dataset file or the code's list. */
export async function runOneByOne<TCase extends object>(
  options: EvaluateToFileOptions<TCase>,
  plan: RunPlan<TCase>,
  scorer: Scorer,
): Promise<RunOutcome> {
  const { opened, placer, progress, signal, errors } = scorer;
  const { file, testCases, normalizeNames, groupBy, turnAggregate } = plan.resolved;
  const onNote = options.onNote;
  let ran = 0;
  let replaced = 0;
  // What each case in flight brings to its record: where its JSONL line is (reports read it
  // again from there), or its content.
  const contents = new Map<
    number,
    { content?: CaseContent; source?: { offset: number; bytes: number } }
  >();

  async function* fromDataset(): AsyncGenerator<DatasetEntry> {
    let position = 0;
    for await (const entry of readDataset(file as string, {
      normalizeNames,
      onProgress: (bytes) => {
        progress.bytes(bytes);
      },
    })) {
      const { index } = describeEntry(entry, position++);
      const place = placer.place(index);
      // The first case past the limit: the rest is left for a later run, unread.
      if (place === "later") break;
      if (place !== "run") continue;
      if (!DatasetParseError.isInstance(entry)) {
        contents.set(
          index,
          entry.offset !== undefined && entry.bytes !== undefined
            ? { source: { offset: entry.offset, bytes: entry.bytes } }
            : { content: caseContentOf(entry) },
        );
        for (const note of entry.notes ?? []) {
          onNote?.(`${entry.line === undefined ? entry.id : `line ${entry.line}`}: ${note}`);
        }
      }
      yield entry;
    }
  }
  /** Cases in code are skipped by position (shard, resume, limit), keeping their positions. */
  const skipInCode = (at: number): boolean => placer.place(at) !== "run";
  const describeInCode = (item: TCase | ToolscoreError, position: number): CasePosition => {
    const where = (options.describe ?? defaultDescribe)(item, position);
    if (typeof item === "object" && !(item instanceof Error)) {
      contents.set(where.index, { content: caseContentOf(item) });
    }
    return where;
  };
  const { recomputable, keep } = plan;
  try {
    await evaluate<TCase>({
      testCases:
        file === undefined
          ? (testCases as Iterable<TCase> | AsyncIterable<TCase>)
          : (fromDataset() as AsyncIterable<TCase>),
      metrics: plan.metrics,
      concurrency: options.concurrency,
      signal,
      scoreCase: options.scoreCase,
      ...(options.reuse === undefined ? {} : { reuse: options.reuse }),
      ...(file === undefined ? { skip: skipInCode } : {}),
      keepResults: false,
      groupBy,
      turnAggregate,
      describe: file === undefined ? describeInCode : describeEntry,
      onEvent: (event) => {
        if (event.type === "case-end") {
          const { result } = event;
          const extra = contents.get(result.index);
          contents.delete(result.index);
          const content = options.recordContent?.(result) ?? extra?.content;
          opened.writer.write(toCaseRecord(result, content, extra?.source, { recomputable, keep }));
          opened.builder.add(result);
          ran++;
          if (opened.previous?.has(result.index) === true) replaced++;
          progress.tick(result.status);
          if (result.status === "error") keepError(errors, result);
          for (const note of result.notes ?? []) {
            onNote?.(`${result.line === undefined ? result.id : `line ${result.line}`}: ${note}`);
          }
          options.onResult?.(result);
        }
        if (event.type !== "run-end") options.onEvent?.(event);
      },
    });
    return { ran, replaced, readToEnd: false, failure: undefined };
  } catch (error) {
    return { ran, replaced, readToEnd: false, failure: error };
  }
}

/**
 * A pass over the run's cases that only gathers judge questions: scored as the run would score
 * them, with nothing written, counted or shown.
 */
export async function gatherPass<TCase extends object>(
  options: EvaluateToFileOptions<TCase>,
  plan: RunPlan<TCase>,
  scorer: Scorer,
): Promise<unknown> {
  const { shard, limit } = plan.resolved;
  const { opened } = scorer;
  const quiet: EvaluateToFileOptions<TCase> = {
    ...options,
    onResult: undefined,
    onEvent: undefined,
    onNote: undefined,
    recordContent: undefined,
  };
  const outcome = await runOneByOne(quiet, plan, {
    opened: {
      ...opened,
      writer: discard,
      builder: createSummaryBuilder(plan.names),
      previous: undefined,
    },
    placer: createCasePlacer({
      shard,
      chosen: opened.chosen,
      done: opened.done,
      limit,
      onDone: () => undefined,
    }),
    progress: bailAfter(noProgress, undefined, new AbortController()),
    signal: options.signal,
    errors: [],
  });
  return outcome.failure;
}

/**
 * A progress that aborts `controller` once `most` cases failed or errored (never without
 * `most`), and counts them.
 */
export function bailAfter(
  progress: RunProgress,
  most: number | undefined,
  controller: AbortController,
): RunProgress & { failures(): number } {
  let failures = 0;
  if (most === undefined) {
    return {
      failures: () => failures,
      tick: (status) => {
        progress.tick(status);
      },
      bytes: (read) => {
        progress.bytes(read);
      },
    };
  }
  return {
    failures: () => failures,
    tick(status) {
      progress.tick(status);
      if ((status === "failed" || status === "error") && ++failures >= most) {
        controller.abort("bail");
      }
    },
    bytes: (read) => {
      progress.bytes(read);
    },
  };
}
