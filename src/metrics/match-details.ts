import type {
  AlignmentAlgorithm,
  Mismatch,
  NearMiss,
  PairDetail,
  ToolCallMatchDetails,
} from "../core/explanation.js";
import type { ToolCall } from "../core/tool-call.js";
import type { Pairing } from "./pairing.js";
import type { NamedCall, ToolCallMatrix } from "./tool-call-matrix.js";

/** What a metric says about one pair beyond its score: argument verdicts and the output verdict. */
export type PairExplanation = Pick<PairDetail, "arguments" | "output" | "isError">;

export interface BuildMatchDetailsOptions<
  E extends NamedCall = ToolCall,
  C extends NamedCall = ToolCall,
> {
  algorithm: AlignmentAlgorithm;
  expected: readonly E[];
  called: readonly C[];
  /** What the details read of the matrix: the candidates of a row, and a pair's score. */
  matrix: Pick<ToolCallMatrix, "candidates" | "score">;
  pairing: Pick<Pairing, "pairs" | "total">;
  explainPair: (expected: E, called: C, row: number, col: number) => PairExplanation;
  /** Calls left out of the comparison (retried attempts): never unexpected, never a near miss. */
  skipCalled?: ReadonlySet<number>;
  /**
   * Whether each unpaired call is named once: with the out-of-order expected call it stands for
   * (`calledIndex`), or as the nearest miss of a missing one, and then not as unexpected too.
   * Default false (the peers' reasons list them as unexpected as well).
   */
  namesEachCallOnce?: boolean;
  /**
   * What the order and score let go: calls made besides the expected ones (`extraCalls`), expected
   * calls not made (`unmadeCalls`). Those are marked `allowed` and are not mismatches.
   */
  orderAllows?: OrderAllows;
}

/** What an order (with its score) lets go without counting it; see `orderAllows`. */
export interface OrderAllows {
  readonly extraCalls: boolean;
  readonly unmadeCalls: boolean;
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

/** Appends the mismatches that argument and output verdicts of one pair (or near miss) show. */
export function pushMismatches(
  mismatches: Mismatch[],
  explanation: PairExplanation,
  expectedIndex: number,
  calledIndex: number,
): void {
  for (const v of explanation.arguments) {
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
  const output = explanation.output;
  if (output?.verdict === "mismatch") {
    mismatches.push({
      kind: "output-mismatch",
      expectedIndex,
      calledIndex,
      path: "$",
      expected: output.expected,
      actual: output.actual,
    });
  }
}

/** A pair's details: its indices, name and score, with the explanation's fields. */
function pairDetail(
  expectedIndex: number,
  calledIndex: number,
  name: string,
  score: number,
  explanation: PairExplanation,
): PairDetail {
  const detail: { -readonly [K in keyof PairDetail]: PairDetail[K] } = {
    expectedIndex,
    calledIndex,
    name,
    score,
    arguments: explanation.arguments,
  };
  if (explanation.output !== undefined) detail.output = explanation.output;
  if (explanation.isError !== undefined) detail.isError = explanation.isError;
  return detail;
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
  const skip = options.skipCalled;
  // Plain arrays: on small inputs, allocating typed arrays costs more than the work.
  const pairedCol = new Array<number>(expected.length).fill(-1);
  const pairScore = new Array<number>(expected.length);
  const colPaired = new Array<boolean>(called.length).fill(false);
  for (const pair of pairing.pairs) {
    pairedCol[pair.row] = pair.col;
    pairScore[pair.row] = pair.score;
    colPaired[pair.col] = true;
  }

  const pairs: PairDetail[] = [];
  const missing: { expectedIndex: number; name: string; nearest?: NearMiss; allowed?: true }[] = [];
  const outOfOrder: { expectedIndex: number; name: string; calledIndex?: number }[] = [];
  const mismatches: Mismatch[] = [];
  if (algorithm === "positional" && expected.length !== called.length) {
    mismatches.push({ kind: "count-mismatch", expected: expected.length, actual: called.length });
  }

  for (let expectedIndex = 0; expectedIndex < expected.length; expectedIndex++) {
    const call = expected[expectedIndex];
    const calledIndex = pairedCol[expectedIndex];
    if (calledIndex >= 0) {
      const explanation = explainPair(call, called[calledIndex], expectedIndex, calledIndex);
      pairs.push(
        pairDetail(expectedIndex, calledIndex, call.name, pairScore[expectedIndex], explanation),
      );
      pushMismatches(mismatches, explanation, expectedIndex, calledIndex);
      continue;
    }
    if (algorithm === "positional" && expectedIndex < called.length && !colPaired[expectedIndex]) {
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
    // Unpaired calls of the same tool: one that could have paired means order kept them apart.
    let couldPair = -1;
    let nearestIndex = -1;
    for (const col of matrix.candidates(expectedIndex)) {
      if (colPaired[col] || skip?.has(col) === true) continue;
      if (nearestIndex < 0) nearestIndex = col;
      if (matrix.score(expectedIndex, col) > 0) {
        couldPair = col;
        break;
      }
    }
    if (couldPair >= 0) {
      if (options.namesEachCallOnce === true) {
        // The call stands for this expected one, made at another place: not unexpected too.
        outOfOrder.push({ expectedIndex, name: call.name, calledIndex: couldPair });
        colPaired[couldPair] = true;
      } else {
        outOfOrder.push({ expectedIndex, name: call.name });
      }
      mismatches.push({ kind: "out-of-order", expectedIndex, name: call.name });
      continue;
    }
    if (nearestIndex < 0 && options.orderAllows?.unmadeCalls === true) {
      missing.push({ expectedIndex, name: call.name, allowed: true });
      continue;
    }
    mismatches.push({ kind: "missing-call", expectedIndex, name: call.name });
    if (nearestIndex < 0) {
      missing.push({ expectedIndex, name: call.name });
      continue;
    }
    // A call of the same tool that did not pair scored 0 against this one: say why.
    const explanation = explainPair(call, called[nearestIndex], expectedIndex, nearestIndex);
    const nearest: { -readonly [K in keyof NearMiss]: NearMiss[K] } = {
      calledIndex: nearestIndex,
      arguments: explanation.arguments,
    };
    if (options.namesEachCallOnce === true) colPaired[nearestIndex] = true;
    if (explanation.output !== undefined) nearest.output = explanation.output;
    if (explanation.isError !== undefined) nearest.isError = explanation.isError;
    missing.push({ expectedIndex, name: call.name, nearest });
    pushMismatches(mismatches, explanation, expectedIndex, nearestIndex);
  }

  const unexpected: { calledIndex: number; name: string; allowed?: true }[] = [];
  const extrasAllowed = options.orderAllows?.extraCalls === true;
  called.forEach((call, calledIndex) => {
    if (colPaired[calledIndex] || skip?.has(calledIndex) === true) return;
    if (extrasAllowed) {
      unexpected.push({ calledIndex, name: call.name, allowed: true });
      return;
    }
    unexpected.push({ calledIndex, name: call.name });
    mismatches.push({ kind: "unexpected-call", calledIndex, name: call.name });
  });

  const { precision, recall, f1 } = precisionRecallF1(
    pairing.total,
    expected.length,
    called.length,
  );
  return { algorithm, pairs, missing, unexpected, outOfOrder, mismatches, precision, recall, f1 };
}
