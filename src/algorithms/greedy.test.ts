import { describe, expect, it } from "vitest";
import { axionFirstFitPairs, deepevalGreedyPairs } from "./greedy.js";
import { denseScoreMatrix } from "./score-matrix.js";
import type { ScoreMatrix } from "./score-matrix.js";

describe("deepevalGreedyPairs", () => {
  it("takes, row by row, the strictly best unused column", () => {
    const matrix = denseScoreMatrix([
      [0.5, 0.5],
      [1, 0.25],
    ]);
    // Row 0 keeps the earliest of its tied best; row 1 must then settle for 0.25.
    expect(deepevalGreedyPairs(matrix)).toEqual([
      { row: 0, col: 0, score: 0.5 },
      { row: 1, col: 1, score: 0.25 },
    ]);
  });

  it("consumes by position, so identical calls pair one to one", () => {
    const matrix = denseScoreMatrix([
      [1, 1],
      [1, 1],
    ]);
    expect(deepevalGreedyPairs(matrix).map((p) => [p.row, p.col])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it("never pairs a score of 0", () => {
    expect(deepevalGreedyPairs(denseScoreMatrix([[0, 0]]))).toEqual([]);
  });

  it("stops scanning a row once it meets maxScore", () => {
    let calls = 0;
    const matrix: ScoreMatrix = {
      rows: 1,
      cols: 1000,
      score: () => {
        calls++;
        return 1;
      },
    };
    expect(deepevalGreedyPairs(matrix, { maxScore: 1 })).toEqual([{ row: 0, col: 0, score: 1 }]);
    expect(calls).toBe(1);
    calls = 0;
    deepevalGreedyPairs(matrix);
    expect(calls).toBe(1000);
  });

  it("stays linear on thousands of identical calls", () => {
    const n = 20_000;
    let calls = 0;
    const all = Array.from({ length: n }, (_, i) => i);
    const matrix: ScoreMatrix = {
      rows: n,
      cols: n,
      score: () => {
        calls++;
        return 1;
      },
      candidates: () => all,
    };
    expect(deepevalGreedyPairs(matrix, { maxScore: 1 })).toHaveLength(n);
    expect(calls).toBe(n);
  });
});

describe("axionFirstFitPairs", () => {
  it("takes the first unused matching column, not the best", () => {
    const matrix = denseScoreMatrix([
      [1, 1],
      [1, 0],
    ]);
    expect(axionFirstFitPairs(matrix).map((p) => [p.row, p.col])).toEqual([[0, 0]]);
  });
});
