import { describe, expect, it } from "vitest";
import { LimitExceededError } from "../core/errors.js";
import { toToolCall } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import { toolCallMatrix } from "./tool-call-matrix.js";

const call = (
  name: string,
  inputParameters: Record<string, unknown> = {},
  type?: "MCP",
): ToolCall => toToolCall({ name, inputParameters, ...(type ? { type } : {}) });

describe("toolCallMatrix", () => {
  it("only scores calls of the same name and type", () => {
    const seen: string[] = [];
    const matrix = toolCallMatrix({
      expected: [call("a"), call("b"), call("a", {}, "MCP")],
      called: [call("b"), call("a"), call("c"), call("a", {}, "MCP")],
      score: (e, c) => {
        seen.push(`${e.name}/${c.name}`);
        return 1;
      },
      maxPairEvaluations: 100,
    });
    expect(matrix.score(0, 0)).toBe(0);
    expect(matrix.score(0, 1)).toBe(1);
    expect(matrix.score(0, 3)).toBe(0);
    expect(matrix.score(2, 3)).toBe(1);
    expect(matrix.candidates(0)).toEqual([1]);
    expect(matrix.candidates(1)).toEqual([0]);
    expect(matrix.groupOfCol(2)).toBe(-1);
    expect(seen).toEqual(["a/a", "a/a"]);
    // Cached: asking again computes nothing.
    matrix.score(0, 1);
    expect(seen).toHaveLength(2);
  });

  it("computes each distinct pair once on large inputs", () => {
    let evaluations = 0;
    const expected = Array.from({ length: 100 }, (_, i) => call("t", { k: i % 3 }));
    const called = Array.from({ length: 100 }, (_, i) => call("t", { k: i % 2 }));
    const matrix = toolCallMatrix({
      expected,
      called,
      score: (e, c) => {
        evaluations++;
        return e.inputParameters.k === c.inputParameters.k ? 1 : 0.5;
      },
      classKey: (c) => JSON.stringify(c.inputParameters),
      maxPairEvaluations: 1000,
    });
    for (let r = 0; r < 100; r++) for (let c = 0; c < 100; c++) matrix.score(r, c);
    expect(evaluations).toBe(6);
    expect(matrix.groups[0]?.rowClassCount).toBe(3);
  });

  it("stops with a typed error past the evaluation budget", () => {
    const expected = Array.from({ length: 10 }, (_, i) => call("t", { i }));
    const matrix = toolCallMatrix({
      expected,
      called: expected,
      score: () => 1,
      maxPairEvaluations: 5,
    });
    expect(() => {
      for (let r = 0; r < 10; r++) matrix.score(r, r);
    }).toThrow(LimitExceededError);
  });
});
