import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { match } from "../matchers/value-matchers.js";
import { matchToolCalls, scoreToolCalls } from "./match-tool-calls.js";
import type { MatchOptions } from "./match-options.js";
import { smallCaseTotal } from "./small-case-total.js";

/** The numbers `scoreToolCalls` gives, taken from `matchToolCalls` (the general way). */
function generalNumbers(actual: unknown, expected: unknown, options: MatchOptions) {
  const r = matchToolCalls(actual, expected as never, options);
  return {
    algorithm: r.algorithm,
    precision: r.precision,
    recall: r.recall,
    f1: r.f1,
    score: r.score,
    scoreKind: r.scoreKind,
    exact: r.exact,
    success: r.success,
    threshold: r.threshold,
    order: r.order,
  };
}

function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    return { error: String(error) };
  }
}

// Few tools and few argument values: equal calls, partial matches and tied assignments are common.
const names = fc.constantFrom("search", "book", "weather");
const args = fc.oneof(
  fc.record(
    { city: fc.constantFrom("Oslo", "Lyon"), days: fc.integer({ min: 0, max: 2 }) },
    { requiredKeys: [] },
  ),
  fc.constant({ city: "Oslo", days: 1, extra: true }),
  fc.constant({ filters: { city: "Oslo", tags: ["a", "b"] } }),
  fc.constant({ filters: { city: "Lyon", tags: ["b"] } }),
);
const call = fc.record({
  name: names,
  inputParameters: args,
  output: fc.constantFrom<unknown>("ok", null, 3, { rows: 2 }),
  isError: fc.boolean(),
});
const expectedCall = fc.oneof(
  { weight: 6, arbitrary: call.map(({ name, inputParameters }) => ({ name, inputParameters })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      { name: "search", arguments: { city: match.regex(/^O/) } },
      { name: "search", inputParameters: { city: { $match: "oneOf", values: ["Oslo", "Lyon"] } } },
      { name: "book", output: "ok", inputParameters: {} },
      { name: "book", args: { city: "Oslo" }, arguments: { city: "Oslo" } },
      { id: "x", name: "book", after: ["y"] },
      { inputParameters: {} },
    ),
  },
);
const options = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        order: fc.constantFrom(
          "any",
          "strict",
          "only-expected",
          "all-expected",
          "subset",
          "superset",
          "in-order",
        ),
        score: fc.constantFrom("f1", "precision", "recall", "exact"),
        threshold: fc.constantFrom(0, 0.5, 1),
        arguments: fc.constantFrom<MatchOptions["arguments"]>("exact", "subset", { fuzzy: 0.5 }),
      },
      { requiredKeys: [] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<MatchOptions>(
      { toolErrors: "fail" },
      { toolErrors: "retry" },
      { output: "exact" },
      { constraints: { maxTotalCalls: 2 } },
      { toolRules: { search: { arguments: "subset" } } },
      { normalizeName: (name) => name.toUpperCase() },
      { limits: { maxPairEvaluations: 3 } },
      { tools: [{ name: "search", parameters: { type: "object" } }] },
    ),
  },
);
describe("scoreToolCalls on small cases", () => {
  it("gives the general way's numbers, whatever the options and inputs", () => {
    fc.assert(
      fc.property(
        fc.array(call, { maxLength: 7 }),
        fc.array(expectedCall, { maxLength: 7 }),
        options,
        (calls, expected, given) => {
          const actual = calls.map((c) => ({ ...c, type: "FUNCTION" as const }));
          const plainExpected = expected.every(
            (e) => typeof e === "object" && e !== null && "inputParameters" in e && "name" in e,
          );
          const reference = plainExpected
            ? expected.map((e) => ({ ...(e as object), output: "ok", type: "FUNCTION" as const }))
            : expected;
          expect(outcome(() => scoreToolCalls(actual, reference as never, given))).toEqual(
            outcome(() => generalNumbers(actual, reference, given)),
          );
        },
      ),
      { numRuns: 6000, seed: 20261122 },
    );
  });

  it("gives the general way's numbers when the calls follow a parsed reference", () => {
    // The calls made are the reference's, place by place, then sometimes one changed, moved,
    // dropped or added: perfect at every place, perfect up to a point, or not at all.
    const plainCall = call.map(({ name, inputParameters }) => ({ name, inputParameters }));
    fc.assert(
      fc.property(
        fc.array(plainCall, { maxLength: 7 }),
        fc.constantFrom("same", "changed", "moved", "dropped", "added"),
        fc.nat(),
        fc.constantFrom<MatchOptions>(
          { order: "any" },
          { order: "only-expected" },
          { order: "all-expected" },
          { order: "strict" },
          { order: "any", arguments: "subset" },
          { order: "all-expected", limits: { maxPairEvaluations: 4 } },
          { order: "any", limits: { maxAssignmentWork: 50 } },
        ),
        (wanted, edit, at, given) => {
          const reference = wanted.map((c) => ({ ...c, output: "ok", type: "FUNCTION" as const }));
          let made: { name: string; inputParameters: object }[] = reference.map((c) => ({ ...c }));
          const place = made.length === 0 ? 0 : at % made.length;
          if (edit === "changed" && made.length > 0) {
            made[place] = { ...made[place], inputParameters: { extra: true } };
          }
          if (edit === "moved" && made.length > 1) made = [...made.slice(1), made[0]];
          if (edit === "dropped") made.splice(place, 1);
          if (edit === "added") made.push({ ...made[place] });
          const actual = made;
          expect(outcome(() => scoreToolCalls(actual, reference, given))).toEqual(
            outcome(() => generalNumbers(actual, reference, given)),
          );
        },
      ),
      { numRuns: 3000, seed: 7 },
    );
  });

  it("counts the best assignment's total, not the first one found", () => {
    // Row 0 fits both columns; row 1 only the first. The best total pairs 0-1 and 1-0.
    const weights = [
      [1, 1],
      [1, 0],
    ];
    const total = smallCaseTotal({
      expected: [{ name: "a" }, { name: "a" }],
      called: [{ name: "a" }, { name: "a" }],
      order: "any",
      score: (row, col) => weights[row][col],
      maxPairEvaluations: 100,
      maxAssignmentWork: 1e6,
    });
    expect(total).toBe(2);
    const three = [
      [0.5, 1, 0],
      [1, 0, 0],
      [0, 0.25, 1],
    ];
    expect(
      smallCaseTotal({
        expected: [{ name: "a" }, { name: "a" }, { name: "a" }],
        called: [{ name: "a" }, { name: "a" }, { name: "a" }, { name: "b" }],
        order: "any",
        score: (row, col) => three[row][col],
        maxPairEvaluations: 100,
        maxAssignmentWork: 1e6,
      }),
    ).toBe(3);
  });

  it("leaves large groups and exceeded limits to the general way", () => {
    const five = Array.from({ length: 5 }, () => ({ name: "a" }));
    const base = { score: () => 1, maxPairEvaluations: 100, maxAssignmentWork: 1e6 };
    expect(smallCaseTotal({ ...base, expected: five, called: five, order: "any" })).toBeUndefined();
    expect(smallCaseTotal({ ...base, expected: five, called: five, order: "strict" })).toBe(5);
    expect(
      smallCaseTotal({
        ...base,
        expected: five.slice(0, 2),
        called: five.slice(0, 2),
        order: "any",
        maxPairEvaluations: 3,
      }),
    ).toBeUndefined();
    // A limit the general way enforces is reported by it, with its error.
    expect(() =>
      scoreToolCalls(five.slice(0, 2), five.slice(0, 2), { limits: { maxPairEvaluations: 3 } }),
    ).toThrow(/maxPairEvaluations/);
  });
});
