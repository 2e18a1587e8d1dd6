import type { ErrorCode } from "./errors.js";
import type { MetricResult } from "./metric-result.js";

/**
 * - `passed`: every metric scored the case at or above its threshold (or skipped it);
 * - `failed`: some metric scored it below its threshold, and none errored;
 * - `not-evaluable`: a judge could not tell for some metric, and none failed or errored;
 * - `error`: the case could not be read, or some metric could not score it.
 */
export type CaseStatus = (typeof caseStatuses)[number];

/** Every case status, in the order of their codes in flat figures (worker threads, indexes). */
export const caseStatuses = ["passed", "failed", "error", "not-evaluable"] as const;

/** Why a case could not be evaluated at all. */
export interface CaseError {
  readonly code: ErrorCode;
  readonly message: string;
  /** The 1-based line of the dataset, when the format has lines. */
  readonly line?: number;
  readonly field?: string;
}

/** The outcome of one case: one result per metric, in the order of the run's metrics. */
export interface CaseResult {
  /** The case's position in the dataset (0-based). */
  readonly index: number;
  readonly id: string;
  /** The 1-based line of the dataset the case came from, when the format has lines. */
  readonly line?: number;
  /** Which run of the case this was, when the case said (`run`). */
  readonly run?: number;
  /**
   * The case this is a run of, when runs are grouped (a `run` number, or `groupBy`): the summary
   * reports pass@k and pass^k per group.
   */
  readonly group?: string;
  readonly status: CaseStatus;
  /**
   * A conversation's status turn by turn (the case's rule over each metric's result for the
   * turn), when the case has turns.
   */
  readonly turns?: readonly CaseStatus[];
  /** Empty when the case could not be read (`error` says why). */
  readonly results: readonly MetricResult[];
  readonly error?: CaseError;
  /**
   * The run was spoiled by its simulated user, not the agent (`TestCase.simulatorFault`): the case
   * is not evaluable, and the summary counts it apart.
   */
  readonly simulatorFault?: true;
  /** What the run left unused or read otherwise in this case, said to the user (never scored). */
  readonly notes?: readonly string[];
  readonly durationMs: number;
}

/** A case's status from its metric results: error, then failed, then not evaluable, else passed. */
export function caseStatusOf(
  results: readonly (Pick<MetricResult, "status"> & { readonly success?: boolean })[],
): CaseStatus {
  let failed = false;
  let notEvaluable = false;
  for (const result of results) {
    if (result.status === "error") return "error";
    if (result.status === "scored" && result.success !== true) failed = true;
    if (result.status === "not-evaluable") notEvaluable = true;
  }
  return failed ? "failed" : notEvaluable ? "not-evaluable" : "passed";
}
