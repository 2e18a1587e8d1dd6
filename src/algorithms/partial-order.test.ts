import { describe, expect, it } from "vitest";
import { StateLimitError, partialOrderPairs } from "./partial-order.js";
import { denseScoreMatrix } from "./score-matrix.js";

/** All valid pairings by brute force: the reference. */
function bruteForce(values: number[][], predecessors: number[][]): number {
  const rows = values.length;
  const cols = values[0]?.length ?? 0;
  const ancestors = (row: number): Set<number> => {
    const set = new Set<number>();
    const stack = [...(predecessors[row] ?? [])];
    while (stack.length) {
      const r = stack.pop() as number;
      if (!set.has(r)) {
        set.add(r);
        stack.push(...(predecessors[r] ?? []));
      }
    }
    return set;
  };
  let best = 0;
  const assignment = new Array<number>(rows).fill(-1);
  const used = new Array<boolean>(cols).fill(false);
  const visit = (row: number, total: number): void => {
    if (row === rows) {
      for (let r = 0; r < rows; r++) {
        if (assignment[r] === -1) continue;
        for (const a of ancestors(r))
          if (assignment[a] !== -1 && assignment[a] > assignment[r]) return;
      }
      best = Math.max(best, total);
      return;
    }
    visit(row + 1, total);
    for (let c = 0; c < cols; c++) {
      const w = values[row][c];
      if (!used[c] && w > 0) {
        used[c] = true;
        assignment[row] = c;
        visit(row + 1, total + w);
        assignment[row] = -1;
        used[c] = false;
      }
    }
  };
  visit(0, 0);
  return best;
}

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
    let seed = 17;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 200; trial++) {
      const rows = 1 + Math.floor(random() * 5);
      const cols = 1 + Math.floor(random() * 6);
      const values = Array.from({ length: rows }, () =>
        Array.from({ length: cols }, () => (random() < 0.5 ? 0 : Math.ceil(random() * 4) / 4)),
      );
      // Random DAG: edges only from lower to higher rows.
      const predecessors = Array.from({ length: rows }, (_, r) =>
        Array.from({ length: r }, (_, q) => q).filter(() => random() < 0.4),
      );
      const total = partialOrderPairs(denseScoreMatrix(values), { predecessors }).reduce(
        (sum, p) => sum + p.score,
        0,
      );
      expect(total).toBeCloseTo(bruteForce(values, predecessors), 12);
    }
  });

  it("refuses cycles and too many states", () => {
    expect(() =>
      partialOrderPairs(denseScoreMatrix([[1], [1]]), { predecessors: [[1], [0]] }),
    ).toThrow(/cycle/);
    const wide = Array.from({ length: 20 }, () => new Array<number>(20).fill(1));
    expect(() =>
      partialOrderPairs(denseScoreMatrix(wide), {
        predecessors: wide.map(() => []),
        maxStates: 10_000,
      }),
    ).toThrow(StateLimitError);
  });
});
