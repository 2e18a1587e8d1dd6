import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AssignmentWorkError, capacitatedAssignment } from "./capacitated-assignment.js";
import { maxWeightFlow } from "./optimal-assignment.js";
import type { Flow } from "./optimal-assignment.js";

const totalOf = (flows: readonly Flow[]) =>
  flows.reduce((sum, flow) => sum + flow.count * flow.score, 0);

/** Every flow is a real pair of positive score, and no class goes over its capacity. */
function expectValid(
  flows: readonly Flow[],
  weights: readonly (readonly number[])[],
  rowCapacity: readonly number[],
  colCapacity: readonly number[],
): void {
  const rowUsed = rowCapacity.map(() => 0);
  const colUsed = colCapacity.map(() => 0);
  for (const flow of flows) {
    expect(flow.count).toBeGreaterThan(0);
    expect(flow.score).toBe(weights[flow.row][flow.col]);
    expect(flow.score).toBeGreaterThan(0);
    rowUsed[flow.row] += flow.count;
    colUsed[flow.col] += flow.count;
  }
  rowUsed.forEach((used, row) => {
    expect(used).toBeLessThanOrEqual(rowCapacity[row]);
  });
  colUsed.forEach((used, col) => {
    expect(used).toBeLessThanOrEqual(colCapacity[col]);
  });
}

describe("capacitatedAssignment", () => {
  // Scores as toolscore quantizes them (multiples of 1/8 here), so totals compare exactly.
  const score = fc.constantFrom(0, 0, 0.125, 0.25, 0.5, 0.625, 0.875, 1, 1);
  const problem = fc
    .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }))
    .chain(([rows, cols]) =>
      fc.record({
        weights: fc.array(fc.array(score, { minLength: cols, maxLength: cols }), {
          minLength: rows,
          maxLength: rows,
        }),
        rowCapacity: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: rows, maxLength: rows }),
        colCapacity: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: cols, maxLength: cols }),
        hints: fc.array(
          fc.tuple(fc.integer({ min: 0, max: rows - 1 }), fc.integer({ min: 0, max: cols - 1 })),
          { maxLength: 8 },
        ),
      }),
    );

  it("reaches the optimal total of the min-cost flow, whatever pairs are hinted", () => {
    fc.assert(
      fc.property(problem, ({ weights, rowCapacity, colCapacity, hints }) => {
        const matrix = {
          rows: weights.length,
          cols: weights[0].length,
          score: (row: number, col: number) => weights[row][col],
        };
        const reference = maxWeightFlow(matrix, { rowCapacity, colCapacity });
        let asked = 0;
        const flows = capacitatedAssignment({
          rows: matrix.rows,
          cols: matrix.cols,
          rowCapacity,
          colCapacity,
          score: (row, col) => {
            asked++;
            return weights[row][col];
          },
          likelyPerfect: hints,
          maxWork: 1e9,
        });
        expectValid(flows, weights, rowCapacity, colCapacity);
        expect(totalOf(flows)).toBe(totalOf(reference));
        // Each pair is scored at most once per side's search, and a hint once.
        expect(asked).toBeLessThanOrEqual(2 * matrix.rows * matrix.cols + hints.length);
        // The same input gives the same pairs.
        expect(
          capacitatedAssignment({
            rows: matrix.rows,
            cols: matrix.cols,
            rowCapacity,
            colCapacity,
            score: (row, col) => weights[row][col],
            likelyPerfect: hints,
            maxWork: 1e9,
          }),
        ).toEqual(flows);
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it("pairs identical members first, and searches only for the rest", () => {
    // 300 rows and columns of one class each, a perfect pair for every row but the last ten.
    const n = 300;
    const weights = (row: number, col: number) =>
      row === col && row < n - 10 ? 1 : row % 7 === col % 7 ? 0.5 : 0;
    let asked = 0;
    const flows = capacitatedAssignment({
      rows: n,
      cols: n,
      rowCapacity: new Array<number>(n).fill(1),
      colCapacity: new Array<number>(n).fill(1),
      score: (row, col) => {
        asked++;
        return weights(row, col);
      },
      likelyPerfect: Array.from({ length: n }, (_, i) => [i, i] as const),
      maxWork: 1e9,
    });
    expect(flows.filter((flow) => flow.score === 1)).toHaveLength(n - 10);
    expect(totalOf(flows)).toBe(n - 10 + 10 * 0.5);
    // Far fewer than the n² scores a search of every row would read.
    expect(asked).toBeLessThan(n * 40);
  });

  it("stops with an AssignmentWorkError beyond its budget", () => {
    expect(() =>
      capacitatedAssignment({
        rows: 50,
        cols: 50,
        rowCapacity: new Array<number>(50).fill(1),
        colCapacity: new Array<number>(50).fill(1),
        score: (row, col) => ((row * 7 + col * 3) % 10) / 10,
        maxWork: 1000,
      }),
    ).toThrow(AssignmentWorkError);
  });
});
