import { describe, expect, it } from "vitest";
import type { InvalidOptionError } from "../core/errors.js";
import { toToolCalls } from "../core/tool-call.js";
import type { ToolCallInput } from "../core/tool-call.js";
import {
  resolveAxionToolCorrectnessOptions,
  scoreAxionToolCorrectness,
} from "./axion-tool-correctness.js";
import type { AxionToolCorrectnessOptions } from "./axion-tool-correctness.js";

function score(
  expected: ToolCallInput[],
  called: ToolCallInput[],
  options: AxionToolCorrectnessOptions = {},
) {
  return scoreAxionToolCorrectness(
    {
      expected: toToolCalls(expected, { field: "expectedTools" }),
      called: toToolCalls(called, { field: "toolsCalled" }),
    },
    resolveAxionToolCorrectnessOptions(options),
  );
}

const names = (...list: string[]) => list.map((name) => ({ name, args: {} }));

describe("scoreAxionToolCorrectness (the seed's scenarios)", () => {
  it("matches names only by default", () => {
    const result = score(names("search", "format"), [
      { name: "search", args: { query: "weather" } },
      { name: "format", args: { style: "brief" } },
    ]);
    expect(result).toMatchObject({
      score: 1,
      explanation: "Correctly called: ['search', 'format']",
    });
  });

  it("scores a missing tool as recall", () => {
    expect(score(names("fetch", "transform", "store"), names("fetch", "transform"))).toMatchObject({
      score: 2 / 3,
      explanation: "Correctly called: ['fetch', 'transform']; Missing tools: ['store']",
    });
  });

  it("lists wrong tools as missing and unexpected", () => {
    expect(score(names("calculate"), names("search"))).toMatchObject({
      score: 0,
      explanation: "Missing tools: ['calculate']; Unexpected tools: ['search']",
    });
  });

  it("fails exact parameters on any difference, and says which call", () => {
    const result = score(
      [{ name: "search", args: { query: "Python tutorials" } }],
      [{ name: "search", args: { query: "python tutorial" } }],
      {
        checkParameters: true,
      },
    );
    expect(result.score).toBe(0);
    expect(result.explanation).toBe(
      `Missing/incorrect calls: ['search({"query":"Python tutorials"})']; Unexpected tools: ['search']`,
    );
  });

  it("checks strict order position by position", () => {
    const expected = names("fetch", "process", "store");
    expect(
      score(expected, names("fetch", "process", "store"), { strictOrder: true }),
    ).toMatchObject({
      score: 1,
      explanation: "All 3 tools called correctly in order.",
    });
    expect(
      score(expected, names("process", "fetch", "store"), { strictOrder: true }),
    ).toMatchObject({
      score: 0,
      explanation: "Tool mismatch at position 0: expected 'fetch', got 'process'",
    });
    expect(score(expected, names("fetch"), { strictOrder: true }).explanation).toBe(
      "Tool count mismatch: expected 3, got 1",
    );
  });

  it("matches fuzzy parameters by similarity", () => {
    const expected = [{ name: "search", args: { query: "what is ML" } }];
    const options = { checkParameters: true, parameterMatchingStrategy: "fuzzy" } as const;
    expect(
      score(expected, [{ name: "search", args: { query: "what is machine learning" } }], options)
        .score,
    ).toBe(0);
    const close = score(expected, [{ name: "search", args: { query: "what is ML?" } }], options);
    expect(close.score).toBe(1);
    expect(close.details.pairs[0]?.arguments).toEqual([
      {
        path: "$.query",
        verdict: "mismatch",
        expected: "what is ML",
        actual: "what is ML?",
        similarity: 20 / 21,
      },
    ]);
  });

  it("picks precision or F1 when asked", () => {
    expect(score(names("a"), names("a", "b"), { scoring: "precision" }).score).toBe(0.5);
    expect(score(names("a"), names("a", "b"), { scoring: "f1" }).score).toBe((2 * 0.5 * 1) / 1.5);
    expect(score(names("a"), [], { scoring: "precision" }).score).toBe(0);
  });

  it("handles empty expected lists", () => {
    expect(score([], [])).toMatchObject({
      score: 1,
      explanation: "Correct: No tools were expected and none were called.",
    });
    expect(score([], names("a", "b"), { strictOrder: true })).toMatchObject({
      score: 0,
      explanation: "Incorrect: No tools were expected, but 2 were called.",
    });
  });
});

describe("resolveAxionToolCorrectnessOptions", () => {
  it.each([
    [{ parameterMatchingStrategy: "semantic" }, "parameterMatchingStrategy"],
    [{ parameterMatchingStrategy: "" }, "parameterMatchingStrategy"],
    [{ scoring: "accuracy" }, "scoring"],
    [{ fuzzyThreshold: Number.NaN }, "fuzzyThreshold"],
    [{ checkParameters: "yes" }, "checkParameters"],
  ])("refuses %o", (options, option) => {
    expect(() => resolveAxionToolCorrectnessOptions(options as never)).toThrow(
      expect.objectContaining({ option, code: "INVALID_OPTION" }) as InvalidOptionError,
    );
  });
});
