import { readTurnAggregate } from "../core/turns.js";
import type { TurnAggregate } from "../core/turns.js";
import { readRecordedGate } from "../core/gate.js";
import type { RecordedGate } from "../core/gate.js";
import { readGroupBy } from "../core/repeats.js";
import type { GroupBy } from "../core/repeats.js";
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { DatasetParseError, InvalidOptionError } from "../core/errors.js";
import { integerOption } from "../core/options.js";
import type { ToolscoreError } from "../core/errors.js";
import type { JudgeModel, JudgeRunSummary } from "../core/judge.js";
import { isJsonObject } from "../core/json.js";
import type { ConvertsToMetric, Metric } from "../core/metric.js";
import type { MetricResult } from "../core/metric-result.js";
import { datasetFingerprint, datasetFormatOf, readDataset } from "../node/dataset.js";
import type { DatasetEntry } from "../node/dataset.js";
import type { ResultsHeader, ResultsWriter } from "../node/results-file.js";
import { concludeRun, openResultsRun } from "./results-run.js";
import type { ResultsRun, ResultsRunWording } from "./results-run.js";
import type { JudgeModelSettings } from "../providers/registry.js";
import type { CaseResult, CaseStatus } from "../core/case-result.js";
import { evaluate } from "../evaluate/evaluate.js";
import type { RunEvent, ScoreCaseContext } from "../evaluate/evaluate.js";
import { caseContentOf, summaryInput, toCaseRecord } from "../evaluate/record.js";
import type { CaseContent, CaseRecord } from "../core/case-record.js";
import { defaultDescribe } from "../evaluate/score-case.js";
import type { CasePosition } from "../evaluate/score-case.js";
import { createSummaryBuilder } from "../core/summary.js";
import type { SummaryBuilder } from "../core/summary.js";
import type { EvaluationSummary } from "../core/summary.js";
import { describeEntry, keepError } from "./batch.js";
import type { RunError, WorkerSetup } from "./batch.js";
import { runInWorkers, startScoring } from "./parallel.js";
import type { Scoring } from "./parallel.js";
import { createCasePlacer } from "./shard.js";
import type { CasePlacer } from "./shard.js";
import type { RunMetricConfig } from "../metrics/registry.js";
import { createMetricSet } from "./metric-set.js";
import { resolveJudgeModel } from "../providers/registry.js";
import { createBatchedJudge } from "./judge-batches.js";
import type { RunBatchOptions } from "./judge-batches.js";

/** What a run reports as it reads and scores, for a progress bar. */
export interface RunProgress {
  /** A case finished (`status` tallies), or was skipped as already done. */
  tick(status: CaseStatus | "skipped"): void;
  /** Bytes of the dataset read so far. */
  bytes(read: number): void;
}

export const noProgress: RunProgress = {
  tick() {
    // Nothing to show.
  },
  bytes() {
    // Nothing to show.
  },
};

/**
 * A metric of a run: a config the registry makes it from (`{ metric: "tool-call-accuracy",
 * order: "strict" }`, or `{ metric, options }`), which worker threads can make again, or a
 * metric object (toolscore's, or a compatible class).
 */
export type RunMetric =
  | RunMetricConfig
  | ({ readonly metric: string } & Readonly<Record<string, unknown>>)
  | Metric<never>
  | ConvertsToMetric<never>;

export type { RunError } from "./batch.js";

/** What `details` may be: which cases keep their alignment in the results file. */
export const detailsChoices = ["none", "failed", "all"] as const;

export type DetailsChoice = (typeof detailsChoices)[number];

/** Whether `value` is one of {@link detailsChoices}. */
export function isDetailsChoice(value: unknown): value is DetailsChoice {
  return (detailsChoices as readonly unknown[]).includes(value);
}

