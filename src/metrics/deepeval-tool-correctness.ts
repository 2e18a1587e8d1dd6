import { InvalidOptionError } from "../core/errors.js";
import type { AlignmentAlgorithm, ToolCallMatchDetails } from "../core/explanation.js";
import { jsonEquals } from "../core/json.js";
import type { ToolCall } from "../core/tool-call.js";
import { deepevalCompareParams } from "../matchers/deepeval-compare-params.js";
import { diffArguments } from "../matchers/diff-arguments.js";
import { resolveMatchLimits } from "./limits.js";
import type { MatchLimits, ResolvedMatchLimits } from "./limits.js";
import { buildMatchDetails } from "./match-details.js";
import type { PairExplanation } from "./match-details.js";
import { booleanOption, enumOption, numberOption } from "./options.js";
import { pairToolCalls } from "./pairing.js";
import { toolCallMatrix } from "./tool-call-matrix.js";

/** The tool-call fields deepeval can compare besides the name (deepeval's `ToolCallParams`). */
export type DeepevalEvaluationParam = "inputParameters" | "output";

const evaluationParamValues: readonly DeepevalEvaluationParam[] = ["inputParameters", "output"];

/** Which of deepeval's three computations applies. */
export type DeepevalMode = "default" | "ordering" | "exact";

/** Which of deepeval's reason templates the deterministic score selects. */
export type DeepevalReasonKind =
  | "all-called"
  | "incomplete"
  | "correct-ordering"
  | "incorrect-ordering"
  | "exact-match"
  | "not-exact-match";

export interface DeepevalToolCorrectnessOptions {
  /** Minimum passing score. Default 0.5. */
  threshold?: number;
  /** Fields compared besides the name. Default none (names only). */
  evaluationParams?: readonly DeepevalEvaluationParam[];
  /** Build the reason text. Default true. */
  includeReason?: boolean;
  /** Binary scoring: anything below 1 scores 0, and the threshold becomes 1. Default false. */
  strictMode?: boolean;
  /** Score the order of calls (weighted LCS). Default false. */
  shouldConsiderOrdering?: boolean;
  /** Require the exact sequence; wins over `shouldConsiderOrdering`. Default false. */
  shouldExactMatch?: boolean;
  /**
   * How the unordered path pairs calls: `"greedy"` reproduces deepeval's numbers, `"optimal"`
   * finds the pairing with the highest total. Default `"greedy"`.
   */
  matching?: "greedy" | "optimal";
  /** Bounds for pathological inputs. */
  limits?: MatchLimits;
}

export interface ResolvedDeepevalToolCorrectnessOptions {
  readonly threshold: number;
  readonly evaluationParams: readonly DeepevalEvaluationParam[];
  readonly includeReason: boolean;
  readonly strictMode: boolean;
  readonly shouldConsiderOrdering: boolean;
  readonly shouldExactMatch: boolean;
  readonly matching: "greedy" | "optimal";
  readonly limits: ResolvedMatchLimits;
}

/** Validates the options once and fills in deepeval's defaults. */
export function resolveDeepevalToolCorrectnessOptions(
  options: DeepevalToolCorrectnessOptions = {},
): ResolvedDeepevalToolCorrectnessOptions {
  const evaluationParams: unknown = options.evaluationParams ?? [];
  if (!Array.isArray(evaluationParams)) {
    throw new InvalidOptionError({
      option: "evaluationParams",
      value: evaluationParams,
      message: `evaluationParams must be an array of "inputParameters" and/or "output", got ${typeof evaluationParams}`,
    });
  }
  const params = (evaluationParams as unknown[]).map((param) =>
    enumOption("evaluationParams", param, evaluationParamValues, "inputParameters"),
  );
  return {
    threshold: numberOption("threshold", options.threshold, 0.5, { min: 0, max: 1 }),
    evaluationParams: params,
    includeReason: booleanOption("includeReason", options.includeReason, true),
    strictMode: booleanOption("strictMode", options.strictMode, false),
    shouldConsiderOrdering: booleanOption(
      "shouldConsiderOrdering",
      options.shouldConsiderOrdering,
      false,
    ),
    shouldExactMatch: booleanOption("shouldExactMatch", options.shouldExactMatch, false),
    matching: enumOption("matching", options.matching, ["greedy", "optimal"], "greedy"),
    limits: resolveMatchLimits(options.limits),
  };
}

export interface DeepevalToolCorrectnessScore {
  readonly mode: DeepevalMode;
  /** The deterministic tool-calling score, before strict mode and any LLM judgement. */
  readonly score: number;
  readonly reasonKind: DeepevalReasonKind;
  /** The tool-calling reason; absent when `includeReason` is false. */
  readonly reason?: string;
  readonly details: ToolCallMatchDetails;
}

function namesOf(calls: readonly { name: string }[]): string {
  return JSON.stringify(calls.map((call) => call.name));
}

