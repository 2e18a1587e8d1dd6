import { describe, expect, it } from "vitest";
import { ToolCorrectness } from "../src/compat/axion/index.js";
import { ToolCorrectnessMetric, ToolCallParams } from "../src/compat/deepeval/index.js";
import type { ToolCorrectnessMetricOptions } from "../src/compat/deepeval/index.js";
import { InvalidInputError, LimitExceededError, ToolscoreError } from "../src/entries/index.js";

/** Runs both compatible metrics on one pair of lists, returning each outcome. */
async function outcomes(toolsCalled: unknown, expectedTools: unknown): Promise<unknown[]> {
  const settle = (promise: Promise<unknown>) =>
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  return Promise.all([
    settle(
      new ToolCorrectnessMetric({ evaluationParams: [ToolCallParams.INPUT_PARAMETERS] }).measure({
        input: "q",
        toolsCalled,
        expectedTools,
      } as never),
    ),
    settle(
      new ToolCorrectness({ checkParameters: true }).execute({
        toolsCalled,
        expectedTools,
      } as never),
    ),
  ]);
}

function expectTypedError(outcome: unknown, code: string, field: string, text: RegExp): void {
  const { error } = outcome as { error?: unknown };
  expect(ToolscoreError.isInstance(error), String(error)).toBe(true);
  const typed = error as ToolscoreError & { field?: string };
  expect(typed.code).toBe(code);
  expect(typed.field).toBe(field);
  expect(typed.message).toMatch(text);
}

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe("bad input gets a typed error that names the field", () => {
  it("a tool call without a string name", async () => {
    for (const outcome of await outcomes([{ name: "ok" }, { inputParameters: {} }], [])) {
      expectTypedError(outcome, "INVALID_INPUT", "toolsCalled[1].name", /must be a string/);
    }
    for (const outcome of await outcomes([], [{ name: null }])) {
      expectTypedError(outcome, "INVALID_INPUT", "expectedTools[0].name", /got null/);
    }
  });

  it("parameters that are not an object", async () => {
    for (const outcome of await outcomes([{ name: "s", inputParameters: ["q"] }], [])) {
      expectTypedError(
        outcome,
        "INVALID_INPUT",
        "toolsCalled[0].inputParameters",
        /object of named arguments/,
      );
    }
    for (const outcome of await outcomes([], [{ name: "s", args: "q=1" }])) {
      expectTypedError(outcome, "INVALID_INPUT", "expectedTools[0].args", /got string/);
    }
  });

  it("a list that is not an array", async () => {
    for (const outcome of await outcomes({ name: "s" }, [])) {
      expectTypedError(outcome, "INVALID_INPUT", "toolsCalled", /must be an array of tool calls/);
    }
    for (const outcome of await outcomes([], "search")) {
      expectTypedError(outcome, "INVALID_INPUT", "expectedTools", /got string/);
    }
  });

  it("a cyclic object", async () => {
    const args: Record<string, unknown> = { q: "x" };
    args.self = args;
    for (const outcome of await outcomes([{ name: "s", inputParameters: args }], [{ name: "s" }])) {
      expectTypedError(
        outcome,
        "INVALID_INPUT",
        "toolsCalled[0].inputParameters.self",
        /circular reference/,
      );
    }
    const output: unknown[] = [];
    output.push(output);
    const [deepeval] = await outcomes([], [{ name: "s", output }]);
    expectTypedError(deepeval, "INVALID_INPUT", "expectedTools[0].output[0]", /circular reference/);
  });

  it("arguments nested 100,000 levels deep", async () => {
    for (const outcome of await outcomes(
      [{ name: "s", inputParameters: nested(100_000) }],
      [{ name: "s" }],
    )) {
      expectTypedError(
        outcome,
        "LIMIT_EXCEEDED",
        "toolsCalled[0].inputParameters",
        /nested more than 1000 levels/,
      );
      expect(LimitExceededError.isInstance((outcome as { error: unknown }).error)).toBe(true);
    }
  });

  it("arguments nested just under the limit still score", async () => {
    const deep = nested(990);
    for (const outcome of await outcomes(
      [{ name: "s", inputParameters: deep }],
      [{ name: "s", inputParameters: deep }],
    )) {
      const { value } = outcome as { value: number | { score: number } };
      expect(typeof value === "number" ? value : value.score).toBe(1);
    }
  });

  it("values JSON cannot carry", async () => {
    for (const outcome of await outcomes([{ name: "s", inputParameters: { n: Number.NaN } }], [])) {
      expectTypedError(outcome, "INVALID_INPUT", "toolsCalled[0].inputParameters.n", /NaN/);
    }
    for (const outcome of await outcomes([{ name: "s", inputParameters: { f: () => 1 } }], [])) {
      expectTypedError(outcome, "INVALID_INPUT", "toolsCalled[0].inputParameters.f", /function/);
    }
    expect(
      InvalidInputError.isInstance(
        ((await outcomes([{ name: "s", type: "fn" }], []))[0] as { error: unknown }).error,
      ),
    ).toBe(true);
  });
});