export interface EvaluateToFileOptions<TCase extends object = object> {
  /**
   * A dataset file: JSONL (streamed; with deterministic metrics given as configs, scored in
   * batches, in worker threads for big files), JSON or YAML. Give this or `testCases`.
   */
  readonly dataset?: string;
  /** Cases in code: an array or any (async) iterable. Give this or `dataset`. */
  readonly testCases?: Iterable<TCase | ToolscoreError> | AsyncIterable<TCase | ToolscoreError>;
  readonly metrics: readonly RunMetric[];
  /**
   * The results file: one JSON line per finished case, written the moment it finishes. Without
   * it nothing is written (and there is nothing to resume): for callers that want the results
   * only (`toolscore/tracing`'s `evaluateObserved` without `out`).
   */
  readonly out?: string;
  /** Skip the cases the results file already holds (same dataset and configuration only). */
  readonly resume?: boolean;
  /** With `resume`: run again the cases that ended in an error. */
  readonly retryErrors?: boolean;
  /** Start over even if the results file holds an unfinished run. */
  readonly overwrite?: boolean;
  /** Run the cases whose position modulo `count` is `index` (0-based). */
  readonly shard?: { readonly index: number; readonly count: number };
  /**
   * Run at most this many cases (of those the results file does not hold yet), in dataset order;
   * the file is then unfinished, and `resume` goes on from there.
   */
  readonly limit?: number;
  /**
   * Run only the cases of a dataset file whose id `accepts` takes (the file is read once first
   * for its ids). `name` says what chose them; it goes in the results file's header, and a
   * resumed run must choose with the same.
   */
  readonly select?: { readonly accepts: (id: string) => boolean; readonly name: string };
  /**
   * Stop once this many cases failed or errored, as cleanly as a stop by `signal`: what finished
   * is kept, and `resume` goes on. Batched runs then send smaller batches, to stop soon.
   */
  readonly bail?: number;
  /**
   * Ends the run early, as `bail` does (what finished is kept, `resume` goes on), for a reason
   * of the caller's: the CLI stops a run whose judge cannot be reached. Its abort reason is
   * `FileEvaluation.halted`.
   */
  readonly stop?: AbortSignal;
  /** What makes cases runs of one case (see `evaluate`); recorded in the results file. */
  readonly groupBy?: GroupBy;
  /** How conversations' turns make their scores (see `evaluate`); recorded in the results file. */
  readonly turnAggregate?: TurnAggregate;
  /** The gate the run's verdict is stated under, recorded in the results file for the viewer. */
  readonly gate?: RecordedGate;
  /**
   * Which cases keep their alignment (details) in the file: none (default), the failed ones, or
   * all. A case whose JSONL line can be read again, scored by deterministic metrics, keeps its
   * score and reason; reports compute its alignment again from the line. Other cases keep all.
   */
  readonly details?: DetailsChoice;
  /** Worker threads for batched JSONL runs; default 2 for files of 16 MiB or more on 2+ cores. */
  readonly workers?: number;
  /** Cases in flight at once (runs that are not batched). Default 8. */
  readonly concurrency?: number;
  /** Passing score of every configured metric that sets none. */
  readonly threshold?: number;
  /** Normalize tool names read from transcripts (datasets). */
  readonly normalizeNames?: boolean;
  /** The judge of judged metrics given as configs: a model string, a `JudgeModel`, or a function. */
  readonly judge?: string | JudgeModel | (() => JudgeModel);
  readonly modelSettings?: JudgeModelSettings;
  /**
   * Batch mode: the judge questions of the cases to run are gathered first and sent through the
   * provider's batch API (OpenAI Batch API, Anthropic Message Batches), then every case is scored
   * from those answers, with the same results as without batches. Needs `judge`.
   */
  readonly batch?: RunBatchOptions;
  /** The judge's calls, tokens and cost so far, for the results file's end line. */
  readonly judgeSummary?: () => JudgeRunSummary | undefined;
  readonly signal?: AbortSignal;
  /** The dataset's name in the results file (default: the file as given, or "cases"). */
  readonly name?: string;
  /**
   * What identifies the cases, so that resuming with other cases is refused. Default: the
   * dataset file's fingerprint, or a hash of `testCases` when it is an array.
   */
  readonly fingerprint?: string;
  /** How options are spelled in messages (the CLI's flags); default the option names. */
  readonly wording?: Omit<ResultsRunWording, "file">;
  /** A result already in hand for a case, taken instead of scoring it (see `evaluate`'s `reuse`). */
  readonly reuse?: (item: TCase, position: CasePosition) => CaseResult | undefined;
  /** Scores a case in place of the metrics (see `evaluate`'s `scoreCase`). */
  readonly scoreCase?: (item: TCase, context: ScoreCaseContext) => Promise<readonly MetricResult[]>;
  /** Where a case sits and its id. */
  readonly describe?: (item: TCase | ToolscoreError, position: number) => CasePosition;
  /** What a record shows of a case (default: the case itself, or its dataset line's place). */
  readonly recordContent?: (result: CaseResult) => CaseContent | undefined;
  /** Each case's result, as it finishes. */
  readonly onResult?: (result: CaseResult) => void;
  readonly onEvent?: (event: RunEvent) => void;
  /** Notes on cases (unknown fields and the like). */
  readonly onNote?: (note: string) => void;
  readonly progress?: RunProgress;
}

