import { plural } from "./words.js";
import type { EvaluationSummary } from "./summary.js";

/**
 * The rate a gate holds to `failUnder`: the share of cases (runs) that passed, or over repeated
 * runs of a case, the share of cases some run passed (`pass@k`) or every run passed (`pass^k`).
 */
export type GateRate = "pass-rate" | "pass@k" | "pass^k";

/** The choices of `GateRule.rate`. */
export const gateRates: readonly GateRate[] = ["pass-rate", "pass@k", "pass^k"];

/** What decides a run's verdict: the pass rate it needs, a baseline, a stop. */
export interface GateRule {
  /** The share of cases that must pass; undefined: every case. */
  readonly failUnder?: number | undefined;
  /** Where `failUnder` came from, as the user wrote it (`--fail-under`, a config file). */
  readonly failUnderFrom?: string | undefined;
  /** The regressions against a baseline run, and the baseline's name, when compared. */
  readonly baseline?: { readonly name: string; readonly regressions: number } | undefined;
  /** What stopped the run before its end: a signal, or a judge no call could reach. */
  readonly stoppedBy?: "SIGINT" | "SIGTERM" | "judge-unreachable" | undefined;
  /**
   * Cases a judge could not tell: they fail the gate as a case that did not pass (`"fail"`,
   * the default), or are left out of it, the pass rate taken over the others (`"ignore"`).
   */
  readonly notEvaluable?: NotEvaluablePolicy | undefined;
  /**
   * With `notEvaluable: "ignore"`, the largest share of cases that may be left out: past it the
   * gate fails, as it does when no case is left to decide it. Default `defaultMaxNotEvaluable`.
   */
  readonly maxNotEvaluable?: number | undefined;
  /** The rate `failUnder` holds (default the pass rate); without `failUnder`, it must be 100%. */
  readonly rate?: GateRate | undefined;
  /** Fail when some case passed in some runs and failed in others. */
  readonly failOnFlaky?: boolean | undefined;
}

/** What a gate does with cases a judge could not tell (see `GateRule.notEvaluable`). */
export type NotEvaluablePolicy = "fail" | "ignore";

/**
 * A gate that leaves out cases a judge could not tell fails past this share of them (one in five:
 * the coverage a calibrated judge needs, `defaultCalibrationGates.minCoverage`).
 */
export const defaultMaxNotEvaluable = 0.2;

/** The choices of `GateRule.notEvaluable`. */
export const notEvaluablePolicies: readonly NotEvaluablePolicy[] = ["fail", "ignore"];

/** The part of a gate a run's settings decide, which a results file records for later readers. */
export type RecordedGate = Pick<
  GateRule,
  "failUnder" | "failUnderFrom" | "notEvaluable" | "maxNotEvaluable" | "rate" | "failOnFlaky"
>;

/**
 * A results file's recorded gate, read as untrusted data: the rule, or what is wrong with it
 * (a file may say anything; a reader then states the run under a gate of its own).
 */
export function readRecordedGate(value: unknown): RecordedGate | { readonly problem: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { problem: "gate is not an object" };
  }
  const { failUnder, failUnderFrom, notEvaluable, maxNotEvaluable, rate, failOnFlaky, ...rest } =
    value as Record<string, unknown>;
  const unknownKeys = Object.keys(rest);
  if (unknownKeys.length > 0)
    return { problem: `gate has unknown keys (${unknownKeys.join(", ")})` };
  if (
    failUnder !== undefined &&
    (typeof failUnder !== "number" || !(failUnder >= 0 && failUnder <= 1))
  ) {
    return { problem: "gate.failUnder is not a share from 0 to 1" };
  }
  if (failUnderFrom !== undefined && typeof failUnderFrom !== "string") {
    return { problem: "gate.failUnderFrom is not text" };
  }
  if (
    notEvaluable !== undefined &&
    !(notEvaluablePolicies as readonly unknown[]).includes(notEvaluable)
  ) {
    return { problem: `gate.notEvaluable is not ${notEvaluablePolicies.join(" or ")}` };
  }
  if (
    maxNotEvaluable !== undefined &&
    (typeof maxNotEvaluable !== "number" || !(maxNotEvaluable >= 0 && maxNotEvaluable <= 1))
  ) {
    return { problem: "gate.maxNotEvaluable is not a share from 0 to 1" };
  }
  if (rate !== undefined && !(gateRates as readonly unknown[]).includes(rate)) {
    return { problem: `gate.rate is not ${gateRates.join(", ")}` };
  }
  if (failOnFlaky !== undefined && typeof failOnFlaky !== "boolean") {
    return { problem: "gate.failOnFlaky is not true or false" };
  }
  return {
    ...(failUnder === undefined ? {} : { failUnder }),
    ...(failUnderFrom === undefined ? {} : { failUnderFrom }),
    ...(notEvaluable === undefined ? {} : { notEvaluable: notEvaluable as NotEvaluablePolicy }),
    ...(maxNotEvaluable === undefined ? {} : { maxNotEvaluable }),
    ...(rate === undefined ? {} : { rate: rate as GateRate }),
    ...(failOnFlaky === true ? { failOnFlaky } : {}),
  };
}

/** A run's verdict: whether the gate passed, the exit code it gives, and one line saying why. */
export interface GateVerdict {
  readonly passed: boolean;
  readonly exitCode: 0 | 1 | 3 | 130 | 143;
  /** `gate: 40% passed < fail_under 75% (toolscore.config.yaml): exit 1` */
  readonly text: string;
}

/** A share as a percentage, to one decimal where it needs one. */
export function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

