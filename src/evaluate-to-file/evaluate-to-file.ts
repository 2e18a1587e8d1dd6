import { concludeEvaluation } from "./conclude-run.js";
import type { RunError } from "./batch.js";
import { startScoring } from "./parallel.js";
import type { Scoring } from "./parallel.js";
import { createCasePlacer } from "./shard.js";
import type { RunBatchOptions } from "./judge-batches.js";
import { noProgress } from "./run-options.js";
import type { EvaluateToFileOptions, FileEvaluation } from "./run-options.js";
import { resolveRunOptions } from "./resolve-run.js";
import { planRun, batchedJudgeOf } from "./plan-run.js";
import { openRun } from "./open-run.js";
import { runInBatches, runOneByOne, gatherPass, bailAfter } from "./score-run.js";
import type { Scorer } from "./score-run.js";

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
  // Whatever ends the run, its worker threads end with it.
  const owned: { scoring?: Scoring } = {};
  try {
    return await evaluateToFileWith(options, owned);
  } finally {
    await owned.scoring?.close();
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
  const opened = await openRun(options, plan);
  // Started once the results file is open: a run refused there starts no thread.
  const scoring =
    plan.setup === undefined ? undefined : startScoring(plan.setup, plan.workers, signal);
  owned.scoring = scoring;
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
  const outcome =
    unsent !== undefined
      ? { ran: 0, replaced: 0, readToEnd: false, failure: unsent }
      : plan.setup !== undefined && scoring !== undefined
        ? await runInBatches(options, plan.setup, scoring, scorer)
        : await runOneByOne(options, plan, scorer);

  stop?.removeEventListener("abort", halt);
  return concludeEvaluation({
    options,
    opened,
    placer,
    outcome,
    ending: bailing.signal,
    shard,
    started,
    errors,
  });
}
