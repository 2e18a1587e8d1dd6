import { describe, expect, it } from "vitest";
import { LimitExceededError } from "../core/errors.js";
import { toToolCall } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import { deepevalCompareParams } from "../matchers/deepeval-compare-params.js";
import { maxWeightFlow } from "../algorithms/optimal-assignment.js";
import { defaultMatchLimits } from "./limits.js";
import { pairToolCalls } from "./pairing.js";
import { toolCallMatrix } from "./tool-call-matrix.js";

const call = (name: string, inputParameters: Record<string, unknown> = {}): ToolCall =>
  toToolCall({ name, inputParameters });

function matrixOf(expected: ToolCall[], called: ToolCall[]) {
  return toolCallMatrix({
    expected,
    called,
    score: (e, c) => deepevalCompareParams(e.inputParameters, c.inputParameters),
    classKey: (c) => JSON.stringify(c.inputParameters),
    maxPairEvaluations: defaultMatchLimits.maxPairEvaluations,
  });
}

describe("pairToolCalls", () => {
  // docs/reference/semantics.md §1.3: greedy scores 0.5 where 0.75 is possible.
  const expected = [call("A", { x: 1, y: 9 }), call("A", { x: 1, y: 1 })];
  const called = [call("A", { x: 1, y: 1 }), call("A", { x: 1, y: 2 })];

  it("reproduces deepeval's greedy pairing", () => {
    const { pairs, total } = pairToolCalls(
      matrixOf(expected, called),
      "deepeval-greedy",
      defaultMatchLimits,
    );
    expect(pairs.map((p) => [p.row, p.col])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(total).toBe(1);
  });

  it("finds the optimal pairing", () => {
    const { pairs, total } = pairToolCalls(
      matrixOf(expected, called),
      "optimal-assignment",
      defaultMatchLimits,
    );
    expect(pairs.map((p) => [p.row, p.col])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(total).toBe(1.5);
  });

  it("pairs thousands of identical calls in list order, in one step", () => {
    const many = Array.from({ length: 5000 }, () => call("A", { q: 1 }));
    const made = [call("B"), ...Array.from({ length: 5000 }, () => call("A", { q: 1 }))];
    const { pairs, total } = pairToolCalls(
      matrixOf(many, made),
      "optimal-assignment",
      defaultMatchLimits,
    );
    expect(total).toBe(5000);
    expect(pairs.every((p, i) => p.row === i && p.col === i + 1)).toBe(true);
  });

  it("spreads class flows so that equal calls keep their order", () => {
    const e = [call("A", { k: 1 }), call("A", { k: 2 }), call("A", { k: 1 })];
    const c = [call("A", { k: 1 }), call("A", { k: 1 }), call("A", { k: 2 })];
    const { pairs } = pairToolCalls(matrixOf(e, c), "optimal-assignment", defaultMatchLimits);
    expect(pairs.map((p) => [p.row, p.col])).toEqual([
      [0, 0],
      [1, 2],
      [2, 1],
    ]);
  });

  it("assigns thousands of different calls of one tool, pairing identical ones first", () => {
    // 3,000 different calls, every tenth made with another argument: 2,700 identical pairs, and
    // 300 searched for, each pairing its call with the one that differs (score 0.5).
    const e = Array.from({ length: 3000 }, (_, i) => call("search", { q: i, page: i % 7 }));
    const c = e.map((item, i) =>
      i % 10 === 3 ? call("search", { q: i, page: 99 }) : call("search", item.inputParameters),
    );
    const matrix = toolCallMatrix({
      expected: e,
      called: c,
      score: (x, y) => deepevalCompareParams(x.inputParameters, y.inputParameters),
      classKey: (item) => JSON.stringify(item.inputParameters),
      perfectKeys: {
        expected: (item) => JSON.stringify(item.inputParameters),
        called: (item) => JSON.stringify(item.inputParameters),
      },
      maxPairEvaluations: defaultMatchLimits.maxPairEvaluations,
    });
    const { pairs, total } = pairToolCalls(matrix, "optimal-assignment", defaultMatchLimits);
    expect(total).toBe(2700 + 300 * 0.5);
    expect(pairs.every((pair) => pair.row === pair.col)).toBe(true);
  });

  it("reaches the total the b-matching gives on a large group", () => {
    // 120 calls of one tool over a few distinct arguments: classes with capacities, and many
    // pairs that score alike.
    const args = (i: number) => ({ a: i % 5, b: i % 3, c: i % 4 === 0 ? "x" : "y" });
    const e = Array.from({ length: 120 }, (_, i) => call("t", args(i)));
    const c = Array.from({ length: 110 }, (_, i) => call("t", args(i * 7 + 1)));
    const { total } = pairToolCalls(matrixOf(e, c), "optimal-assignment", defaultMatchLimits);
    const exact = maxWeightFlow({
      rows: e.length,
      cols: c.length,
      score: (row, col) => deepevalCompareParams(e[row].inputParameters, c[col].inputParameters),
    });
    expect(total).toBeCloseTo(
      exact.reduce((sum, flow) => sum + flow.score, 0),
      9,
    );
  });

  it("refuses an optimal assignment that takes more work than allowed, naming the tool", () => {
    const e = Array.from({ length: 300 }, (_, i) => call("search", { q: i }));
    expect(() =>
      pairToolCalls(matrixOf(e, e), "optimal-assignment", {
        ...defaultMatchLimits,
        maxAssignmentWork: 1e5,
      }),
    ).toThrow(/'search' calls \(300 × 300 distinct\) takes more than 1\.0e\+5 steps/);
  });

  it("refuses an ordered alignment over the cell limit", () => {
    const e = Array.from({ length: 100 }, () => call("A"));
    expect(() =>
      pairToolCalls(matrixOf(e, e), "weighted-lcs", {
        ...defaultMatchLimits,
        maxAlignmentCells: 1000,
      }),
    ).toThrow(LimitExceededError);
  });

  it("pairs positions of the same tool even when they score 0", () => {
    const { pairs } = pairToolCalls(
      matrixOf([call("A", { x: 1 }), call("B")], [call("A", { x: 2 }), call("C")]),
      "positional",
      defaultMatchLimits,
    );
    expect(pairs).toEqual([{ row: 0, col: 0, score: 0 }]);
  });
});
