/**
 * The run's last step: whether it ended early and why (a bail, the caller's stop, a signal),
 * whether its results file is kept (a run with nothing to run leaves an earlier file as it was),
 * and its summary, written as the file's last line.
 */
import type { CasePlacer, Shard } from "./shard.js";
import type { RunError } from "./batch.js";
import { concludeRun } from "./results-run.js";
import type { OpenedRun } from "./open-run.js";
import type { RunOutcome } from "./score-run.js";
import type { EvaluateToFileOptions, FileEvaluation } from "./run-options.js";

/** What the run came to, and what ended it. */
export interface Ending<TCase extends object> {
  readonly options: EvaluateToFileOptions<TCase>;
  readonly opened: OpenedRun;
  readonly placer: CasePlacer;
  readonly outcome: RunOutcome;
  /** Aborted with "bail" or "stop" when the run was ended that way. */
  readonly ending: AbortSignal;
  readonly shard: Shard | undefined;
  /** When the scoring started (`performance.now()`). */
  readonly started: number;
  readonly errors: RunError[];
}

/** Concludes a run: its results file kept or left alone, its summary, and the caller's outcome. */
export function concludeEvaluation<TCase extends object>(input: Ending<TCase>): FileEvaluation {
  const { options, opened, placer, ending, shard, started, errors } = input;
  const { ran, replaced, readToEnd, failure } = input.outcome;
  const { stop } = options;
  // A bail at the dataset's last case stopped nothing: the run is complete.
  const { carried, run, writer, builder } = opened;
  const endedEarly = ending.aborted && !(readToEnd && carried + ran === placer.datasetCases());
  const bailed = endedEarly && ending.reason === "bail";
  const halted = endedEarly && ending.reason === "stop" && stop !== undefined;
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
