import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../core/json.js";
import { toToolCalls } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import {
  explainDeepevalToolCorrectness,
  resolveDeepevalToolCorrectnessOptions,
  scoreDeepevalToolCorrectness,
} from "./deepeval-tool-correctness.js";
import type { DeepevalToolCorrectnessOptions } from "./deepeval-tool-correctness.js";
import { QUICK_SCORE_MAX_PAIRS } from "./deepeval-quick-score.js";

const value: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom<JsonValue>(1, 2, "a", "b", true, null, [1], [1, 2]),
  fc.dictionary(fc.constantFrom("u", "v"), fc.constantFrom<JsonValue>(1, "a", null), {
    maxKeys: 2,
  }),
);
const params: fc.Arbitrary<JsonObject> = fc.dictionary(fc.constantFrom("x", "y", "z"), value, {
  maxKeys: 3,
});
const call: fc.Arbitrary<ToolCall> = fc
  .record({
    name: fc.constantFrom("a", "b", "c"),
    inputParameters: params,
    output: fc.constantFrom<JsonValue>(null, "ok", { n: 1 }),
    type: fc.constantFrom<"FUNCTION" | "MCP">("FUNCTION", "FUNCTION", "MCP"),
  })
  .map((raw) => toToolCalls([raw], { field: "call" })[0]);
// Expected calls are often reused on the called side (the same objects), as agents repeat them.
const pair = fc
  .tuple(
    fc.array(call, { maxLength: 6 }),
    fc.array(call, { maxLength: 4 }),
    fc.array(fc.nat(), { maxLength: 6 }),
  )
  .map(([expected, extra, picks]) => ({
    expected,
    called: [
      ...(expected.length === 0 ? [] : picks.map((pick) => expected[pick % expected.length])),
      ...extra,
    ],
  }));

const optionSets: DeepevalToolCorrectnessOptions[] = [];
for (const evaluationParams of [
  [],
  ["inputParameters"],
  ["output"],
  ["inputParameters", "output"],
] as const) {
  for (const mode of [{}, { shouldConsiderOrdering: true }, { shouldExactMatch: true }]) {
    optionSets.push({ evaluationParams, ...mode });
  }
}

const passing = ["all-called", "correct-ordering", "exact-match"];

