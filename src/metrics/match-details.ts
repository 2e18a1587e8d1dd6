import type {
  AlignmentAlgorithm,
  ArgumentVerdict,
  Mismatch,
  NearMiss,
  PairDetail,
  ToolCallMatchDetails,
} from "../core/explanation.js";
import type { ToolCall } from "../core/tool-call.js";
import type { Pairing } from "./pairing.js";
import type { NamedCall, ToolCallMatrix } from "./tool-call-matrix.js";

/** What a metric says about one pair beyond its score: argument verdicts and the output verdict. */
export type PairExplanation = Pick<PairDetail, "arguments" | "output">;

export interface BuildMatchDetailsOptions<
  E extends NamedCall = ToolCall,
  C extends NamedCall = ToolCall,
> {
  algorithm: AlignmentAlgorithm;
  expected: readonly E[];
  called: readonly C[];
  matrix: ToolCallMatrix;
  pairing: Pairing;
  explainPair: (expected: E, called: C) => PairExplanation;
}

/** Precision, recall and F1 of a pairing whose pair scores sum to `total`. */
export function precisionRecallF1(
  total: number,
  expectedCount: number,
  calledCount: number,
): { precision: number; recall: number; f1: number } {
  const recall = expectedCount === 0 ? 1 : total / expectedCount;
  const precision = calledCount === 0 ? (expectedCount === 0 ? 1 : 0) : total / calledCount;
  const f1 = precision === 0 || recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

function argumentMismatches(
  verdicts: readonly ArgumentVerdict[],
  expectedIndex: number,
  calledIndex: number,
): Mismatch[] {
  const mismatches: Mismatch[] = [];
  for (const v of verdicts) {
    if (v.verdict === "mismatch") {
      mismatches.push({
        kind: "args-mismatch",
        expectedIndex,
        calledIndex,
        path: v.path,
        expected: v.expected ?? null,
        actual: v.actual ?? null,
      });
    } else if (v.verdict === "missing") {
      mismatches.push({
        kind: "args-missing",
        expectedIndex,
        calledIndex,
        path: v.path,
        expected: v.expected ?? null,
      });
    } else if (v.verdict === "unexpected") {
      mismatches.push({
        kind: "args-unexpected",
        expectedIndex,
        calledIndex,
        path: v.path,
        actual: v.actual ?? null,
      });
    }
  }
  return mismatches;
}

/**
 * Turns one pairing into the full explanation: pair details, the unpaired calls on both sides,
 * and a typed list of every mismatch. An unpaired expected call is `outOfOrder` when a call of
 * the same tool that would have scored above 0 is also left unpaired (only an order constraint can
 * cause that), and `missing` otherwise.
 */
export function buildMatchDetails<E extends NamedCall = ToolCall, C extends NamedCall = ToolCall>(
  options: BuildMatchDetailsOptions<E, C>,
): ToolCallMatchDetails {
  const { algorithm, expected, called, matrix, pairing, explainPair } = options;
  const pairedCol = new Int32Array(expected.length).fill(-1);
  const colPaired = new Uint8Array(called.length);
  for (const pair of pairing.pairs) {
    pairedCol[pair.row] = pair.col;
    colPaired[pair.col] = 1;
  }

  const pairs: PairDetail[] = [];
  const missing: { expectedIndex: number; name: string; nearest?: NearMiss }[] = [];
  const outOfOrder: { expectedIndex: number; name: string }[] = [];
  const mismatches: Mismatch[] = [];
  if (algorithm === "positional" && expected.length !== called.length) {
    mismatches.push({ kind: "count-mismatch", expected: expected.length, actual: called.length });
  }

  const pairScore = new Map<number, number>(pairing.pairs.map((p) => [p.row, p.score]));
  expected.forEach((call, expectedIndex) => {
    const calledIndex = pairedCol[expectedIndex];
    if (calledIndex >= 0) {
      const explanation = explainPair(call, called[calledIndex]);
      pairs.push({
        expectedIndex,
        calledIndex,
        name: call.name,
        score: pairScore.get(expectedIndex) as number,
        ...explanation,
      });
      mismatches.push(...argumentMismatches(explanation.arguments, expectedIndex, calledIndex));
      if (explanation.output?.verdict === "mismatch") {
        const { expected: e, actual: a } = explanation.output;
        mismatches.push({
          kind: "output-mismatch",
          expectedIndex,
          calledIndex,
          path: "$",
          expected: e,
          actual: a,
        });
      }
      return;
    }
    if (
      algorithm === "positional" &&
      expectedIndex < called.length &&
      colPaired[expectedIndex] === 0
    ) {
      const other = called[expectedIndex];
      mismatches.push(
        other.name === call.name
          ? {
              kind: "type-mismatch",
              expectedIndex,
              calledIndex: expectedIndex,
              expected: call.type,
              actual: other.type,
            }
          : {
              kind: "name-mismatch",
              expectedIndex,
              calledIndex: expectedIndex,
              expected: call.name,
              actual: other.name,
            },
      );
    }
    const couldPair = matrix
      .candidates(expectedIndex)
      .some((col) => colPaired[col] === 0 && matrix.score(expectedIndex, col) > 0);
    if (couldPair) {
      outOfOrder.push({ expectedIndex, name: call.name });
      mismatches.push({ kind: "out-of-order", expectedIndex, name: call.name });
    } else {
      mismatches.push({ kind: "missing-call", expectedIndex, name: call.name });
      // A call of the same tool that did not pair scored 0 against this one: say why.
      const nearestIndex = matrix.candidates(expectedIndex).find((col) => colPaired[col] === 0);
      if (nearestIndex === undefined) {
        missing.push({ expectedIndex, name: call.name });
      } else {
        const explanation = explainPair(call, called[nearestIndex]);
        missing.push({
          expectedIndex,
          name: call.name,
          nearest: { calledIndex: nearestIndex, ...explanation },
        });
        mismatches.push(...argumentMismatches(explanation.arguments, expectedIndex, nearestIndex));
        if (explanation.output?.verdict === "mismatch") {
          const { expected: e, actual: a } = explanation.output;
          mismatches.push({
            kind: "output-mismatch",
            expectedIndex,
            calledIndex: nearestIndex,
            path: "$",
            expected: e,
            actual: a,
          });
        }
      }
    }
  });

  const unexpected: { calledIndex: number; name: string }[] = [];
  called.forEach((call, calledIndex) => {
    if (colPaired[calledIndex] === 1) return;
    unexpected.push({ calledIndex, name: call.name });
    mismatches.push({ kind: "unexpected-call", calledIndex, name: call.name });
  });

  return {
    algorithm,
    pairs,
    missing,
    unexpected,
    outOfOrder,
    mismatches,
    ...precisionRecallF1(pairing.total, expected.length, called.length),
  };
}
