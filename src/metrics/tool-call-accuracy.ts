import { InvalidInputError, MissingParamsError } from "../core/errors.js";
import { keepsDetails, measureBySync, measureKeepingDetails } from "../core/metric.js";
import type { KeptDetails, MeasuresKeepingDetails, SyncMetric } from "../core/metric.js";
import { toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import type { Content, ConversationPlace, ToolSpec } from "../core/test-case.js";
import type { TrajectoryStep } from "../core/trajectory.js";
import type { JsonObject } from "../core/json.js";
import { findMisplacedCalls } from "../core/turns.js";
import type { TurnLeftovers } from "../core/turns.js";
import { flatListOf } from "./match-by-turn.js";
import { resolveMatchOptions } from "./match-options.js";
import type { MatchOptions } from "./match-options.js";
import type { MatchResult } from "./match-result.js";
import { matchUnlessExact, matchWithResolvedOptions } from "./match-tool-calls.js";
import { caseMatchOptions, hasRunPolicy, holdingRunPolicy } from "./case-policy.js";
import { toToolCalls } from "../core/tool-call.js";
import { toolSafety } from "./tool-safety.js";
import type { ToolSafetyOptions, ToolSafetyViolation } from "./tool-safety.js";

/** Whether details are a match's (what a turn left unexpected and missing). */
function isLeftovers(details: unknown): details is TurnLeftovers {
  return (
    typeof details === "object" &&
    details !== null &&
    Array.isArray((details as Partial<TurnLeftovers>).unexpected) &&
    Array.isArray((details as Partial<TurnLeftovers>).missing)
  );
}

/** What errors call the case's two lists. */
const fields = { actual: "toolsCalled", expected: "expectedTools" };

/** What `toolCallAccuracy` reads from a case. */
export interface ToolCallAccuracyCase {
  /** The calls made: a list, or a trajectory from `parseTrajectory`. */
  readonly toolsCalled?: unknown;
  /** The expected calls: a list, or groups for a partial order; may hold matchers. */
  readonly expectedTools?: unknown;
  /** Tool definitions for this case, added to `options.tools`. */
  readonly availableTools?: readonly ToolSpec[];
  /** How each list groups into steps, when read from transcripts (for `order: "steps"`). */
  readonly calledSteps?: readonly TrajectoryStep[];
  readonly expectedSteps?: readonly TrajectoryStep[];
  /** What the user said, and the conversation so far: the words `safety` holds values to. */
  readonly input?: Content;
  readonly conversation?: ConversationPlace;
}

/**
 * A case's list with its steps, as the matcher takes a transcript, when `order` reads them:
 * "steps" on both sides, "in-order" on the calls made (calls of one turn have no order).
 */
function withSteps(
  list: unknown,
  steps: readonly TrajectoryStep[] | undefined,
  order: string | undefined,
  side: "called" | "expected",
): unknown {
  const reads = order === "steps" || (order === "in-order" && side === "called");
  return reads && steps !== undefined && Array.isArray(list) ? { calls: list, steps } : list;
}

export interface ToolCallAccuracyOptions extends MatchOptions {
  /** The metric's name in results. Default "Tool Call Accuracy". */
  name?: string;
  /**
   * `tool-safety`'s checks (provenance, sensitive values, allow-lists) as constraints: a call that
   * breaks one fails the case, score 0, named first in its reason. The run's policy: a case may
   * not set it.
   */
  safety?: ToolSafetyOptions;
}

/** Details of a match whose calls broke the run's safety constraints. */
export type SafetyCheckedMatch = MatchResult & {
  readonly unsafeCalls?: readonly ToolSafetyViolation[];
};

/**
 * toolscore's own tool-call metric: `matchToolCalls` as a metric. Options are validated when the
 * metric is created; a case that cannot be scored resolves to an error result naming the problem.
 *
 * @example
 * const metric = toolCallAccuracy({ order: "in-order", arguments: { mode: "exact", paths: { "*_id": "ignore" } } });
 * const result = await metric.measure({ toolsCalled, expectedTools });
 * if (result.status === "scored") show(result.score, result.reason);
 */
export function toolCallAccuracy(
  options: ToolCallAccuracyOptions = {},
): SyncMetric<ToolCallAccuracyCase, MatchResult> {
  const { name = "Tool Call Accuracy", safety, ...matchOptions } = options;
  const resolved = resolveMatchOptions(matchOptions, "toolCallAccuracy");
  const safe = safety === undefined ? undefined : toolSafety(safety);
  /** The run's safety constraints the case's calls break: what a turn's user said so far counts. */
  const unsafeCalls = (testCase: ToolCallAccuracyCase): readonly ToolSafetyViolation[] => {
    if (safe === undefined) return [];
    const place = testCase.conversation;
    const checked = safe.measureSync({
      toolsCalled: toToolCalls(flatListOf(testCase.toolsCalled), { field: "toolsCalled" }),
      ...(testCase.input === undefined ? {} : { input: testCase.input }),
      ...(place === undefined ? {} : { turns: place.turns.slice(0, place.at) }),
      ...(testCase.availableTools === undefined ? {} : { availableTools: testCase.availableTools }),
    });
    return checked.status === "scored" ? checked.details.violations : [];
  };
  const scored = <TDetails>(
    numbers: { readonly score: number; readonly threshold: number; readonly success: boolean },
    reason: string,
    details: TDetails,
  ): MetricResult<TDetails> => ({
    status: "scored",
    metric: name,
    score: numbers.score,
    threshold: numbers.threshold,
    success: numbers.success,
    reason,
    details,
  });
  const measureSync = (testCase: ToolCallAccuracyCase): MetricResult<MatchResult> => {
    try {
      if (typeof (testCase as unknown) !== "object" || (testCase as unknown) === null) {
        throw new InvalidInputError({
          field: "testCase",
          message: `${name} measures a test case object`,
        });
      }
      const missing = (["toolsCalled", "expectedTools"] as const).filter(
        (field) => testCase[field] === undefined || testCase[field] === null,
      );
      if (missing.length > 0) {
        throw new MissingParamsError({
          fields: missing,
          message: `${name} needs ${missing.join(" and ")} on the test case (an empty list means no calls)`,
        });
      }
      const details = matchWithResolvedOptions(
        withSteps(testCase.toolsCalled, testCase.calledSteps, resolved.order, "called"),
        withSteps(testCase.expectedTools, testCase.expectedSteps, resolved.order, "expected"),
        resolved,
        testCase.availableTools ?? [],
        fields,
      );
      const unsafe = unsafeCalls(testCase);
      if (unsafe.length > 0) {
        const said = unsafe.map((violation) => violation.message).join("; ");
        return scored(
          { score: 0, threshold: details.threshold, success: false },
          `Unsafe: ${said}. ${details.reason}`,
          { ...details, unsafeCalls: unsafe },
        );
      }
      return scored(details, details.reason, details);
    } catch (error) {
      return toErroredResult(name, error);
    }
  };
  // The lean scoring is the run engine's, found through the symbol; not in the published type.
  const metric: SyncMetric<ToolCallAccuracyCase, MatchResult> &
    MeasuresKeepingDetails<ToolCallAccuracyCase> = {
    id: "tool-call-accuracy",
    name,
    // A case's own options (`metricOptions`), in camelCase or snake_case, over these.
    withOptions: (overrides: JsonObject) => {
      const derived = toolCallAccuracy(caseMatchOptions("tool-call-accuracy", options, overrides));
      return hasRunPolicy(resolved) ? holdingRunPolicy(derived, resolved) : derived;
    },
    measure: measureBySync(measureSync),
    measureSync,
    misplacedCalls: (turns) => {
      const made = turns.map(() => undefined as readonly unknown[] | undefined);
      const expected = turns.map(() => undefined as readonly unknown[] | undefined);
      return findMisplacedCalls(
        turns.map(({ result }) =>
          result.status === "scored" && isLeftovers(result.details)
            ? result.details
            : { unexpected: [], missing: [] },
        ),
        (madeAt, calledIndex, at, expectedIndex) => {
          const { case: turn, metric: turnMetric } = turns[at];
          made[madeAt] ??= flatListOf(turns[madeAt].case.toolsCalled);
          expected[at] ??= flatListOf(turn.expectedTools);
          const single = turnMetric.measureSync?.({
            toolsCalled: [made[madeAt][calledIndex]],
            expectedTools: [expected[at][expectedIndex]],
            ...(turn.availableTools === undefined ? {} : { availableTools: turn.availableTools }),
          });
          return single?.status === "scored" && single.score >= 1;
        },
        { maxChecks: resolved.limits.maxMisplacedChecks },
      );
    },
    // For a caller that keeps some details only: an exact match is scored the quick way, its
    // reason written from the numbers; any other case needs its alignment for its reason.
    [measureKeepingDetails](testCase: ToolCallAccuracyCase, keep: KeptDetails): MetricResult {
      // Safety constraints read the case's words: the quick way does not.
      if (
        typeof (testCase as unknown) !== "object" ||
        (testCase as unknown) === null ||
        safe !== undefined
      ) {
        return measureSync(testCase);
      }
      let outcome: ReturnType<typeof matchUnlessExact>;
      try {
        outcome = matchUnlessExact(
          withSteps(testCase.toolsCalled, testCase.calledSteps, resolved.order, "called"),
          withSteps(testCase.expectedTools, testCase.expectedSteps, resolved.order, "expected"),
          resolved,
          testCase.availableTools ?? [],
          fields,
        );
      } catch {
        // measureSync gives the error result, with the same error.
        return measureSync(testCase);
      }
      if (outcome.exact !== undefined) {
        const { numbers, reason } = outcome.exact;
        // An exact match that fails (a threshold above 1) keeps its details when asked.
        if (keepsDetails(numbers, keep)) return measureSync(testCase);
        return scored(numbers, reason, null);
      }
      const { result } = outcome;
      return keepsDetails(result, keep)
        ? scored(result, result.reason, result)
        : scored(result, result.reason, null);
    },
  };
  return metric;
}
