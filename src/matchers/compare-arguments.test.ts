import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ArgumentVerdict } from "../core/explanation.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import { compareArguments } from "./compare-arguments.js";
import type { ArgumentMode, ArgumentRule, CompiledRules } from "./compare-arguments.js";
import { compilePathPattern } from "./path-rules.js";
import { match } from "./value-matchers.js";
import type { ExpectedValue } from "./value-matchers.js";

function rules(mode: ArgumentMode, paths: Record<string, ArgumentRule> = {}): CompiledRules {
  return {
    mode,
    paths: Object.entries(paths).map(([source, rule]) => ({
      pattern: compilePathPattern(source),
      rule,
    })),
  };
}

function explain(
  expected: ExpectedValue,
  actual: JsonValue,
  compiled: CompiledRules,
  schema?: JsonObject,
): { score: number; verdicts: ArgumentVerdict[] } {
  const verdicts: ArgumentVerdict[] = [];
  const score = compareArguments(expected, actual, { rules: compiled, schema, verdicts });
  // Explaining never changes the number.
  expect(compareArguments(expected, actual, { rules: compiled, schema })).toBe(score);
  return { score, verdicts };
}

describe("compareArguments: modes", () => {
  const expected = { city: "Paris", unit: "c" };
  const table: [ArgumentMode, JsonObject, number][] = [
    ["exact", { city: "Paris", unit: "c" }, 1],
    ["exact", { unit: "c", city: "Paris" }, 1],
    ["exact", { city: "Paris", unit: "f" }, 0.5],
    ["exact", { city: "Paris" }, 0.5],
    ["exact", { city: "Paris", unit: "c", days: 3 }, 2 / 3],
    ["subset", { city: "Paris", unit: "c", days: 3 }, 1],
    ["subset", { city: "Paris" }, 0.5],
    ["superset", { city: "Paris" }, 1],
    ["superset", { city: "Paris", days: 3 }, 0.5],
    ["ignore", { anything: true }, 1],
    [{ fuzzy: 0.8 }, { city: "Paris", unit: "c", days: 3 }, 1],
    [{ fuzzy: 0.8 }, { city: "Pariss", unit: "c" }, 1],
    [{ fuzzy: 0.95 }, { city: "Pariss", unit: "c" }, 0.5],
  ];
  for (const [mode, actual, score] of table) {
    it(`${JSON.stringify(mode)}: ${JSON.stringify(actual)} scores ${score.toFixed(3)}`, () => {
      expect(explain(expected, actual, rules(mode)).score).toBeCloseTo(score, 12);
    });
  }

  it("locates every verdict by JSON path", () => {
    const { verdicts } = explain(
      { city: "Paris", filters: { from: "2025-01-01", "to date": "2025-01-09" } },
      { city: "Paris", filters: { from: "2025-01-02" }, limit: 5 },
      rules("exact"),
    );
    expect(verdicts).toEqual([
      { path: "$.city", verdict: "match", expected: "Paris", actual: "Paris" },
      { path: "$.filters.from", verdict: "mismatch", expected: "2025-01-01", actual: "2025-01-02" },
      { path: '$.filters["to date"]', verdict: "missing", expected: "2025-01-09" },
      { path: "$.limit", verdict: "unexpected", actual: 5 },
    ]);
  });

  it("gives nested objects partial credit, key by key", () => {
    const { score } = explain(
      { filters: { a: 1, b: 2 }, q: "x" },
      { filters: { a: 1, b: 3 }, q: "x" },
      rules("exact"),
    );
    expect(score).toBe(0.75);
  });

  it("compares arrays by position, or by membership in subset and superset modes", () => {
    expect(explain({ tags: ["a", "b"] }, { tags: ["b", "a"] }, rules("exact")).score).toBe(0);
    expect(explain({ tags: ["a", "b"] }, { tags: ["b", "a", "c"] }, rules("subset")).score).toBe(1);
    expect(explain({ tags: ["a", "b"] }, { tags: ["a"] }, rules("subset")).score).toBe(0.5);
    expect(explain({ tags: ["a", "b"] }, { tags: ["b"] }, rules("superset")).score).toBe(1);
    expect(explain({ tags: [] }, { tags: [] }, rules("exact")).score).toBe(1);
  });

  it("scores empty argument objects 1 against each other", () => {
    expect(explain({}, {}, rules("exact")).score).toBe(1);
  });

  it("treats 1 and 1.0 as equal and true as different from 1", () => {
    expect(explain({ n: 1 }, { n: 1.0 }, rules("exact")).score).toBe(1);
    expect(explain({ n: 1 }, { n: true }, rules("exact")).score).toBe(0);
    expect(explain({ n: null }, { n: 0 }, rules("exact")).score).toBe(0);
  });
});

