/**
 * What `evaluateToFile` takes and gives back: its options (the run's settings, as a library user
 * writes them) and its outcome. The run's steps, one file each: resolve-run (check the options),
 * plan-run (the metrics, where they are scored), open-run (the results file), score-run (cases in
 * batches or one by one), conclude-run (the summary, the file kept or left alone).
 */
import type { TurnAggregate } from "../core/turns.js";
import type { RecordedGate } from "../core/gate.js";
import type { GroupBy } from "../core/repeats.js";
import type { ToolscoreError } from "../core/errors.js";
import type { JudgeModel, JudgeRunSummary } from "../core/judge.js";
import type { ConvertsToMetric, Metric } from "../core/metric.js";
import type { MetricResult } from "../core/metric-result.js";
import type { ResultsRunWording } from "./results-run.js";
import type { JudgeModelSettings } from "../providers/judge-models.js";
import type { CaseResult, CaseStatus } from "../core/case-result.js";
import type { RunEvent, ScoreCaseContext } from "../evaluate/evaluate.js";
import type { CaseContent } from "../core/case-record.js";
import type { CasePosition } from "../evaluate/score-case.js";
import type { EvaluationSummary } from "../core/summary.js";
import type { RunError } from "./batch.js";
import type { RunMetricConfig } from "../metrics/definitions.js";
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
