/**
 * The judge of a run as its settings describe it: a session made on first need (the cache, the
 * batch store, where its calls go said once), stopped when its first calls reach nothing.
 */
import path from "node:path";
import type { JudgeModel } from "../core/judge.js";
import { endpointShown } from "../core/redact.js";
import type { RunBatchOptions } from "../evaluate-to-file/judge-batches.js";
import { createFileBatchStore } from "../node/file-batch-store.js";
import { createFileJudgeCache } from "../node/file-judge-cache.js";
import { createJudgeSession } from "../providers/judge-session.js";
import type { JudgeSession } from "../providers/judge-session.js";
import { resolveJudgeModel } from "../providers/judge-models.js";
import { printable } from "../reporters/printable.js";
import { refuseTrackedCache } from "./cache.js";
import { judgeCacheDirectory } from "./config.js";
import type { CliIo } from "./io.js";
import type { RunSettings } from "./run-settings.js";

/** What a run's judge is made from. */
export type JudgeSettings = Pick<
  RunSettings,
  | "judge"
  | "judgeBaseURL"
  | "judgeTimeoutMs"
  | "judgeMaxRetries"
  | "judgeConcurrency"
  | "judgeRequestsPerMinute"
  | "judgeCache"
  | "judgeBatchIntervalSeconds"
  | "judgeBatchMaxChecks"
  | "noCache"
  | "batch"
>;

/**
 * The run's judge session, made when a judged metric first asks for its model; no model when
 * the run names no judge (a metric that needs one is then refused when it is made).
 */
/** A run's judge: its model (when the run names one), its costs so far, its stop, its batches. */
export interface RunJudge {
  readonly model: (() => JudgeModel) | undefined;
  readonly summary: () => ReturnType<JudgeSession["summary"]> | undefined;
  /** Aborted, with the first error, when the judge cannot be reached. */
  readonly stop: AbortSignal;
  /** Batch mode: the questions go through the session (its cache first), remembered on disk. */
  readonly batch: RunBatchOptions | undefined;
}

export function judgeOnDemand(
  plan: JudgeSettings,
  io: CliIo,
  /** What the model is to the run, as it is said: the judge, or the model playing simulated users. */
  role: "judge" | "user model" = "judge",
): RunJudge {
  const name = plan.judge;
  let session: JudgeSession | undefined;
  // A judge the first calls cannot reach stops the run: one error, not one per case.
  const unreachable = new AbortController();
  const sessionOf = (model: string): JudgeSession => {
    if (session !== undefined) return session;
    const judge = resolveJudgeModel(model, {
      env: io.env,
      keysFrom: "environment",
      ...(plan.judgeBaseURL === undefined ? {} : { baseURL: plan.judgeBaseURL }),
      timeoutMs: plan.judgeTimeoutMs,
      ...(plan.judgeMaxRetries === undefined ? {} : { maxRetries: plan.judgeMaxRetries }),
    });
    const cacheDirectory = plan.noCache ? undefined : judgeCacheDirectory(plan, io);
    if (cacheDirectory !== undefined) refuseTrackedCache(cacheDirectory);
    // A run that asks a judge says which, and where its calls (and the key) go.
    io.stderr.write(`toolscore: ${judgeShown(judge, role)}\n`);
    session = createJudgeSession(judge, {
      ...(plan.judgeConcurrency === undefined ? {} : { concurrency: plan.judgeConcurrency }),
      ...(plan.judgeRequestsPerMinute === undefined
        ? {}
        : { requestsPerMinute: plan.judgeRequestsPerMinute }),
      ...(cacheDirectory === undefined ? {} : { cache: createFileJudgeCache(cacheDirectory) }),
      onUnreachable: (error) => {
        unreachable.abort(error);
      },
    });
    return session;
  };
  return {
    model: name === undefined ? undefined : (): JudgeModel => sessionOf(name).model,
    summary: () => session?.summary(),
    stop: unreachable.signal,
    batch:
      name === undefined || !plan.batch
        ? undefined
        : batchOf(plan, io, (requests, options) => sessionOf(name).runBatch(requests, options)),
  };
}

/**
 * The run's batch settings: checks as configured, submitted batches remembered beside the judge
 * cache (a restarted run polls them instead of paying again), each batch said as it is sent.
 */
function batchOf(
  plan: JudgeSettings,
  io: CliIo,
  runBatch: JudgeSession["runBatch"],
): RunBatchOptions {
  const cacheDirectory = plan.noCache ? undefined : judgeCacheDirectory(plan, io);
  const intervalSeconds = plan.judgeBatchIntervalSeconds;
  const maxChecks = plan.judgeBatchMaxChecks;
  return {
    session: { runBatch },
    intervalSeconds,
    maxChecks,
    ...(cacheDirectory === undefined
      ? {}
      : { store: createFileBatchStore(path.join(cacheDirectory, "batches")) }),
    onSubmit: ({ round, requests }) => {
      io.stderr.write(
        `toolscore: batch ${round}: ${requests} judge question${requests === 1 ? "" : "s"} sent through the provider's batch API; checking every ${intervalSeconds} s, at most ${maxChecks} times\n`,
      );
    },
  };
}

/** A judge as a run names it: its model, and the endpoint its calls go to (no credentials). */
export function judgeShown(model: JudgeModel, role = "judge"): string {
  const where =
    model.endpoint === undefined
      ? "an endpoint its provider chooses"
      : printable(endpointShown(model.endpoint));
  return `${role} ${printable(`${model.provider}/${model.modelId}`)} at ${where}`;
}