describe("compareArguments: path rules and matchers", () => {
  it('lets a key\'s own rule decide whether it may be added or left out: "filters.*": "subset"', () => {
    const expected = { q: "flights", filters: { date: "2026-05-03" } };
    const actual = { q: "flights", filters: { date: "2026-05-03", stops: 0 } };
    expect(explain(expected, actual, rules("exact", { "filters.*": "subset" })).score).toBe(1);
    // Without the rule, the added key counts against the call, and elsewhere it still does.
    expect(explain(expected, actual, rules("exact")).score).toBeLessThan(1);
    expect(
      explain(expected, { ...actual, page: 2 }, rules("exact", { "filters.*": "subset" })).score,
    ).toBeLessThan(1);
    // Superset on a path: an expected key there may be left out.
    expect(
      explain(expected, { q: "flights", filters: {} }, rules("exact", { "filters.*": "superset" }))
        .score,
    ).toBe(1);
  });

  it("ignores volatile ids and timestamps by glob", () => {
    const compiled = rules("exact", { "*_id": "ignore", "**.timestamp": "ignore" });
    const { score, verdicts } = explain(
      { query: "refund", order_id: "o-1", meta: { timestamp: 1, source: "web" } },
      {
        query: "refund",
        order_id: "o-999",
        meta: { timestamp: 2, source: "web" },
        session_id: "s",
      },
      compiled,
    );
    expect(score).toBe(1);
    expect(verdicts.map((v) => v.path)).toEqual(["$.query", "$.meta.source"]);
  });

  it("applies a mode to a subtree", () => {
    const compiled = rules("exact", { "filters.*": "subset", filters: "subset" });
    expect(
      explain(
        { filters: { city: "Paris" }, q: "x" },
        { filters: { city: "Paris", price: 3 }, q: "x" },
        compiled,
      ).score,
    ).toBe(1);
  });

  it("checks a path against a matcher whatever was expected", () => {
    const compiled = rules("exact", { date: match.regex(/^2025-/) });
    const { score, verdicts } = explain({ date: "anything" }, { date: "2025-03-01" }, compiled);
    expect(score).toBe(1);
    expect(verdicts[0]).toMatchObject({
      path: "$.date",
      verdict: "match",
      note: "matched a string matching /^2025-/",
    });
  });

  it("uses matchers inside expected arguments, with a note saying what was expected", () => {
    const expected = {
      city: match.oneOf(["Paris", "Lyon"]),
      days: match.range({ min: 1, max: 7 }),
      budget: match.closeTo(100, { relative: 0.1 }),
      note: match.absent(),
      query: match.contains("hotel"),
    };
    const good = explain(
      expected,
      { city: "Lyon", days: 3, budget: 95, query: "cheap hotel" },
      rules("exact"),
    );
    expect(good.score).toBe(1);
    const bad = explain(
      expected,
      { city: "Nice", days: 3, budget: 95, query: "hotel", note: "x" },
      rules("exact"),
    );
    expect(bad.score).toBe(0.6);
    expect(bad.verdicts.filter((v) => v.verdict !== "match")).toEqual([
      {
        path: "$.city",
        verdict: "mismatch",
        expected: { $match: "oneOf", values: ["Paris", "Lyon"] },
        actual: "Nice",
        note: 'expected one of "Paris", "Lyon"',
      },
      {
        path: "$.note",
        verdict: "mismatch",
        expected: { $match: "absent" },
        actual: "x",
        note: "expected absent",
      },
    ]);
  });

  it("reports a missing argument that a matcher needed as missing", () => {
    const { score, verdicts } = explain({ id: match.anyString() }, {}, rules("exact"));
    expect(score).toBe(0);
    expect(verdicts[0]).toMatchObject({ path: "$.id", verdict: "missing" });
  });
});