export interface FileEvaluation {
  /** Every case of the run, those carried over from a resumed file included. */
  readonly summary: EvaluationSummary;
  /** Cases of the dataset in this run (its shard); 0 when it held none. */
  readonly datasetCases: number;
  /** Cases the earlier run had finished, kept as they were. */
  readonly carried: number;
  /** Cases run now. */
  readonly ran: number;
  /** The first errors, for the console. */
  readonly errors: readonly RunError[];
  readonly aborted: boolean;
  /** True when `limit` left cases for a later run (the results file is unfinished). */
  readonly limited: boolean;
  /** True when `bail` stopped the run. */
  readonly bailed: boolean;
  /** Set when `stop` ended the run before its end: the reason it was aborted with. */
  readonly halted?: { readonly reason: unknown };
  /**
   * False when nothing was written: no `out`, or the dataset held no case to run (an earlier
   * results file is then left as it was).
   */
  readonly written: boolean;
}

/** Where records go when the run has no results file. */
const discard: ResultsWriter = {
  write() {
    // No file.
  },
  writeLines() {
    // No file.
  },
  flush() {
    // No file.
  },
  close() {
    // No file.
  },
  abandon: () => true,
};

/** Datasets from this size are scored in two worker threads by default. */
const parallelFromBytes = 16 * 1024 * 1024;

function hashOf(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}

/** A stable hash of the metrics' configuration, whatever the key order. */
export function configHash(input: {
  metrics: readonly RunMetricConfig[];
  normalizeNames: boolean;
  /** Part of the hash only when set: files written before it existed keep theirs. */
  turnAggregate?: TurnAggregate;
}): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : isJsonObject(value)
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, canonical(value[key])]),
          )
        : value;
  return hashOf(canonical(input));
}

/**
 * Runs cases into a results file: the one run engine, used by `toolscore eval`, by
 * `toolscore/tracing`'s `evaluateObserved`, and by library users. Each finished case is a JSON
 * line the moment it finishes; `resume` skips the cases an earlier run of the same dataset and
 * configuration finished (`retryErrors` runs the errored ones again); `shard` runs one part of
 * the dataset; a JSONL dataset with deterministic metrics given as configs is scored in batches,
 * in worker threads for big files, with the same results. A run whose dataset holds no case
 * writes nothing: an earlier file stays as it was.
 *
 * @example
 * const { summary } = await evaluateToFile({
 *   dataset: "runs.jsonl",
 *   metrics: [{ metric: "tool-call-accuracy", order: "in-order" }],
 *   out: "results.jsonl",
 *   resume: true,
 * });
 */
