import { describe, expect, it } from "vitest";
import { positionalPairs } from "./positional.js";
import { denseScoreMatrix } from "./score-matrix.js";

describe("positionalPairs", () => {
  it("pairs equal positions that can pair, up to the shorter list", () => {
    const matrix = denseScoreMatrix([
      [1, 0, 0],
      [0, 0, 0],
    ]);
    expect(positionalPairs(matrix)).toEqual([{ row: 0, col: 0, score: 1 }]);
  });
});
