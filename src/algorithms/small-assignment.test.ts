import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxWeightFlow } from "./optimal-assignment.js";
import { denseScoreMatrix } from "./score-matrix.js";
import { clearBestAssignment } from "./small-assignment.js";

/** The Hungarian algorithm's pairs, in row order. */
function hungarianPairs(values: number[][]) {
  return maxWeightFlow(denseScoreMatrix(values))
    .map(({ row, col, score }) => ({ row, col, score }))
    .sort((a, b) => a.row - b.row);
}

// Few distinct scores make ties common; 2/3 as a pair score rounds as match-tool-calls does.
const tied = fc.constantFrom(0, 0, 0.25, 0.5, 0.5, 1, 1, Math.round((2 / 3) * 2 ** 32) / 2 ** 32);
const spread = fc.double({ min: 0, max: 1, noNaN: true });
const matrices = (score: fc.Arbitrary<number>) =>
  fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })).chain(([rows, cols]) =>
    fc.array(fc.array(score, { minLength: cols, maxLength: cols }), {
      minLength: rows,
      maxLength: rows,
    }),
  );

describe("clearBestAssignment", () => {
  for (const [what, score] of [
    ["few distinct scores (many ties)", tied],
    ["any scores", spread],
  ] as const) {
    it(`gives the Hungarian algorithm's pairs whenever it answers: ${what}`, () => {
      let answered = 0;
      let declined = 0;
      fc.assert(
        fc.property(matrices(score), (values) => {
          const clear = clearBestAssignment(denseScoreMatrix(values));
          if (clear === undefined) {
            declined++;
            return;
          }
          answered++;
          expect(clear).toEqual(hungarianPairs(values));
        }),
        { numRuns: 3000, seed: 20261122 },
      );
      // Both outcomes happen, so neither branch is left untested.
      expect(answered).toBeGreaterThan(1000);
      if (score === tied) expect(declined).toBeGreaterThan(100);
    });
  }

  it("declines a tie between different pairs, and matrices over four a side", () => {
    expect(
      clearBestAssignment(
        denseScoreMatrix([
          [1, 1],
          [1, 1],
        ]),
      ),
    ).toBeUndefined();
    const five = Array.from({ length: 5 }, () => [1, 0, 0, 0, 0]);
    expect(clearBestAssignment(denseScoreMatrix(five))).toBeUndefined();
  });

  it("answers one best set reached by assignments that differ only in zero pairs", () => {
    expect(
      clearBestAssignment(
        denseScoreMatrix([
          [1, 0, 0],
          [0, 0, 0],
        ]),
      ),
    ).toEqual([{ row: 0, col: 0, score: 1 }]);
    expect(clearBestAssignment(denseScoreMatrix([[0, 0]]))).toEqual([]);
    expect(clearBestAssignment(denseScoreMatrix([]))).toEqual([]);
  });

  it("takes the better pairing a greedy choice misses, on both orientations", () => {
    const values = [
      [0.9, 0.8],
      [0.7, 0],
    ];
    expect(clearBestAssignment(denseScoreMatrix(values))).toEqual([
      { row: 0, col: 1, score: 0.8 },
      { row: 1, col: 0, score: 0.7 },
    ]);
    const wide = [
      [0.9, 0.7, 0],
      [0.8, 0, 0.1],
    ];
    expect(clearBestAssignment(denseScoreMatrix(wide))).toEqual(hungarianPairs(wide));
    const tall = [
      [0.9, 0.8],
      [0.7, 0],
      [0, 0.5],
    ];
    expect(clearBestAssignment(denseScoreMatrix(tall))).toEqual([
      { row: 0, col: 1, score: 0.8 },
      { row: 1, col: 0, score: 0.7 },
    ]);
    expect(hungarianPairs(tall)).toEqual(clearBestAssignment(denseScoreMatrix(tall)));
  });
});