describe("10,000 calls on each side", () => {
  const n = 10_000;
  // 50 tools; every call distinct; the agent skipped every tenth expected call.
  const expected = Array.from({ length: n }, (_, i) => ({
    name: `tool${i % 50}`,
    inputParameters: { q: i, filters: { page: i % 3 } },
  }));
  const called = expected.filter((_, i) => i % 10 !== 0);
  const evaluationParams = [ToolCallParams.INPUT_PARAMETERS];

  it.each<[string, ToolCorrectnessMetricOptions, number, number]>([
    ["unordered, greedy", {}, 0.9, 9000],
    ["unordered, optimal", { matching: "optimal" }, 0.9, 9000],
    ["ordered", { shouldConsiderOrdering: true }, 0.9, 9000],
    // Exact mode pairs equal positions that hold the same tool.
    [
      "exact",
      { shouldExactMatch: true },
      0,
      called.filter((c, i) => c.name === expected[i].name).length,
    ],
  ])("deepeval %s scores correctly", async (_, options, score, pairs) => {
    const metric = new ToolCorrectnessMetric({ evaluationParams, ...options });
    expect(await metric.measure({ input: "q", toolsCalled: called, expectedTools: expected })).toBe(
      score,
    );
    expect(metric.details?.pairs).toHaveLength(pairs);
  });

  it.each([
    [{ checkParameters: true }, 0.9],
    [{ checkParameters: true, parameterMatchingStrategy: "fuzzy" as const }, 0.9],
    [{ checkParameters: true, scoring: "precision" as const }, 1],
    [{ strictOrder: true }, 0],
  ])("axion %o scores correctly", async (options, score) => {
    const result = await new ToolCorrectness(options).execute({
      toolsCalled: called,
      expectedTools: expected,
    });
    expect(result.score).toBe(score);
  });

  it("identical calls of one tool pair in one step in every mode", async () => {
    const same = Array.from({ length: n }, () => ({
      name: "search",
      inputParameters: { q: "weather" },
    }));
    for (const options of [
      {},
      { matching: "optimal" as const },
      { shouldConsiderOrdering: true },
      { shouldExactMatch: true },
    ]) {
      const metric = new ToolCorrectnessMetric({ evaluationParams, ...options });
      expect(await metric.measure({ input: "q", toolsCalled: same, expectedTools: same })).toBe(1);
    }
  });

  it("pairs different calls of one tool optimally when each was made as expected", async () => {
    const distinct = Array.from({ length: n }, (_, i) => ({
      name: "search",
      inputParameters: { q: i },
    }));
    const metric = new ToolCorrectnessMetric({ evaluationParams, matching: "optimal" });
    expect(
      await metric.measure({
        input: "q",
        toolsCalled: [...distinct].reverse(),
        expectedTools: distinct,
      }),
    ).toBe(1);
  });

  it("refuses, with a typed error, what no pairing could finish in time", async () => {
    // Every call differs from every expected one: each is a search against all the others.
    const expected = Array.from({ length: n }, (_, i) => ({
      name: "search",
      inputParameters: { q: i, page: 1 },
    }));
    const made = expected.map((call) => ({
      ...call,
      inputParameters: { ...call.inputParameters, page: 2 },
    }));
    for (const options of [{ matching: "optimal" as const }, { shouldConsiderOrdering: true }]) {
      const measured = new ToolCorrectnessMetric({ evaluationParams, ...options }).measure({
        input: "q",
        toolsCalled: made.reverse(),
        expectedTools: expected,
      });
      await expect(measured).rejects.toSatisfy(
        (error) =>
          LimitExceededError.isInstance(error) && /search|pair comparisons/.test(error.message),
      );
    }
  });
});