describe("the quick deepeval score", () => {
  it("agrees to the bit with the full computation, and explains itself the same way", () => {
    const resolved = optionSets.map((options) => resolveDeepevalToolCorrectnessOptions(options));
    fc.assert(
      fc.property(pair, (input) => {
        for (const options of resolved) {
          const quick = scoreDeepevalToolCorrectness(input, options);
          const full = explainDeepevalToolCorrectness(input, options);
          expect(Object.is(quick.score, full.score)).toBe(true);
          expect(passing.includes(quick.reasonKind)).toBe(full.score === 1);
          expect(quick.details).toEqual(full.details);
          expect(quick.reason).toBe(full.reason);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("works out details and reason only when read, then keeps them", () => {
    const [expected, called] = [
      toToolCalls([{ name: "a", inputParameters: { x: 1, y: 1 } }], { field: "expected" }),
      toToolCalls([{ name: "a", inputParameters: { x: 2, y: 1 } }], { field: "called" }),
    ];
    const options = resolveDeepevalToolCorrectnessOptions({
      evaluationParams: ["inputParameters"],
    });
    const result = scoreDeepevalToolCorrectness({ expected, called }, options);
    expect(result.score).toBe(0.5);
    expect(result.details).toBe(result.details);
    expect(result.details.mismatches).toContainEqual(
      expect.objectContaining({ kind: "args-mismatch", path: "$.x" }),
    );
    expect(result.reason).toBe(result.reason);
    expect(JSON.parse(JSON.stringify(result))).toEqual({
      mode: "default",
      score: 0.5,
      reasonKind: "incomplete",
      reason: result.reason,
      details: JSON.parse(JSON.stringify(result.details)) as unknown,
    });
    const quiet = scoreDeepevalToolCorrectness(
      { expected, called },
      resolveDeepevalToolCorrectnessOptions({ includeReason: false }),
    );
    expect(quiet.reason).toBeUndefined();
    expect(JSON.parse(JSON.stringify(quiet))).not.toHaveProperty("reason");
  });

  it("leaves large cases and small limits to the full computation, with the same results", () => {
    const many = toToolCalls(
      Array.from({ length: QUICK_SCORE_MAX_PAIRS + 1 }, (_, i) => ({ name: `t${i % 5}` })),
      { field: "calls" },
    );
    const one = many.slice(0, 1);
    const options = resolveDeepevalToolCorrectnessOptions({ shouldConsiderOrdering: true });
    const large = scoreDeepevalToolCorrectness({ expected: one, called: many }, options);
    expect(large.score).toBe(1);
    expect(large.details.unexpected).toHaveLength(QUICK_SCORE_MAX_PAIRS);
    // A budget smaller than the case: the full computation enforces it.
    expect(() =>
      scoreDeepevalToolCorrectness(
        { expected: many.slice(0, 4), called: many.slice(0, 4) },
        resolveDeepevalToolCorrectnessOptions({
          shouldConsiderOrdering: true,
          limits: { maxPairEvaluations: 2 },
        }),
      ),
    ).toThrow(expect.objectContaining({ code: "LIMIT_EXCEEDED" }));
  });

  it("scores exact matches of any length position by position, as the full computation does", () => {
    const calls = (length: number, changedAt = -1) =>
      toToolCalls(
        Array.from({ length }, (_, i) => ({
          name: `t${i % 7}`,
          inputParameters: { i: i === changedAt ? -1 : i },
        })),
        { field: "calls" },
      );
    const budgets = [undefined, 1_000, 999];
    let refusals = 0;
    const inputs = [
      { expected: calls(1_000), called: calls(1_000) },
      { expected: calls(1_000), called: calls(1_000, 600) },
      { expected: calls(1_000), called: calls(900) },
      { expected: calls(0), called: calls(900) },
    ];
    for (const maxPairEvaluations of budgets) {
      const options = resolveDeepevalToolCorrectnessOptions({
        shouldExactMatch: true,
        evaluationParams: ["inputParameters"],
        ...(maxPairEvaluations === undefined ? {} : { limits: { maxPairEvaluations } }),
      });
      for (const input of inputs) {
        const full = ((): ReturnType<typeof explainDeepevalToolCorrectness> | Error => {
          try {
            return explainDeepevalToolCorrectness(input, options);
          } catch (error) {
            return error as Error;
          }
        })();
        if (full instanceof Error) {
          // Over the budget: both refuse the case the same way.
          expect(() => scoreDeepevalToolCorrectness(input, options)).toThrow(full.message);
          refusals++;
          continue;
        }
        const quick = scoreDeepevalToolCorrectness(input, options);
        expect(quick.score).toBe(full.score);
        expect(quick.details).toEqual(full.details);
      }
    }
    // Both kinds of outcome were seen: refused over the budget, scored within it.
    expect(refusals).toBe(2);
  });

  it("leaves optimal pairing to the assignment algorithm", () => {
    const expected = toToolCalls(
      [
        { name: "a", inputParameters: { x: 1, y: 1 } },
        { name: "a", inputParameters: { x: 1, y: 2 } },
      ],
      { field: "expected" },
    );
    const called = toToolCalls(
      [
        { name: "a", inputParameters: { x: 1, y: 2 } },
        { name: "a", inputParameters: { x: 9, y: 1 } },
      ],
      { field: "called" },
    );
    const score = (matching: "greedy" | "optimal") =>
      scoreDeepevalToolCorrectness(
        { expected, called },
        resolveDeepevalToolCorrectnessOptions({ evaluationParams: ["inputParameters"], matching }),
      ).score;
    // Greedy gives the first expected call the first of its equally good partners (0.5),
    // leaving the second nothing in common (0); optimal pairs 0.5 + 1.
    expect(score("greedy")).toBe(0.25);
    expect(score("optimal")).toBe(0.75);
  });
});