export async function evaluateToFile<TCase extends object = object>(
  options: EvaluateToFileOptions<TCase>,
): Promise<FileEvaluation> {
  // The run's worker threads start early (see below): whatever ends it, they end with it.
  const owned: { scoring?: Scoring } = {};
  try {
    return await evaluateToFileWith(options, owned);
  } finally {
    await owned.scoring?.close();
  }
}

/** What `evaluateToFile` checks of its options before anything runs, in the order it reports. */
export function resolveRunOptions<TCase extends object>(options: EvaluateToFileOptions<TCase>) {
  if (typeof options !== "object" || (options as unknown) === null) {
    throw new InvalidOptionError({
      option: "options",
      value: options,
      message: "evaluateToFile takes { dataset | testCases, metrics, out, ... }",
    });
  }
  const { dataset, testCases, shard } = options;
  if ((dataset === undefined) === (testCases === undefined)) {
    throw new InvalidOptionError({
      option: "dataset",
      value: dataset,
      message: "evaluateToFile needs a dataset file or testCases (one of them)",
    });
  }
  if (options.out !== undefined && (typeof options.out !== "string" || options.out === "")) {
    throw new InvalidOptionError({
      option: "out",
      value: options.out,
      message: "out must name the results file",
    });
  }
  if (
    shard !== undefined &&
    !(
      Number.isInteger(shard.count) &&
      shard.count >= 1 &&
      Number.isInteger(shard.index) &&
      shard.index >= 0 &&
      shard.index < shard.count
    )
  ) {
    throw new InvalidOptionError({
      option: "shard",
      value: shard,
      message: "shard must be { index, count } with 0 <= index < count",
    });
  }
  const { limit, bail } = options;
  for (const [option, value] of [
    ["limit", limit],
    ["bail", bail],
  ] as const) {
    integerOption(option, value, 1, { min: 1, unit: "cases" });
  }
  const details: unknown = options.details ?? "none";
  if (!isDetailsChoice(details)) {
    throw new InvalidOptionError({
      option: "details",
      value: details,
      message: 'details must be "none", "failed" or "all"',
    });
  }
  const out = options.out === undefined ? undefined : path.resolve(options.out);
  const normalizeNames = options.normalizeNames === true;
  const groupBy = options.groupBy === undefined ? undefined : readGroupBy(options.groupBy);
  const turnAggregate =
    options.turnAggregate === undefined
      ? undefined
      : readTurnAggregate(options.turnAggregate, "turnAggregate");
  const gate = options.gate === undefined ? undefined : readRecordedGate(options.gate);
  if (gate !== undefined && "problem" in gate) {
    throw new InvalidOptionError({
      option: "gate",
      value: options.gate,
      message: gate.problem,
    });
  }
  const file = dataset === undefined ? undefined : path.resolve(dataset);
  // The format is known before anything is written: an unreadable one leaves the file alone.
  const format = file === undefined ? undefined : datasetFormatOf(file);
  return {
    dataset,
    testCases,
    shard,
    limit,
    bail,
    details,
    out,
    normalizeNames,
    groupBy,
    turnAggregate,
    gate,
    file,
    format,
  };
}

/** A run's options as `resolveRunOptions` checked them. */
export type ResolvedRunOptions = ReturnType<typeof resolveRunOptions>;

/** What a run will do, decided before anything is read or written. */
export interface RunPlan<TCase extends object> {
  readonly resolved: ResolvedRunOptions;
  readonly configs: (RunMetricConfig | undefined)[];
  readonly metrics: Metric<TCase>[];
  readonly names: string[];
  /** The configs, when every metric was given as one (the results header then records them). */
  readonly allConfigs: readonly RunMetricConfig[] | undefined;
  /** The details kept of cases whose line can be read again: none, or the failed ones'. */
  readonly keep: "none" | "failed";
  /** The metrics whose details reports can compute again from the dataset's line. */
  readonly recomputable: ReadonlySet<string>;
  /** Set when the cases are scored in batches of lines (worker threads, or this thread). */
  readonly setup: WorkerSetup | undefined;
  readonly workers: number;
}

