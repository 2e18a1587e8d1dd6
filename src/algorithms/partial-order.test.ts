import { describe, expect, it } from "vitest";
import { StateLimitError, partialOrderPairs } from "./partial-order.js";
import { denseScoreMatrix } from "./score-matrix.js";
import { bruteForceBest, randomScores, seededRandom } from "../../test/support/brute-force.js";

describe("partialOrderPairs", () => {
  it("lets a group go in any order, but before the next group", () => {
    // expected [[a, b], [c]]; made: b, a, c -> all three pair.
    const values = [
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ];
    const pairs = partialOrderPairs(denseScoreMatrix(values), { predecessors: [[], [], [0, 1]] });
    expect(pairs.map((p) => [p.row, p.col])).toEqual([
      [0, 1],
      [1, 0],
      [2, 2],
    ]);
    // made: c, a, b -> c came too early; a and b pair, c does not.
    const early = [
      [0, 1, 0],
      [0, 0, 1],
      [1, 0, 0],
    ];
    expect(
      partialOrderPairs(denseScoreMatrix(early), { predecessors: [[], [], [0, 1]] }).map(
        (p) => p.row,
      ),
    ).toEqual([0, 1]);
  });

  it("matches brute force on random matrices and orders", () => {
    const random = seededRandom(17);
    for (let trial = 0; trial < 1000; trial++) {
      const rows = 1 + Math.floor(random() * 6);
      const cols = 1 + Math.floor(random() * 7);
      // Few distinct scores, so that ties and identical rows are common.
      const values = randomScores(random, rows, cols, { zeros: 0.5, steps: 2 });
      // Random DAG over a random permutation, so edges may point from higher to lower rows.
      const rank = Array.from({ length: rows }, (_, r) => r).sort(() => random() - 0.5);
      const predecessors = Array.from({ length: rows }, (_, r) =>
        Array.from({ length: rows }, (_, q) => q).filter(
          (q) => rank[q] < rank[r] && random() < 0.4,
        ),
      );
      const pairs = partialOrderPairs(denseScoreMatrix(values), { predecessors });
      const total = pairs.reduce((sum, p) => sum + p.score, 0);
      // A valid pairing: one row per column, and every direct predecessor paired earlier.
      expect(new Set(pairs.map((p) => p.col)).size).toBe(pairs.length);
      const colOf = new Map(pairs.map((p) => [p.row, p.col]));
      for (const pair of pairs) {
        expect(pair.score).toBe(values[pair.row]?.[pair.col]);
        for (const before of predecessors[pair.row] ?? []) {
          const earlier = colOf.get(before);
          if (earlier !== undefined) expect(earlier).toBeLessThan(pair.col);
        }
      }
      expect(total).toBeCloseTo(bruteForceBest(values, predecessors), 12);
    }
  });

  it("refuses cycles and too many states", () => {
    expect(() =>
      partialOrderPairs(denseScoreMatrix([[1], [1]]), { predecessors: [[1], [0]] }),
    ).toThrow(/cycle/);
    // Twenty unordered rows with distinct scores, then one last row: too many open states.
    const random = seededRandom(5);
    const wide = randomScores(random, 21, 21, { zeros: 0, steps: 100 });
    const predecessors = wide.map((_, row) =>
      row === 20 ? Array.from({ length: 20 }, (__, k) => k) : [],
    );
    expect(() =>
      partialOrderPairs(denseScoreMatrix(wide), { predecessors, maxStates: 10_000 }),
    ).toThrow(StateLimitError);
  });

  it("pairs identical rows in index order instead of trying every choice", () => {
    const ones = Array.from({ length: 30 }, () => new Array<number>(30).fill(1));
    const pairs = partialOrderPairs(denseScoreMatrix(ones), {
      predecessors: ones.map(() => []),
      maxStates: 2_000,
    });
    expect(pairs.map((p) => [p.row, p.col])).toEqual(ones.map((_, k) => [k, k]));
  });
});
