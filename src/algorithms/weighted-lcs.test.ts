import { describe, expect, it } from "vitest";
import { denseScoreMatrix } from "./score-matrix.js";
import type { ScoreMatrix } from "./score-matrix.js";
import { weightedLcs } from "./weighted-lcs.js";
import { randomScores, seededRandom } from "../../test/support/brute-force.js";

function namesMatrix(expected: string[], called: string[]): ScoreMatrix {
  return denseScoreMatrix(expected.map((e) => called.map((c) => (e === c ? 1 : 0))));
}

describe("weightedLcs", () => {
  it("aligns in order: [W, T, W] against [W, W, T] keeps two of three", () => {
    const result = weightedLcs(namesMatrix(["W", "T", "W"], ["W", "W", "T"]));
    expect(result.total).toBe(2);
    // Backtracking prefers up, then left: the last W is left out, T pairs with T, W with W.
    expect(result.pairs.map((p) => [p.row, p.col])).toEqual([
      [0, 0],
      [1, 2],
    ]);
  });

  it("weighs partial pair scores", () => {
    const result = weightedLcs(
      denseScoreMatrix([
        [0.5, 0],
        [0, 0.25],
      ]),
    );
    expect(result.total).toBe(0.75);
    expect(result.pairs).toEqual([
      { row: 0, col: 0, score: 0.5 },
      { row: 1, col: 1, score: 0.25 },
    ]);
  });

  it("returns nothing for empty inputs", () => {
    expect(weightedLcs(denseScoreMatrix([]))).toEqual({ pairs: [], total: 0 });
    expect(weightedLcs(denseScoreMatrix([[], []]))).toEqual({ pairs: [], total: 0 });
  });

  it("gives bit-identical results with checkpointed rows", () => {
    const random = seededRandom(5);
    for (let trial = 0; trial < 50; trial++) {
      const rows = 1 + Math.floor(random() * 30);
      const cols = 1 + Math.floor(random() * 30);
      const values = randomScores(random, rows, cols, { zeros: 0.6, steps: 7 });
      const full = weightedLcs(denseScoreMatrix(values));
      const checkpointed = weightedLcs(denseScoreMatrix(values), { fullTableCells: 1 });
      expect(checkpointed).toEqual(full);
    }
  });

  it("respects candidate lists", () => {
    const matrix: ScoreMatrix = {
      rows: 2,
      cols: 2,
      score: () => 1,
      candidates: (row) => (row === 0 ? [1] : []),
    };
    expect(weightedLcs(matrix).pairs.map((p) => [p.row, p.col])).toEqual([[0, 1]]);
  });

  it("aligns 10,000 × 10,000 calls in bounded memory", () => {
    const n = 10_000;
    const names = Array.from({ length: n }, (_, i) => i % 7);
    const byName = new Map<number, number[]>();
    names.forEach((name, i) => {
      const list = byName.get(name) ?? [];
      list.push(i);
      byName.set(name, list);
    });
    const matrix: ScoreMatrix = {
      rows: n,
      cols: n,
      score: (row, col) => (names[row] === names[col] ? 1 : 0),
      candidates: (row) => byName.get(names[row]) ?? [],
    };
    const before = process.memoryUsage().arrayBuffers;
    const result = weightedLcs(matrix);
    expect(result.total).toBe(n);
    expect(result.pairs).toHaveLength(n);
    // A whole table would be 800 MB; the checkpointed one stays in the tens of MB.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(100 * 2 ** 20);
  });
});