/** The run's metrics, where they are scored, and which details its records keep. */
export function planRun<TCase extends object>(
  options: EvaluateToFileOptions<TCase>,
  resolved: ResolvedRunOptions,
): RunPlan<TCase> {
  const { details, file, format, normalizeNames, groupBy, turnAggregate } = resolved;
  const { configs, metrics, names, allConfigs, deterministic, ...set } = createMetricSet<TCase>(
    options.metrics,
    {
      allowEmpty: options.scoreCase !== undefined,
      ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
      ...(options.judge === undefined ? {} : { judge: options.judge }),
      ...(options.modelSettings === undefined ? {} : { modelSettings: options.modelSettings }),
      baseDirectory: file === undefined ? process.cwd() : path.dirname(file),
    },
  );
  const workersGiven = options.workers;
  const batched =
    format === "jsonl" && options.scoreCase === undefined && options.reuse === undefined
      ? deterministic
      : undefined;
  const batchable = batched !== undefined;
  if (workersGiven !== undefined) {
    integerOption("workers", workersGiven, 0, { min: 0, max: 64 });
    if (workersGiven > 0 && !batchable) {
      throw new InvalidOptionError({
        option: "workers",
        value: workersGiven,
        message: "worker threads run deterministic metrics given as configs on JSONL datasets only",
      });
    }
  }
  // Cases of these metrics keep only the details asked for when their line can be read again.
  const keep = details === "failed" ? "failed" : "none";
  const recomputable = new Set(details === "all" || format !== "jsonl" ? [] : set.recomputable);
  const workers = !batchable
    ? 0
    : (workersGiven ??
      (statSync(file as string).size >= parallelFromBytes && availableParallelism() >= 2 ? 2 : 0));
  const setup: WorkerSetup | undefined =
    batched === undefined
      ? undefined
      : {
          dataset: file as string,
          metrics: batched,
          normalizeNames,
          recomputable: [...recomputable],
          keep,
          groupBy,
          turnAggregate,
        };
  return { resolved, configs, metrics, names, allConfigs, keep, recomputable, setup, workers };
}

/** The results file a run writes (or none), and what an earlier run left in it. */
interface OpenedRun {
  readonly run: ResultsRun | undefined;
  readonly writer: ResultsWriter;
  readonly previous: ResultsRun["previous"];
  readonly done: (index: number) => boolean;
  /** The summary so far: the earlier run's records of the cases this one skips. */
  readonly builder: SummaryBuilder;
  readonly carried: number;
  /** Chosen by `select`: the positions of the cases to run. */
  readonly chosen: Set<number> | undefined;
}

/**
 * Opens the run: its header (the dataset's fingerprint, the selection read first, so that a
 * dataset that cannot be read leaves the results file as it was), then the results file, summing
 * up what an earlier run of the same cases left there.
 */