/**
 * The verdict of a run under its gate, the one decision behind the exit code and the line every
 * output of the run states: a stop first, then cases that could not be scored, regressions
 * against a baseline, the pass rate against `failUnder`, else every case must pass.
 */
export function gateVerdict(
  summary: Pick<
    EvaluationSummary,
    "cases" | "passed" | "failed" | "errors" | "notEvaluable" | "passRate" | "repeats"
  >,
  rule: GateRule,
): GateVerdict {
  const verdict = (exitCode: GateVerdict["exitCode"], why: string): GateVerdict => ({
    passed: exitCode === 0,
    exitCode,
    text: `gate: ${why}: exit ${exitCode}`,
  });
  if (rule.stoppedBy === "judge-unreachable") {
    return verdict(3, "stopped: the judge cannot be reached");
  }
  if (rule.stoppedBy !== undefined) {
    return verdict(rule.stoppedBy === "SIGTERM" ? 143 : 130, `stopped by ${rule.stoppedBy}`);
  }
  if (summary.errors > 0) {
    return verdict(3, `${plural(summary.errors, "case")} could not be scored`);
  }
  const { baseline } = rule;
  if (baseline !== undefined && baseline.regressions > 0) {
    return verdict(1, `${plural(baseline.regressions, "regression")} against ${baseline.name}`);
  }
  const against = baseline === undefined ? "" : `, no regressions against ${baseline.name}`;
  const { repeats } = summary;
  if (rule.failOnFlaky === true && repeats !== undefined && repeats.flaky > 0) {
    return verdict(
      1,
      `${plural(repeats.flaky, "flaky case")} (passed in some runs, failed in others; fail_on_flaky)`,
    );
  }
  if (rule.rate !== undefined && rule.rate !== "pass-rate") {
    return repeatedVerdict(summary, rule, rule.rate, against, verdict);
  }
  const unknown = summary.notEvaluable;
  const ignored = unknown > 0 && rule.notEvaluable === "ignore";
  const leftOut = ignored ? ` (${unknown} not evaluable, left out)` : "";
  if (ignored) {
    // Cases left out cannot pass a gate for the cases a judge never decided.
    const limit = rule.maxNotEvaluable ?? defaultMaxNotEvaluable;
    // Some case was left out, so there are cases.
    const share = unknown / summary.cases;
    if (unknown >= summary.cases)
      return verdict(
        1,
        `no case decided: all ${plural(summary.cases, "case")} not evaluable (not_evaluable ignore)`,
      );
    if (share > limit)
      return verdict(
        1,
        `${unknown} of ${plural(summary.cases, "case")} not evaluable (${percent(share)}) > max_not_evaluable ${percent(limit)}`,
      );
  }
  if (rule.failUnder !== undefined) {
    const judged = summary.cases - (ignored ? unknown : 0);
    const rate = judged === 0 ? 1 : summary.passed / judged;
    const from = rule.failUnderFrom === undefined ? "" : ` (${rule.failUnderFrom})`;
    const passed = rate >= rule.failUnder;
    return verdict(
      passed ? 0 : 1,
      `${percent(rate)} passed${leftOut} ${passed ? "≥" : "<"} fail_under ${percent(rule.failUnder)}${from}${against}`,
    );
  }
  if (baseline !== undefined)
    return verdict(0, `no regressions against ${baseline.name}${leftOut}`);
  const notPassed = summary.failed + (ignored ? 0 : unknown);
  if (notPassed > 0) {
    const counted = !ignored && unknown > 0;
    const of = `of ${plural(summary.cases, "case")}`;
    const why =
      summary.failed === 0
        ? `${unknown} ${of} not evaluable`
        : `${summary.failed} ${of} failed${counted ? `, ${unknown} not evaluable` : ""}`;
    return verdict(1, `${why}; every case must pass (no fail_under)`);
  }
  const passed = summary.cases - (ignored ? unknown : 0);
  return verdict(
    0,
    `${passed === 1 ? "the 1 case passed" : `all ${passed} cases passed`}${leftOut}`,
  );
}

/**
 * The verdict on pass@k or pass^k over repeated runs: the share of cases some (every) run of
 * passed, against `failUnder`, or 100% without it. Without repeated runs each case ran once, and
 * the verdict says the rate is then the pass rate.
 */
function repeatedVerdict(
  summary: Pick<EvaluationSummary, "cases" | "passed" | "repeats">,
  rule: GateRule,
  rate: "pass@k" | "pass^k",
  against: string,
  verdict: (exitCode: GateVerdict["exitCode"], why: string) => GateVerdict,
): GateVerdict {
  const { repeats } = summary;
  const value =
    repeats === undefined
      ? summary.cases === 0
        ? 1
        : summary.passed / summary.cases
      : rate === "pass@k"
        ? repeats.passAtK
        : repeats.passHatK;
  const over =
    repeats === undefined
      ? " (no repeated runs: each case ran once)"
      : ` over ${plural(repeats.cases, "case")}${repeats.ungrouped > 0 ? ` (${plural(repeats.ungrouped, "run")} without a group left out)` : ""}`;
  const bar = rule.failUnder ?? 1;
  const passed = value >= bar;
  const from = rule.failUnderFrom === undefined ? "" : ` (${rule.failUnderFrom})`;
  const threshold =
    rule.failUnder === undefined ? "100% (no fail_under)" : `fail_under ${percent(bar)}${from}`;
  return verdict(
    passed ? 0 : 1,
    `${rate} ${percent(value)}${over} ${passed ? "≥" : "<"} ${threshold}${against}`,
  );
}
