import { describe, expect, it } from "vitest";
import { maxWeightFlow, optimalAssignment } from "./optimal-assignment.js";
import { denseScoreMatrix } from "./score-matrix.js";
import type { ScoreMatrix } from "./score-matrix.js";
import { bruteForceBest, randomScores, seededRandom } from "../../test/support/brute-force.js";

describe("optimalAssignment", () => {
  it("finds the better pairing that greedy misses", () => {
    // deepeval's example: greedy takes 0->0 (0.5) and scores 0.5 in total; optimal makes 0.75.
    const matrix = denseScoreMatrix([
      [0.5, 0.5],
      [1, 0.25],
    ]);
    const pairs = optimalAssignment(matrix);
    expect(pairs).toEqual([
      { row: 0, col: 1, score: 0.5 },
      { row: 1, col: 0, score: 1 },
    ]);
  });

  it("handles rectangular matrices both ways and leaves unpairable rows alone", () => {
    expect(optimalAssignment(denseScoreMatrix([[0, 1, 0.2]]))).toEqual([
      { row: 0, col: 1, score: 1 },
    ]);
    expect(optimalAssignment(denseScoreMatrix([[0], [0.3], [0.9]]))).toEqual([
      { row: 2, col: 0, score: 0.9 },
    ]);
    expect(optimalAssignment(denseScoreMatrix([[0, 0]]))).toEqual([]);
    expect(optimalAssignment(denseScoreMatrix([]))).toEqual([]);
  });

  it("pairs identical rows and columns in list order", () => {
    const matrix = denseScoreMatrix([
      [1, 1, 1],
      [1, 1, 1],
      [1, 1, 1],
    ]);
    expect(optimalAssignment(matrix).map((p) => [p.row, p.col])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });

  it("matches brute force on random matrices", () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 300; trial++) {
      const rows = 1 + Math.floor(random() * 6);
      const cols = 1 + Math.floor(random() * 6);
      const values = Array.from({ length: rows }, () =>
        Array.from({ length: cols }, () => {
          const r = random();
          // Many zeros and many ties, as real similarity matrices have.
          return r < 0.35 ? 0 : r < 0.6 ? 1 : Math.round(random() * 8) / 8;
        }),
      );
      const pairs = optimalAssignment(denseScoreMatrix(values));
      const total = pairs.reduce((sum, p) => sum + p.score, 0);
      expect(total).toBeCloseTo(bruteForceBest(values), 12);
      expect(new Set(pairs.map((p) => p.row)).size).toBe(pairs.length);
      expect(new Set(pairs.map((p) => p.col)).size).toBe(pairs.length);
      for (const p of pairs) expect(p.score).toBe(values[p.row][p.col]);
    }
  });

  it("gives the same total whatever the order of rows and columns", () => {
    const random = seededRandom(11);
    for (let trial = 0; trial < 100; trial++) {
      const n = 2 + Math.floor(random() * 5);
      const values = randomScores(random, n, n, { zeros: 0.4, steps: 4 });
      const reversed = values.map((row) => [...row].reverse()).reverse();
      const total = (m: number[][]) =>
        optimalAssignment(denseScoreMatrix(m)).reduce((sum, p) => sum + p.score, 0);
      expect(total(reversed)).toBe(total(values));
    }
  });

  it("only looks at candidate columns", () => {
    const seen: [number, number][] = [];
    const matrix: ScoreMatrix = {
      rows: 2,
      cols: 3,
      score: (row, col) => {
        seen.push([row, col]);
        return 1;
      },
      candidates: (row) => (row === 0 ? [2] : [0]),
    };
    expect(optimalAssignment(matrix).map((p) => [p.row, p.col])).toEqual([
      [0, 2],
      [1, 0],
    ]);
    expect(seen).toEqual([
      [0, 2],
      [1, 0],
    ]);
  });
});

describe("maxWeightFlow", () => {
  it("uses capacities to pair classes of identical calls", () => {
    // Two classes of expected calls (3 and 1 copies) against two classes of calls made (2 and 2).
    const matrix = denseScoreMatrix([
      [1, 0.5],
      [0.2, 1],
    ]);
    const flows = maxWeightFlow(matrix, { rowCapacity: [3, 1], colCapacity: [2, 2] });
    expect(flows).toEqual([
      { row: 0, col: 0, count: 2, score: 1 },
      { row: 0, col: 1, count: 1, score: 0.5 },
      { row: 1, col: 1, count: 1, score: 1 },
    ]);
  });

  it("agrees with the expanded assignment problem", () => {
    const random = seededRandom(3);
    for (let trial = 0; trial < 100; trial++) {
      const rows = 1 + Math.floor(random() * 3);
      const cols = 1 + Math.floor(random() * 3);
      const values = randomScores(random, rows, cols, { zeros: 0.3, steps: 10 });
      const rowCapacity = Array.from({ length: rows }, () => 1 + Math.floor(random() * 3));
      const colCapacity = Array.from({ length: cols }, () => 1 + Math.floor(random() * 3));
      const expanded: number[][] = [];
      values.forEach((row, r) => {
        for (let k = 0; k < rowCapacity[r]; k++) {
          expanded.push(row.flatMap((w, c) => new Array<number>(colCapacity[c]).fill(w)));
        }
      });
      const flows = maxWeightFlow(denseScoreMatrix(values), { rowCapacity, colCapacity });
      const total = flows.reduce((sum, f) => sum + f.score * f.count, 0);
      expect(total).toBeCloseTo(bruteForceBest(expanded), 12);
    }
  });
});