async function openRun<TCase extends object>(
  options: EvaluateToFileOptions<TCase>,
  plan: RunPlan<TCase>,
): Promise<OpenedRun> {
  const { dataset, testCases, shard, out, normalizeNames, groupBy, turnAggregate, file } =
    plan.resolved;
  const { metrics, names, allConfigs } = plan;
  const fingerprint =
    options.fingerprint ??
    (file !== undefined
      ? await datasetFingerprint(file)
      : Array.isArray(testCases)
        ? `${testCases.length}:${hashOf(testCases)}`
        : "cases");
  const chosen =
    options.select === undefined
      ? undefined
      : await chosenPositions(file, options.select, normalizeNames);
  const header: ResultsHeader = {
    toolscore: "results",
    version: 1,
    dataset: options.name ?? dataset ?? "cases",
    fingerprint,
    config:
      allConfigs !== undefined
        ? configHash({
            metrics: allConfigs,
            normalizeNames,
            ...(turnAggregate === undefined ? {} : { turnAggregate }),
          })
        : hashOf([
            ...metrics.map((metric) => [metric.id ?? null, metric.name]),
            ...(turnAggregate === undefined ? [] : [turnAggregate]),
          ]),
    metrics: names,
    ...(allConfigs === undefined ? {} : { metricConfigs: allConfigs }),
    ...(normalizeNames ? { normalizeNames } : {}),
    ...(shard === undefined ? {} : { shard }),
    ...(options.select === undefined ? {} : { selection: options.select.name }),
    ...(groupBy === undefined ? {} : { groupBy }),
    ...(turnAggregate === undefined ? {} : { turnAggregate }),
    ...(plan.resolved.gate === undefined ? {} : { gate: plan.resolved.gate }),
    startedAt: new Date().toISOString(),
  };
  const wording = options.wording ?? {
    resume: "resume: true",
    overwrite: "overwrite: true",
    out: "out",
  };
  const newBuilder = () => createSummaryBuilder(names, groupBy === undefined ? {} : { groupBy });
  let builder = newBuilder();
  let carried = 0;
  const carry = (record: CaseRecord) => {
    builder.add(summaryInput(record));
    carried++;
  };
  const run =
    out === undefined
      ? undefined
      : await openResultsRun({
          file: out,
          header,
          resume: options.resume,
          overwrite: options.overwrite,
          retryErrors: options.retryErrors,
          wording: { ...wording, file: options.out as string },
          // The earlier run's records are summed up as the file is checked, in one read.
          onScanned: carry,
        });
  if (run === undefined && (options.resume === true || options.retryErrors === true)) {
    throw new InvalidOptionError({
      option: "resume",
      value: true,
      message: "resume and retryErrors need a results file to resume: give out",
    });
  }
  if (run !== undefined && !run.scannedAreCarried) {
    // A case the file holds twice, or one to retry: summed up again from the carried records.
    builder = newBuilder();
    carried = 0;
    for await (const record of run.carried()) carry(record);
  }
  return {
    run,
    writer: run?.writer ?? discard,
    previous: run?.previous,
    done: run?.done ?? (() => false),
    builder,
    carried,
    chosen,
  };
}

/** What scoring the cases came to. */
interface RunOutcome {
  readonly ran: number;
  readonly replaced: number;
  /** Whether the dataset was read to its end (a bail at its last case stopped nothing). */
  readonly readToEnd: boolean;
  /** What ended the scoring early, if anything did. */
  readonly failure: unknown;
}

/** What scoring the cases writes to and reports through. */
interface Scorer {
  readonly opened: OpenedRun;
  readonly placer: CasePlacer;
  readonly progress: RunProgress & { failures(): number };
  readonly signal: AbortSignal | undefined;
  readonly errors: RunError[];
}

