import type { MetricEntry } from "../core/case-record.js";
import { formatRate } from "./format.js";

/**
 * How far a sampled judge agreed with itself over a run: its verdicts made of several samples,
 * how many of them the samples were unanimous on, and the sum of their agreement.
 */
export interface JudgeConsistency {
  readonly verdicts: number;
  readonly unanimous: number;
  readonly agreementSum: number;
}

export const noConsistency: JudgeConsistency = { verdicts: 0, unanimous: 0, agreementSum: 0 };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const sampledOver = (value: unknown) => Array.isArray(value) && value.length > 1;

/** A verdict's agreement, when several samples made it (`samples` or `scores` beside it). */
function agreementOf(verdict: unknown): number[] {
  if (!isObject(verdict) || typeof verdict.agreement !== "number") return [];
  return sampledOver(verdict.samples) || sampledOver(verdict.scores) ? [verdict.agreement] : [];
}

/**
 * Adds a metric's result to the tally: its verdict's agreement (task completion, tool
 * selection, graded faithfulness) or each call's (argument correctness), where samples made it.
 */
export function addConsistency(tally: JudgeConsistency, entry: MetricEntry): JudgeConsistency {
  if (entry.status !== "scored" && entry.status !== "not-evaluable") return tally;
  const details = entry.details;
  const agreements = [
    ...agreementOf(details),
    ...(isObject(details) && Array.isArray(details.calls)
      ? details.calls.flatMap(agreementOf)
      : []),
  ];
  if (agreements.length === 0) return tally;
  return {
    verdicts: tally.verdicts + agreements.length,
    unanimous: tally.unanimous + agreements.filter((agreement) => agreement >= 1).length,
    agreementSum: tally.agreementSum + agreements.reduce((sum, agreement) => sum + agreement, 0),
  };
}

/** The run's line, or none when no verdict was sampled. */
export function consistencyLine(tally: JudgeConsistency): string | undefined {
  if (tally.verdicts === 0) return undefined;
  return `judge self-consistency: ${tally.unanimous} of ${tally.verdicts} sampled verdicts unanimous (${formatRate(tally.unanimous / tally.verdicts)}), mean agreement ${formatRate(tally.agreementSum / tally.verdicts)}`;
}