describe("compareArguments: schema-guided", () => {
  const schema: JsonObject = {
    type: "object",
    properties: {
      count: { type: "integer" },
      zip: { type: "string" },
      unit: { type: "string", enum: ["celsius", "fahrenheit"], default: "celsius" },
      verbose: { type: "boolean" },
      when: { type: "string", format: "date-time" },
      limit: { type: "number", default: 10 },
      nested: { $ref: "#/$defs/nested" },
    },
    required: ["count", "zip"],
    $defs: { nested: { type: "object", properties: { n: { type: "number" } } } },
  };

  const cases: [string, ExpectedValue, JsonObject, number][] = [
    ["a number sent as a string", { count: 5 }, { count: "5" }, 1],
    ["a number sent as a padded string", { count: 5 }, { count: " 5 " }, 1],
    ["a string of digits where the schema says string", { zip: "020" }, { zip: 20 }, 0],
    ["a string of digits compared as text", { zip: "020" }, { zip: "020" }, 1],
    ["a boolean sent as a string", { verbose: true }, { verbose: "true" }, 1],
    ["an enum value in another case", { unit: "celsius" }, { unit: "CELSIUS" }, 1],
    [
      "a date-time in another offset",
      { when: "2025-05-01T10:00:00+02:00" },
      { when: "2025-05-01T08:00:00Z" },
      1,
    ],
    [
      "a different instant",
      { when: "2025-05-01T10:00:00+02:00" },
      { when: "2025-05-01T10:00:00Z" },
      0,
    ],
    ["an omitted optional argument equal to its default", { unit: "celsius", limit: 10 }, {}, 1],
    ["an explicit default the expectation left out", {}, { unit: "celsius", limit: 10 }, 1],
    ["an omitted optional argument not equal to its default", { limit: 20 }, {}, 0],
    ["a numeric string through a $ref", { nested: { n: 1.5 } }, { nested: { n: "1.5" } }, 1],
    ["a non-numeric string where the schema says number", { count: 5 }, { count: "five" }, 0],
  ];
  for (const [what, expected, actual, score] of cases) {
    it(`${what}: scores ${score}`, () => {
      expect(explain(expected, actual, rules("exact"), schema).score).toBe(score);
    });
  }

  it("says how the schema decided", () => {
    const { verdicts } = explain(
      { count: 5, unit: "celsius" },
      { count: "5" },
      rules("exact"),
      schema,
    );
    expect(verdicts).toEqual([
      {
        path: "$.count",
        verdict: "match",
        expected: 5,
        actual: "5",
        note: '"5" read as a number (schema: integer)',
      },
      {
        path: "$.unit",
        verdict: "match",
        expected: "celsius",
        actual: "celsius",
        note: 'left out on one side; equals the schema default "celsius"',
      },
    ]);
  });

  it("never treats a string as a number without a schema", () => {
    expect(explain({ count: 5 }, { count: "5" }, rules("exact")).score).toBe(0);
  });

  it("does not read local date-times, whose instant depends on the machine's time zone", () => {
    expect(
      explain(
        { when: "2025-05-01T10:00:00" },
        { when: "2025-05-01T10:00:00Z" },
        rules("exact"),
        schema,
      ).score,
    ).toBe(0);
  });
});

describe("compareArguments: JSON against itself", () => {
  const modes = fc.oneof(
    fc.constantFrom<ArgumentMode>("exact", "subset", "superset", "ignore"),
    fc.double({ min: 0, max: 1, noNaN: true }).map((fuzzy): ArgumentMode => ({ fuzzy })),
  );

  // compareArguments takes the same object on both sides as a match without walking it; the walk
  // must agree on a copy, in every mode, with or without explanations.
  it("scores any JSON value 1 against a copy of itself, in every mode", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), modes, (value, mode) => {
        const json = value as JsonValue;
        const copy = structuredClone(json);
        expect(compareArguments(json, copy, { rules: rules(mode) })).toBe(1);
        expect(explain(json, copy, rules(mode)).score).toBe(1);
        expect(compareArguments(json, json, { rules: rules(mode) })).toBe(1);
      }),
      { numRuns: 3000, seed: 5 },
    );
  });

  it("still applies path rules to the same object on both sides", () => {
    const args = { id: "a-1", city: "Oslo" };
    expect(compareArguments(args, args, { rules: rules("exact", { id: match.regex(/^b/) }) })).toBe(
      0.5,
    );
  });
});

describe("compareArguments: keys", () => {
  it("compares own keys only, even when Object.prototype has enumerable keys", () => {
    const cases: [ExpectedValue, JsonValue, number][] = [
      [{ a: 1 }, { a: 1 }, 1],
      [{ a: 1 }, { a: 1, b: 2 }, 0.5],
      [{ a: 1, b: 2 }, { a: 1 }, 0.5],
      [{ a: { c: 1 } }, { a: { c: 1, d: 1 } }, 0.5],
    ];
    const prototype = Object.prototype as Record<string, unknown>;
    const before = cases.map(([e, a]) => compareArguments(e, a, { rules: rules("exact") }));
    prototype.polluted = 1;
    try {
      cases.forEach(([e, a, score], index) => {
        expect(compareArguments(e, a, { rules: rules("exact") })).toBe(score);
        expect(explain(e, a, rules("exact")).score).toBe(score);
        expect(before[index]).toBe(score);
      });
    } finally {
      delete prototype.polluted;
    }
  });
});