/** Scores the run's cases in worker threads (or this one) in batches of JSONL lines. */
async function runInBatches<TCase extends object>(
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
async function runOneByOne<TCase extends object>(
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

async function evaluateToFileWith<TCase extends object>(
  options: EvaluateToFileOptions<TCase>,
  owned: { scoring?: Scoring },
): Promise<FileEvaluation> {
  const resolved = resolveRunOptions(options);
  const { shard, limit, bail } = resolved;
  // A bail, or the caller's `stop`, ends the run as cleanly as a signal does.
  const bailing = new AbortController();
  const { stop } = options;
  const halt = () => {
    bailing.abort("stop");
  };
  if (stop?.aborted === true) halt();
  else stop?.addEventListener("abort", halt, { once: true });
  const signal =
    bail === undefined && stop === undefined
      ? options.signal
      : options.signal === undefined
        ? bailing.signal
        : AbortSignal.any([options.signal, bailing.signal]);
  const batched = batchedJudgeOf(options);
  const plan = planRun(
    batched === undefined ? options : { ...options, judge: batched.judge },
    resolved,
  );
  // Started first: worker threads load while the dataset's fingerprint is read.
  const scoring =
    plan.setup === undefined ? undefined : startScoring(plan.setup, plan.workers, signal);
  owned.scoring = scoring;
  const opened = await openRun(options, plan);
  const progress = bailAfter(options.progress ?? noProgress, bail, bailing);
  const placer = createCasePlacer({
    shard,
    chosen: opened.chosen,
    done: opened.done,
    limit,
    onDone: () => {
      progress.tick("skipped");
    },
  });
  const errors: RunError[] = [];
  const scorer: Scorer = { opened, placer, progress, signal, errors };
  const started = performance.now();
  const unsent =
    batched === undefined
      ? undefined
      : await batched.gatherAndSend({
          pass: () => gatherPass(options, plan, scorer),
          batch: options.batch as RunBatchOptions,
          signal,
        });
  const { ran, replaced, readToEnd, failure } =
    unsent !== undefined
      ? { ran: 0, replaced: 0, readToEnd: false, failure: unsent }
      : plan.setup !== undefined && scoring !== undefined
        ? await runInBatches(options, plan.setup, scoring, scorer)
        : await runOneByOne(options, plan, scorer);

  // A bail at the dataset's last case stopped nothing: the run is complete.
  const { carried, run, writer, builder } = opened;
  const endedEarly =
    bailing.signal.aborted && !(readToEnd && carried + ran === placer.datasetCases());
  stop?.removeEventListener("abort", halt);
  const bailed = endedEarly && bailing.signal.reason === "bail";
  const halted = endedEarly && bailing.signal.reason === "stop" && stop !== undefined;
  const aborted = options.signal?.aborted === true;
  const datasetCases = placer.datasetCases();
  const limited = placer.limited();
  // Nothing written and nothing to keep (the dataset held no case, or the run failed before its
  // first one): an earlier results file stays as it was.
  const nothingToRun = datasetCases === 0 && shard === undefined && !aborted;
  const written =
    run !== undefined && !((nothingToRun || failure !== undefined) && writer.abandon());
  if (!written) run?.release();
  const summary = concludeRun(
    {
      failure,
      aborted: aborted || bailed || halted,
      limited,
      ran,
      replaced,
      datasetCases,
      judge: options.judgeSummary?.(),
      started,
      builder,
    },
    written ? run : undefined,
  );
  options.onEvent?.({ type: "run-end", summary });
  return {
    summary,
    datasetCases,
    carried,
    ran,
    errors,
    aborted,
    limited,
    bailed,
    ...(halted ? { halted: { reason: stop.reason as unknown } } : {}),
    written,
  };
}

/** The run's judge made to answer from batches, in batch mode. */
function batchedJudgeOf<TCase extends object>(options: EvaluateToFileOptions<TCase>) {
  if (options.batch === undefined) return undefined;
  const given = options.judge;
  if (given === undefined) {
    throw new InvalidOptionError({
      option: "batch",
      value: true,
      message: "batch mode sends the judge's questions in batches: give a judge too",
    });
  }
  return createBatchedJudge(() =>
    typeof given === "function" ? given() : resolveJudgeModel(given, options.modelSettings ?? {}),
  );
}

/**
 * A pass over the run's cases that only gathers judge questions: scored as the run would score
 * them, with nothing written, counted or shown.
 */
async function gatherPass<TCase extends object>(
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
function bailAfter(
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

/** The positions of a dataset's cases whose id a selection accepts (unreadable lines by their fallback id). */
async function chosenPositions(
  file: string | undefined,
  select: { readonly accepts: (id: string) => boolean },
  normalizeNames: boolean,
): Promise<Set<number>> {
  if (file === undefined) {
    throw new InvalidOptionError({
      option: "select",
      value: undefined,
      message: "select chooses cases of a dataset file; filter cases given in code yourself",
    });
  }
  const chosen = new Set<number>();
  let position = 0;
  for await (const entry of readDataset(file, { normalizeNames })) {
    const where = describeEntry(entry, position++);
    if (select.accepts(where.id)) chosen.add(where.index);
  }
  return chosen;
}
