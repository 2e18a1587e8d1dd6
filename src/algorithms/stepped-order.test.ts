import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { partialOrderPairs } from "./partial-order.js";
import { denseScoreMatrix } from "./score-matrix.js";
import type { Pair } from "./score-matrix.js";
import { steppedOrderPairs } from "./stepped-order.js";

const total = (pairs: readonly Pair[]) => pairs.reduce((sum, pair) => sum + pair.score, 0);

/**
 * The same problem for the general partial-order alignment, sides swapped: the columns become
 * rows, each after every column of the step before its own; the rows in sequence.
 */
function throughPartialOrder(values: number[][], steps: number[]): number {
  const cols = steps.length;
  const swapped = Array.from({ length: cols }, (_, col) => values.map((row) => row[col]));
  const predecessors = steps.map((step) =>
    steps.flatMap((other, col) => (other === step - 1 ? [col] : [])),
  );
  return total(partialOrderPairs(denseScoreMatrix(swapped), { predecessors }));
}

const quantum = 2 ** -32;
const scores = fc.constantFrom(0, 0, 1, 0.5, 0.25, 1 - quantum, 3 * quantum);

describe("steppedOrderPairs", () => {
  it("pairs the calls of one step in any order, steps in sequence", () => {
    // Expected a, b, c; made [b, a] in one step, then [c].
    const values = [
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ];
    const pairs = steppedOrderPairs(denseScoreMatrix(values), [0, 0, 1]);
    expect(pairs).toEqual([
      { row: 0, col: 1, score: 1 },
      { row: 1, col: 0, score: 1 },
      { row: 2, col: 2, score: 1 },
    ]);
    // c expected first: its step comes after a's and b's, so one of the two sides loses.
    const late = steppedOrderPairs(
      denseScoreMatrix([
        [0, 0, 1],
        [0, 1, 0],
        [1, 0, 0],
      ]),
      [0, 0, 1],
    );
    expect(total(late)).toBe(2);
  });

  it("finds the total of the general partial-order alignment, and a valid pairing", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }).chain((rows) =>
          fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 0, maxLength: 7 }).chain((gaps) =>
            fc.tuple(
              fc.constant(
                gaps.reduce<number[]>((steps, gap, at) => {
                  steps.push(at === 0 ? 0 : steps[at - 1] + Math.min(gap, 1));
                  return steps;
                }, []),
              ),
              fc.array(fc.array(scores, { minLength: gaps.length, maxLength: gaps.length }), {
                minLength: rows,
                maxLength: rows,
              }),
            ),
          ),
        ),
        ([steps, values]) => {
          if (values.length === 0 || steps.length === 0) return;
          const pairs = steppedOrderPairs(denseScoreMatrix(values), steps);
          expect(total(pairs)).toBe(throughPartialOrder(values, steps));
          // Each row and column once; rows in order never go back a step.
          expect(new Set(pairs.map((pair) => pair.col)).size).toBe(pairs.length);
          for (let at = 1; at < pairs.length; at++) {
            expect(pairs[at].row).toBeGreaterThan(pairs[at - 1].row);
            expect(steps[pairs[at].col]).toBeGreaterThanOrEqual(steps[pairs[at - 1].col]);
          }
          for (const pair of pairs) expect(pair.score).toBe(values[pair.row][pair.col]);
        },
      ),
      { numRuns: 400, seed: 20261127 },
    );
  });
});
