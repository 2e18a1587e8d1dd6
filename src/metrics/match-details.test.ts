import { describe, expect, it } from "vitest";
import { toToolCall } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import { diffArguments } from "../matchers/diff-arguments.js";
import { defaultMatchLimits } from "./limits.js";
import { buildMatchDetails, precisionRecallF1 } from "./match-details.js";
import { pairToolCalls } from "./pairing.js";
import { toolCallMatrix } from "./tool-call-matrix.js";

const call = (name: string, inputParameters: Record<string, unknown> = {}): ToolCall =>
  toToolCall({ name, inputParameters });

describe("buildMatchDetails", () => {
  it("separates missing from out-of-order calls and explains pairs by path", () => {
    const expected = [call("W", { q: "a" }), call("T"), call("W", { q: "b" }), call("X")];
    const called = [call("W", { q: "a", extra: 1 }), call("W", { q: "b" }), call("T"), call("Y")];
    const matrix = toolCallMatrix({
      expected,
      called,
      score: () => 1,
      maxPairEvaluations: 100,
    });
    const pairing = pairToolCalls(matrix, "weighted-lcs", defaultMatchLimits);
    const details = buildMatchDetails({
      algorithm: "weighted-lcs",
      expected,
      called,
      matrix,
      pairing,
      explainPair: (e, c) => ({ arguments: diffArguments(e.inputParameters, c.inputParameters) }),
    });
    expect(details.pairs.map((p) => [p.expectedIndex, p.calledIndex])).toEqual([
      [0, 0],
      [1, 2],
    ]);
    expect(details.outOfOrder).toEqual([{ expectedIndex: 2, name: "W" }]);
    expect(details.missing).toEqual([{ expectedIndex: 3, name: "X" }]);
    expect(details.unexpected).toEqual([
      { calledIndex: 1, name: "W" },
      { calledIndex: 3, name: "Y" },
    ]);
    expect(details.mismatches).toEqual([
      { kind: "args-unexpected", expectedIndex: 0, calledIndex: 0, path: "$.extra", actual: 1 },
      { kind: "out-of-order", expectedIndex: 2, name: "W" },
      { kind: "missing-call", expectedIndex: 3, name: "X" },
      { kind: "unexpected-call", calledIndex: 1, name: "W" },
      { kind: "unexpected-call", calledIndex: 3, name: "Y" },
    ]);
    expect(details.recall).toBe(0.5);
    expect(details.precision).toBe(0.5);
    expect(details.f1).toBe(0.5);
  });

  it("reports count and name mismatches for positional alignment", () => {
    const expected = [call("A"), call("B")];
    const called = [call("C")];
    const matrix = toolCallMatrix({ expected, called, score: () => 1, maxPairEvaluations: 10 });
    const details = buildMatchDetails({
      algorithm: "positional",
      expected,
      called,
      matrix,
      pairing: pairToolCalls(matrix, "positional", defaultMatchLimits),
      explainPair: () => ({ arguments: [] }),
    });
    expect(details.mismatches).toEqual([
      { kind: "count-mismatch", expected: 2, actual: 1 },
      { kind: "name-mismatch", expectedIndex: 0, calledIndex: 0, expected: "A", actual: "C" },
      { kind: "missing-call", expectedIndex: 0, name: "A" },
      { kind: "missing-call", expectedIndex: 1, name: "B" },
      { kind: "unexpected-call", calledIndex: 0, name: "C" },
    ]);
  });
});

describe("precisionRecallF1", () => {
  it("handles empty sides", () => {
    expect(precisionRecallF1(0, 0, 0)).toEqual({ precision: 1, recall: 1, f1: 1 });
    expect(precisionRecallF1(0, 0, 2)).toEqual({ precision: 0, recall: 1, f1: 0 });
    expect(precisionRecallF1(0, 2, 0)).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(precisionRecallF1(1, 2, 4)).toEqual({
      precision: 0.25,
      recall: 0.5,
      f1: (2 * 0.25 * 0.5) / 0.75,
    });
  });
});