function buildReason(
  mode: DeepevalMode,
  score: number,
  expected: readonly ToolCall[],
  called: readonly ToolCall[],
  details: ToolCallMatchDetails,
): string {
  const lists = `expected ${namesOf(expected)}, called ${namesOf(called)}`;
  if (mode === "exact") return `${score === 1 ? "Exact match" : "Not an exact match"}: ${lists}.`;
  const partial = details.pairs.filter((pair) => pair.score < 1);
  if (mode === "ordering") {
    if (score === 1) {
      return `Correct ordering: all expected tools ${namesOf(expected)} were called in the correct order.`;
    }
    const parts: string[] = [];
    if (details.missing.length > 0) parts.push(`missing tools ${namesOf(details.missing)}`);
    if (details.outOfOrder.length > 0)
      parts.push(`out-of-order tools ${namesOf(details.outOfOrder)}`);
    if (partial.length > 0) parts.push(`partially matching tools ${namesOf(partial)}`);
    if (expected.length === 0) parts.push(`unexpected tools ${namesOf(called)}`);
    return `Incorrect tool usage: ${parts.join(" and ")}; ${lists}.`;
  }
  if (score === 1) {
    return `All expected tools ${namesOf(expected)} were called (order not considered).`;
  }
  const extra = [
    ...(partial.length > 0 ? [`partially matching tools ${namesOf(partial)}`] : []),
    ...(expected.length === 0 ? [`unexpected tools ${namesOf(called)}`] : []),
  ];
  const unmatched = [...details.missing, ...details.outOfOrder].sort(
    (a, b) => a.expectedIndex - b.expectedIndex,
  );
  return `Incomplete tool usage: missing tools ${namesOf(unmatched)}${extra.map((part) => `; ${part}`).join("")}; ${lists}.`;
}

const reasonKinds: Record<DeepevalMode, [DeepevalReasonKind, DeepevalReasonKind]> = {
  default: ["all-called", "incomplete"],
  ordering: ["correct-ordering", "incorrect-ordering"],
  exact: ["exact-match", "not-exact-match"],
};

/**
 * deepeval's deterministic tool-calling score of one case (`semantics.md` §1), with toolscore's
 * fixes: calls are used up by position, `null` parameters are `{}`, values compare as JSON.
 */
export function scoreDeepevalToolCorrectness(
  input: { readonly expected: readonly ToolCall[]; readonly called: readonly ToolCall[] },
  options: ResolvedDeepevalToolCorrectnessOptions,
): DeepevalToolCorrectnessScore {
  const { expected, called } = input;
  const useParameters = options.evaluationParams.includes("inputParameters");
  const useOutput = options.evaluationParams.includes("output");
  const mode: DeepevalMode = options.shouldExactMatch
    ? "exact"
    : options.shouldConsiderOrdering
      ? "ordering"
      : "default";

  const score =
    mode === "exact"
      ? (e: ToolCall, c: ToolCall) =>
          (!useParameters || jsonEquals(e.inputParameters, c.inputParameters)) &&
          (!useOutput || jsonEquals(e.output, c.output))
            ? 1
            : 0
      : (e: ToolCall, c: ToolCall) => {
          let value = 1;
          if (useParameters) value *= deepevalCompareParams(e.inputParameters, c.inputParameters);
          if (useOutput && !jsonEquals(e.output, c.output)) value = 0;
          return value;
        };
  const matrix = toolCallMatrix({
    expected,
    called,
    score,
    classKey: (call) =>
      `${useParameters ? JSON.stringify(call.inputParameters) : ""}\u0000${useOutput ? JSON.stringify(call.output) : ""}`,
    maxPairEvaluations: options.limits.maxPairEvaluations,
  });
  const algorithm: AlignmentAlgorithm =
    mode === "exact"
      ? "positional"
      : mode === "ordering"
        ? "weighted-lcs"
        : options.matching === "optimal"
          ? "optimal-assignment"
          : "deepeval-greedy";
  const pairing = pairToolCalls(matrix, algorithm, options.limits);

  let deterministic: number;
  if (expected.length === 0) {
    deterministic = called.length === 0 ? 1 : 0;
  } else if (mode === "exact") {
    deterministic =
      expected.length === called.length &&
      pairing.pairs.length === expected.length &&
      pairing.pairs.every((pair) => pair.score === 1)
        ? 1
        : 0;
  } else {
    deterministic = pairing.total / expected.length;
  }

  const explainPair = (e: ToolCall, c: ToolCall): PairExplanation => ({
    arguments: useParameters ? diffArguments(e.inputParameters, c.inputParameters) : [],
    ...(useOutput
      ? {
          output: {
            verdict: jsonEquals(e.output, c.output) ? ("match" as const) : ("mismatch" as const),
            expected: e.output,
            actual: c.output,
          },
        }
      : {}),
  });
  const details = buildMatchDetails({ algorithm, expected, called, matrix, pairing, explainPair });
  const [pass, fail] = reasonKinds[mode];
  return {
    mode,
    score: deterministic,
    reasonKind: deterministic === 1 ? pass : fail,
    ...(options.includeReason
      ? { reason: buildReason(mode, deterministic, expected, called, details) }
      : {}),
    details,
  };
}

/**
 * The final score of deepeval's metric: the minimum of the tool-calling score and the judged
 * selection score (when there is one), then strict mode (anything below 1 is 0, threshold 1).
 */
export function finalizeDeepevalScore(options: {
  readonly score: number;
  readonly selectionScore?: number;
  readonly strictMode: boolean;
  readonly threshold: number;
}): { score: number; threshold: number; success: boolean } {
  const threshold = options.strictMode ? 1 : options.threshold;
  const combined = Math.min(options.score, options.selectionScore ?? 1);
  const score = options.strictMode && combined < threshold ? 0 : combined;
  return { score, threshold, success: score >= threshold };
}
