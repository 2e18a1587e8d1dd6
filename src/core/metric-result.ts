import { ErrorCode, ToolscoreError } from "./errors.js";

/** A metric produced a score. */
export interface ScoredResult<TDetails> {
  readonly status: "scored";
  readonly metric: string;
  readonly score: number;
  readonly threshold: number;
  readonly success: boolean;
  readonly reason?: string;
  readonly details: TDetails;
}

/** A metric could not score this case; the run goes on. */
export interface ErroredResult {
  readonly status: "error";
  readonly metric: string;
  readonly error: { readonly code: ErrorCode; readonly message: string; readonly field?: string };
}

/** A metric did not apply to this case (for example, a field it scores was absent by design). */
export interface SkippedResult {
  readonly status: "skipped";
  readonly metric: string;
  readonly reason: string;
}

/**
 * A judge answered that the case lacks what it needs to decide (a reference it was not given, a
 * tool output cut off), or its samples disagreed beyond the agreement asked: neither a pass nor a
 * failure, counted apart, with the judge's reason.
 */
export interface NotEvaluableResult<TDetails = unknown> {
  readonly status: "not-evaluable";
  readonly metric: string;
  readonly reason: string;
  readonly details?: TDetails;
}

/** The outcome of one metric on one case. Switch on `status`. */
export type MetricResult<TDetails = unknown> =
  ScoredResult<TDetails> | ErroredResult | SkippedResult | NotEvaluableResult<TDetails>;

/** A score as a result: it passes when it reaches the threshold. */
export function scoredResult<TDetails>(
  metric: string,
  scored: { score: number; threshold: number; reason: string; details: TDetails },
): ScoredResult<TDetails> {
  const { score, threshold, reason, details } = scored;
  return {
    status: "scored",
    metric,
    score,
    threshold,
    success: score >= threshold,
    reason,
    details,
  };
}

/**
 * Records a thrown value as the error outcome of one metric on one case, keeping its code and
 * field when it is a toolscore error.
 */
export function toErroredResult(metric: string, error: unknown): ErroredResult {
  if (ToolscoreError.isInstance(error)) {
    const field = (error as { field?: unknown }).field;
    return {
      status: "error",
      metric,
      error: {
        code: error.code,
        message: error.message,
        ...(typeof field === "string" ? { field } : {}),
      },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { status: "error", metric, error: { code: ErrorCode.METRIC_FAILED, message } };
}
