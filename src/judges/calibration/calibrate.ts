import pLimit from "p-limit";
import { ToolscoreError } from "../../core/errors.js";
import type { JudgeModel, JudgeUsage } from "../../core/judge.js";
import { judgeToolSelection } from "../tool-selection.js";
import { agreementStats } from "./agreement.js";
import type { AgreementStats } from "./agreement.js";
import { toolSelectionCalibrationSet } from "./tool-selection-cases.js";
import type { LabelledToolSelectionCase } from "./tool-selection-cases.js";

export interface CalibrationOptions {
  /** Default: toolscore's labelled set of fifty cases. */
  cases?: readonly LabelledToolSelectionCase[];
  /** Pass/fail line for accuracy and kappa. Default 0.5. */
  threshold?: number;
  /** Judgements in flight at most. Default 8. */
  concurrency?: number;
  signal?: AbortSignal;
}

/** One case of a calibration: the label, and the judge's score or error. */
export interface CalibrationCaseResult {
  readonly id: string;
  readonly label: number;
  readonly score?: number;
  readonly reason?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/** How a judge agrees with the labels, case by case and overall (judged cases only). */
export interface CalibrationReport extends AgreementStats {
  /** `provider/model`. */
  readonly model: string;
  readonly threshold: number;
  /** Cases the judge could not score (counted out of the statistics). */
  readonly errors: number;
  readonly results: readonly CalibrationCaseResult[];
  readonly usage: JudgeUsage;
  readonly costUsd?: number;
}

/**
 * Runs a tool-selection judge over labelled cases and reports its agreement with the labels:
 * pass/fail accuracy, Cohen's kappa, mean absolute error, exact agreement, and every case. A
 * case the judge fails is reported and left out of the statistics; the run goes on.
 *
 * @example
 * const report = await calibrateToolSelectionJudge(resolveJudgeModel("openai/gpt-4.1-mini"));
 * report.cohensKappa; report.meanAbsoluteError;
 */
export async function calibrateToolSelectionJudge(
  model: JudgeModel,
  options: CalibrationOptions = {},
): Promise<CalibrationReport> {
  const cases = options.cases ?? toolSelectionCalibrationSet;
  const threshold = options.threshold ?? 0.5;
  const limit = pLimit(options.concurrency ?? 8);
  const usage = { inputTokens: 0, outputTokens: 0 };
  let cost: number | undefined;
  const results = await Promise.all(
    cases.map((entry) =>
      limit(async (): Promise<CalibrationCaseResult> => {
        try {
          const answer = await judgeToolSelection(
            model,
            entry,
            options.signal === undefined ? {} : { signal: options.signal },
          );
          usage.inputTokens += answer.usage.inputTokens;
          usage.outputTokens += answer.usage.outputTokens;
          if (answer.costUsd !== undefined) cost = (cost ?? 0) + answer.costUsd;
          return {
            id: entry.id,
            label: entry.label,
            score: answer.value.score,
            reason: answer.value.reason,
          };
        } catch (error) {
          if (options.signal?.aborted === true) throw error;
          return {
            id: entry.id,
            label: entry.label,
            error: {
              code: ToolscoreError.isInstance(error) ? error.code : "METRIC_FAILED",
              message: error instanceof Error ? error.message : String(error),
            },
          };
        }
      }),
    ),
  );
  const scored = results.flatMap((result) =>
    result.score === undefined ? [] : [{ label: result.label, score: result.score }],
  );
  return {
    ...agreementStats(scored, threshold),
    model: `${model.provider}/${model.modelId}`,
    threshold,
    errors: results.length - scored.length,
    results,
    usage,
    ...(cost === undefined ? {} : { costUsd: cost }),
  };
}
