import type { ToolCallMatchDetails } from "../core/explanation.js";
import { jsonEquals } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import type { ToolCall } from "../core/tool-call.js";
import {
  axionFuzzyScore,
  axionSubsetMatch,
  axionValueSimilarity,
} from "../matchers/axion-parameters.js";
import { diffArguments } from "../matchers/diff-arguments.js";
import { resolveMatchLimits } from "./limits.js";
import type { MatchLimits, ResolvedMatchLimits } from "./limits.js";
import { buildMatchDetails } from "./match-details.js";
import type { PairExplanation } from "./match-details.js";
import { booleanOption, enumOption, numberOption, shareOption } from "../core/options.js";
import { pairToolCalls } from "./pairing.js";
import { toolCallMatrix } from "./tool-call-matrix.js";

export type AxionParameterMatchingStrategy = "exact" | "subset" | "fuzzy";
export type AxionScoring = "recall" | "precision" | "f1";

export interface AxionToolCorrectnessOptions {
  /** Compare arguments too, not only names. Default false. */
  checkParameters?: boolean;
  /** Require the exact sequence. Default false. */
  strictOrder?: boolean;
  /** How arguments are compared when `checkParameters` is on. Default `"exact"`. */
  parameterMatchingStrategy?: AxionParameterMatchingStrategy;
  /** Mean similarity a fuzzy match must reach. Default 0.8. */
  fuzzyThreshold?: number;
  /** Which number is the score in flexible order. Default `"recall"`. */
  scoring?: AxionScoring;
  /** Minimum passing score. Default 0.5. */
  threshold?: number;
  /** Bounds for pathological inputs. */
  limits?: MatchLimits;
}

export interface ResolvedAxionToolCorrectnessOptions {
  readonly checkParameters: boolean;
  readonly strictOrder: boolean;
  readonly parameterMatchingStrategy: AxionParameterMatchingStrategy;
  readonly fuzzyThreshold: number;
  readonly scoring: AxionScoring;
  readonly threshold: number;
  readonly limits: ResolvedMatchLimits;
}

/** Validates the options once; an unknown strategy or scoring is an `InvalidOptionError`. */
export function resolveAxionToolCorrectnessOptions(
  options: AxionToolCorrectnessOptions = {},
): ResolvedAxionToolCorrectnessOptions {
  return {
    checkParameters: booleanOption("checkParameters", options.checkParameters, false),
    strictOrder: booleanOption("strictOrder", options.strictOrder, false),
    parameterMatchingStrategy: enumOption(
      "parameterMatchingStrategy",
      options.parameterMatchingStrategy,
      ["exact", "subset", "fuzzy"],
      "exact",
    ),
    fuzzyThreshold: numberOption("fuzzyThreshold", options.fuzzyThreshold, 0.8),
    scoring: enumOption("scoring", options.scoring, ["recall", "precision", "f1"], "recall"),
    threshold: shareOption("threshold", options.threshold, 0.5),
    limits: resolveMatchLimits(options.limits),
  };
}

/** The alignment behind an axion score, plus the scoring mode that picked the number. */
export interface AxionToolCorrectnessDetails extends ToolCallMatchDetails {
  readonly scoring: AxionScoring;
}

export interface AxionToolCorrectnessScore {
  readonly score: number;
  readonly explanation: string;
  readonly details: AxionToolCorrectnessDetails;
}

function quotedList(items: readonly string[]): string {
  return `[${items.map((item) => `'${item}'`).join(", ")}]`;
}

function parametersMatch(
  options: ResolvedAxionToolCorrectnessOptions,
  expected: JsonObject,
  called: JsonObject,
): boolean {
  switch (options.parameterMatchingStrategy) {
    case "exact":
      return jsonEquals(expected, called);
    case "subset":
      return axionSubsetMatch(expected, called);
    case "fuzzy":
      return axionFuzzyScore(expected, called) >= options.fuzzyThreshold;
  }
}

/**
 * axion's tool correctness of one case (`docs/reference/semantics.md` §4), with JSON value
 * semantics.
 */
export function scoreAxionToolCorrectness(
  input: { readonly expected: readonly ToolCall[]; readonly called: readonly ToolCall[] },
  options: ResolvedAxionToolCorrectnessOptions,
): AxionToolCorrectnessScore {
  const { expected, called } = input;
  const { checkParameters } = options;
  const matches = (e: ToolCall, c: ToolCall): boolean =>
    !checkParameters || parametersMatch(options, e.inputParameters, c.inputParameters);
  const matrix = toolCallMatrix({
    expected,
    called,
    score: (e, c) => (matches(e, c) ? 1 : 0),
    classKey: (call) => (checkParameters ? JSON.stringify(call.inputParameters) : ""),
    maxPairEvaluations: options.limits.maxPairEvaluations,
  });
  const algorithm = options.strictOrder ? "positional" : "axion-first-fit";
  const pairing = pairToolCalls(matrix, algorithm, options.limits);
  const strategy = options.parameterMatchingStrategy;
  const explainPair = (e: ToolCall, c: ToolCall): PairExplanation => ({
    arguments: !checkParameters
      ? []
      : diffArguments(e.inputParameters, c.inputParameters, {
          extras: strategy === "exact" ? "unexpected" : "ignore",
          ...(strategy === "fuzzy"
            ? {
                similarity: (expectedValue, actualValue) =>
                  axionValueSimilarity(actualValue, expectedValue),
              }
            : {}),
        }),
  });
  const details: AxionToolCorrectnessDetails = {
    ...buildMatchDetails({ algorithm, expected, called, matrix, pairing, explainPair }),
    scoring: options.scoring,
  };

  if (expected.length === 0) {
    return called.length === 0
      ? { score: 1, explanation: "Correct: No tools were expected and none were called.", details }
      : {
          score: 0,
          explanation: `Incorrect: No tools were expected, but ${called.length} were called.`,
          details,
        };
  }

  if (options.strictOrder) {
    if (expected.length !== called.length) {
      return {
        score: 0,
        explanation: `Tool count mismatch: expected ${expected.length}, got ${called.length}`,
        details,
      };
    }
    for (let index = 0; index < expected.length; index++) {
      const e = expected[index];
      const c = called[index];
      if (matrix.groupOfRow(index) !== matrix.groupOfCol(index) || !matches(e, c)) {
        const args = checkParameters ? ` with args ${JSON.stringify(c.inputParameters)}` : "";
        return {
          score: 0,
          explanation: `Tool mismatch at position ${index}: expected '${e.name}', got '${c.name}'${args}`,
          details,
        };
      }
    }
    return {
      score: 1,
      explanation: `All ${expected.length} tools called correctly in order.`,
      details,
    };
  }

  const unmatched = [...details.missing, ...details.outOfOrder].sort(
    (a, b) => a.expectedIndex - b.expectedIndex,
  );
  const parts: string[] = [];
  if (details.pairs.length > 0)
    parts.push(`Correctly called: ${quotedList(details.pairs.map((pair) => pair.name))}`);
  if (unmatched.length > 0) {
    parts.push(
      checkParameters
        ? `Missing/incorrect calls: ${quotedList(
            unmatched.map(({ expectedIndex, name }) => {
              const call = expected[expectedIndex];
              return `${name}(${JSON.stringify(call.inputParameters)})`;
            }),
          )}`
        : `Missing tools: ${quotedList(unmatched.map((item) => item.name))}`,
    );
  }
  if (details.unexpected.length > 0) {
    parts.push(`Unexpected tools: ${quotedList(details.unexpected.map((item) => item.name))}`);
  }
  return { score: details[options.scoring], explanation: parts.join("; "), details };
}
