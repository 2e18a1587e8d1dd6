import { describe, expect, it } from "vitest";
import { toToolCalls } from "../core/tool-call.js";
import {
  resolveRagasToolCallAccuracyOptions,
  scoreRagasToolCallAccuracy,
  scoreRagasToolCallF1,
} from "./ragas-tool-call.js";

const calls = (...items: [string, Record<string, unknown>?][]) =>
  toToolCalls(
    items.map(([name, args]) => ({ name, arguments: args ?? {} })),
    { field: "calls" },
  );
const strict = resolveRagasToolCallAccuracyOptions();
const flexible = resolveRagasToolCallAccuracyOptions({ strictOrder: false });

describe("ragas' ToolCallAccuracy", () => {
  it('compares arguments as Python\'s str(): 10 equals "10", and says so', () => {
    const result = scoreRagasToolCallAccuracy(
      {
        expected: calls(["search", { limit: 10, q: "x" }]),
        called: calls(["search", { limit: "10", q: "y" }]),
      },
      strict,
    );
    expect(result.score).toBe(0.5);
    expect(result.details.pairs[0].arguments).toEqual([
      {
        path: "$.limit",
        verdict: "match",
        expected: 10,
        actual: "10",
        note: 'equal as Python\'s str(): "10"',
      },
      { path: "$.q", verdict: "mismatch", expected: "x", actual: "y" },
    ]);
    expect(result.reason).toBe(
      'called[0] search: $.q is "y", expected "x" (score 0.5). The names match the expected ones in strict order; the arguments score 0.5.',
    );
  });

  it("gates on the name sequence: out of order scores 0 in strict order, 1 in any order", () => {
    const input = {
      expected: calls(["weather", { city: "Paris" }], ["uv", { city: "Paris" }]),
      called: calls(["uv", { city: "Paris" }], ["weather", { city: "Paris" }]),
    };
    const inOrder = scoreRagasToolCallAccuracy(input, strict);
    expect(inOrder.score).toBe(0);
    expect(inOrder.reason).toBe(
      'The names called ["uv", "weather"] are not the expected ["weather", "uv"] in strict order (score 0).',
    );
    const anyOrder = scoreRagasToolCallAccuracy(input, flexible);
    expect(anyOrder.score).toBe(1);
    // Pairs point at the calls as given, whatever the sort did.
    expect(anyOrder.details.pairs.map((p) => [p.expectedIndex, p.calledIndex])).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it("sorts calls of one tool by their arguments' text, as ragas does, so arguments decide pairs", () => {
    const result = scoreRagasToolCallAccuracy(
      {
        expected: calls(["get", { id: "b" }], ["get", { id: "a" }]),
        called: calls(["get", { id: "a" }], ["get", { id: "b" }]),
      },
      flexible,
    );
    expect(result.score).toBe(1);
  });

  it("scores a call without expected arguments 0 when it passes some, and empty lists as ragas", () => {
    expect(
      scoreRagasToolCallAccuracy(
        { expected: calls(["ping"]), called: calls(["ping", { x: 1 }]) },
        strict,
      ).score,
    ).toBe(0);
    expect(scoreRagasToolCallAccuracy({ expected: [], called: [] }, strict).score).toBe(1);
    const none = scoreRagasToolCallAccuracy({ expected: calls(["ping"]), called: [] }, strict);
    expect(none).toMatchObject({
      score: 0,
      reason: 'No calls were made; 1 expected ["ping"] (score 0).',
    });
  });
});

describe("ragas' ToolCallF1", () => {
  it("counts a repeated call once, as a set holds it", () => {
    const result = scoreRagasToolCallF1({
      expected: calls(["a", { x: 1 }]),
      called: calls(["a", { x: 1 }], ["a", { x: 1 }]),
    });
    expect(result.score).toBe(1);
    expect(result.details.unexpected).toEqual([{ calledIndex: 1, name: "a", allowed: true }]);
    expect(result.reason).toContain("1 repeated call counted once");
  });

  it("rounds F1 to 4 digits and compares nested arguments (where ragas cannot hash them)", () => {
    const result = scoreRagasToolCallF1({
      expected: calls(["a", { ids: [1, 2] }], ["b"], ["c"]),
      called: calls(["a", { ids: [1, 2] }], ["d"]),
    });
    // precision 1/2, recall 1/3: F1 0.4.
    expect(result.score).toBe(0.4);
    const third = scoreRagasToolCallF1({ expected: calls(["a"], ["b"]), called: calls(["a"]) });
    expect(third.score).toBe(0.6667);
    expect(third.reason).toBe(
      "expected[1] b not made. 1 of 2 distinct expected calls made, 0 not expected (F1 0.6667).",
    );
  });

  it("scores nothing expected and nothing made 1, where ragas divides 0 by 0 into 0", () => {
    expect(scoreRagasToolCallF1({ expected: [], called: [] }).score).toBe(1);
  });

  it("compares JSON values: true is not 1 (Python's == says it is)", () => {
    expect(
      scoreRagasToolCallF1({
        expected: calls(["a", { on: true }]),
        called: calls(["a", { on: 1 }]),
      }).score,
    ).toBe(0);
  });
});
