import { createRequire } from "node:module";
import { describe, expect, it, vi } from "vitest";
import { InvalidInputError } from "../core/errors.js";
import type { JsonValue } from "../core/json.js";
import {
  isValueMatcher,
  match,
  textNormalizer,
  toExpectedValue,
  describeMatchers,
} from "./value-matchers.js";
import { MatcherMemo } from "./matcher-memo.js";
import type { ValueMatcher } from "./value-matchers.js";

/** Each matcher in code and in its JSON dataset form, with values it must accept and refuse. */
const table: {
  name: string;
  code: ValueMatcher;
  json: JsonValue;
  accepts: (JsonValue | undefined)[];
  refuses: (JsonValue | undefined)[];
}[] = [
  {
    name: "any",
    code: match.any(),
    json: { $match: "any" },
    accepts: [null, 0, "", [], {}, false],
    refuses: [undefined],
  },
  {
    name: "any string",
    code: match.anyString(),
    json: { $match: "any", type: "string" },
    accepts: ["", "x"],
    refuses: [1, null, undefined, ["x"]],
  },
  {
    name: "any number",
    code: match.anyNumber(),
    json: { $match: "any", type: "number" },
    accepts: [0, -1.5],
    refuses: ["1", null, undefined],
  },
  {
    name: "any array",
    code: match.any("array"),
    json: { $match: "any", type: "array" },
    accepts: [[], [1]],
    refuses: [{}, "[]"],
  },
  {
    name: "regex",
    code: match.regex(/^2025-\d{2}$/),
    json: { $match: "regex", pattern: "^2025-\\d{2}$" },
    accepts: ["2025-01"],
    refuses: ["2024-01", "x2025-01", 202501, undefined],
  },
  {
    name: "regex with flags",
    code: match.regex("^paris$", "i"),
    json: { $match: "regex", pattern: "^paris$", flags: "i" },
    accepts: ["Paris", "PARIS"],
    refuses: ["Paris, France"],
  },
  {
    name: "contains",
    code: match.contains("weather"),
    json: { $match: "contains", value: "weather" },
    accepts: ["the weather in Paris"],
    refuses: ["Weather", 1, undefined],
  },
  {
    name: "contains, any case",
    code: match.contains("weather", { ignoreCase: true }),
    json: { $match: "contains", value: "weather", ignoreCase: true },
    accepts: ["WEATHER today"],
    refuses: ["climate"],
  },
  {
    name: "closeTo, absolute",
    code: match.closeTo(10, { absolute: 0.5 }),
    json: { $match: "closeTo", value: 10, absolute: 0.5 },
    accepts: [10, 9.5, 10.5],
    refuses: [10.6, "10", undefined],
  },
  {
    name: "closeTo, relative",
    code: match.closeTo(200, { relative: 0.01 }),
    json: { $match: "closeTo", value: 200, relative: 0.01 },
    accepts: [198, 202],
    refuses: [197.9, 203],
  },
  {
    name: "oneOf",
    code: match.oneOf(["c", "celsius", { unit: "c" }]),
    json: { $match: "oneOf", values: ["c", "celsius", { unit: "c" }] },
    accepts: ["c", "celsius", { unit: "c" }],
    refuses: ["f", { unit: "f" }, undefined],
  },
  {
    name: "range",
    code: match.range({ min: 1, max: 4 }),
    json: { $match: "range", min: 1, max: 4 },
    accepts: [1, 2.5, 4],
    refuses: [0, 5, "2"],
  },
  {
    name: "range, exclusive",
    code: match.range({ min: 1, max: 4, exclusive: true }),
    json: { $match: "range", min: 1, max: 4, exclusive: true },
    accepts: [2],
    refuses: [1, 4],
  },
  {
    name: "present",
    code: match.present(),
    json: { $match: "present" },
    accepts: [null, "x"],
    refuses: [undefined],
  },
  {
    name: "absent",
    code: match.absent(),
    json: { $match: "absent" },
    accepts: [undefined],
    refuses: [null, 0, ""],
  },
];

describe("value matchers", () => {
  for (const row of table) {
    it(`${row.name}: the code form and the JSON form accept and refuse the same values`, () => {
      const fromJson = toExpectedValue(row.json, { field: "expected" });
      expect(isValueMatcher(fromJson)).toBe(true);
      const parsed = fromJson as ValueMatcher;
      for (const value of row.accepts) {
        expect(row.code.test(value), `code accepts ${JSON.stringify(value)}`).toBe(true);
        expect(parsed.test(value), `JSON accepts ${JSON.stringify(value)}`).toBe(true);
      }
      for (const value of row.refuses) {
        expect(row.code.test(value), `code refuses ${JSON.stringify(value)}`).toBe(false);
        expect(parsed.test(value), `JSON refuses ${JSON.stringify(value)}`).toBe(false);
      }
      // The JSON form round-trips: what a report writes can be read back as the same matcher.
      expect(row.code.toJSON()).toEqual(row.json);
      expect(parsed.describe).toBe(row.code.describe);
    });
  }

  it("keeps no state between tests of a global regex", () => {
    const matcher = match.regex(/a/g);
    expect([matcher.test("a"), matcher.test("a"), matcher.test("a")]).toEqual([true, true, true]);
  });

  it("runs custom predicates, which have no JSON form", () => {
    const even = match.custom((v) => typeof v === "number" && v % 2 === 0, "an even number");
    expect(even.test(4)).toBe(true);
    expect(even.test(3)).toBe(false);
    expect(even.describe).toBe("an even number");
    expect(() => toExpectedValue(even.toJSON(), { field: "x" })).toThrow(/unknown matcher/);
  });

  it("refuses impossible matchers in code with a typed error naming the matcher", () => {
    const refused = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        expect(InvalidInputError.isInstance(error)).toBe(true);
        return (error as InvalidInputError).message;
      }
      throw new Error("the matcher was made");
    };
    expect(refused(() => match.closeTo(1, {}))).toContain("match.closeTo");
    expect(refused(() => match.closeTo(Number.NaN, { absolute: 1 }))).toContain("finite");
    expect(refused(() => match.range({}))).toContain("match.range");
    expect(refused(() => match.oneOf([]))).toContain("match.oneOf");
    expect(refused(() => match.contains(1 as unknown as string))).toContain("match.contains");
    expect(refused(() => match.custom("x" as unknown as () => boolean))).toContain("match.custom");
    expect(refused(() => match.regex("(?=1)"))).toMatch(
      /^match\.regex\("\(\?=1\)"\): .*no lookarounds/,
    );
  });
});

describe("toExpectedValue", () => {
  it("reads matchers anywhere inside arguments and leaves plain JSON as it is", () => {
    const plain = { city: "Paris", days: [1, 2] };
    expect(toExpectedValue(plain, { field: "e" })).toBe(plain);
    const parsed = toExpectedValue(
      { city: "Paris", dates: [{ $match: "regex", pattern: "^2025" }] },
      { field: "e" },
    ) as { dates: unknown[] };
    expect(isValueMatcher(parsed.dates[0])).toBe(true);
  });

  it("unwraps $literal for data that really has a $match key", () => {
    expect(toExpectedValue({ query: { $literal: { $match: "regex" } } }, { field: "e" })).toEqual({
      query: { $match: "regex" },
    });
  });

  const invalid: [string, unknown, RegExp][] = [
    ["an unknown kind", { $match: "glob" }, /e\.a: unknown matcher "glob"; use one of any, regex/],
    [
      "a field of another kind",
      { $match: "regex", pattern: "a", value: 1 },
      /e\.a\.value: is not a field of the regex matcher/,
    ],
    [
      "a regex that does not compile",
      { $match: "regex", pattern: "(" },
      /e\.a\.pattern: is not a valid regular expression/,
    ],
    [
      "a missing pattern",
      { $match: "regex" },
      /e\.a\.pattern: must be a regular expression as a string, got nothing/,
    ],
    ["closeTo without tolerance", { $match: "closeTo", value: 1 }, /needs absolute or relative/],
    [
      "closeTo with a string value",
      { $match: "closeTo", value: "1", absolute: 1 },
      /e\.a\.value: must be a number/,
    ],
    ["an empty oneOf", { $match: "oneOf", values: [] }, /e\.a\.values: must not be empty/],
    ["range without bounds", { $match: "range" }, /needs min and\/or max/],
    [
      "any of an unknown type",
      { $match: "any", type: "date" },
      /e\.a\.type: must be one of string, number/,
    ],
  ];
  for (const [what, value, message] of invalid) {
    it(`rejects ${what} with an InvalidInputError naming the path`, () => {
      let error: unknown;
      try {
        toExpectedValue({ a: value }, { field: "e" });
      } catch (caught) {
        error = caught;
      }
      expect(InvalidInputError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
    });
  }

  it("rejects values JSON cannot hold", () => {
    expect(() => toExpectedValue({ a: Number.NaN }, { field: "e" })).toThrow(/e\.a is/);
    expect(() => toExpectedValue({ a: () => 1 }, { field: "e" })).toThrow(/not a JSON value/);
  });
});

describe("describeMatchers", () => {
  it("gives each JSON matcher its description, at any depth, and leaves the rest", () => {
    expect(
      describeMatchers({
        seat: { $match: "oneOf", values: ["1C", "2C"] },
        legs: [{ date: { $match: "regex", pattern: "^2026-" } }, "plain"],
        n: 3,
        broken: { $match: "nope" },
      }),
    ).toEqual({
      seat: { $match: "oneOf", values: ["1C", "2C"], description: 'one of "1C", "2C"' },
      legs: [
        { date: { $match: "regex", pattern: "^2026-", description: "a string matching /^2026-/" } },
        "plain",
      ],
      n: 3,
      broken: { $match: "nope" },
    });
  });
});

describe("match.optional and match.text", () => {
  it("optional: absent, or the value or matcher", () => {
    const units = match.optional("metric");
    expect([undefined, "metric", "imperial"].map((v) => units.test(v))).toEqual([
      true,
      true,
      false,
    ]);
    const nested = match.optional(match.oneOf([match.text("C", { ignoreCase: true }), "F"]));
    expect(["c", "F", "f", undefined].map((v) => nested.test(v))).toEqual([
      true,
      true,
      false,
      true,
    ]);
    expect(match.optional({ day: match.range({ min: 1, max: 31 }) }).test({ day: 40 })).toBe(false);
  });

  it("text: equal once trimmed, without the ignored characters, in lower case", () => {
    const title = match.text("Python tutorials", {
      ignoreCase: true,
      ignoreCharacters: " ,./-_*^",
      trim: true,
    });
    expect(title.test("  python-Tutorials. ")).toBe(true);
    expect(title.test("Python tutorial")).toBe(false);
    expect(title.test(3)).toBe(false);
    expect(match.text("A b").test("a b")).toBe(false);
  });

  it("reads both from JSON, round-trips, and names bad fields", () => {
    const read = toExpectedValue(
      {
        units: { $match: "optional", value: { $match: "oneOf", values: ["c", "f"] } },
        title: { $match: "text", value: "Python", ignoreCase: true, ignoreCharacters: " -" },
      },
      { field: "args" },
    ) as Record<string, ValueMatcher>;
    expect(read.units.test(undefined)).toBe(true);
    expect(read.units.test("f")).toBe(true);
    expect(read.title.test("py-THON")).toBe(true);
    expect(JSON.parse(JSON.stringify(read.units))).toEqual({
      $match: "optional",
      value: { $match: "oneOf", values: ["c", "f"] },
    });
    expect(() =>
      toExpectedValue({ t: { $match: "text", value: "x", ignoreCase: "yes" } }, { field: "args" }),
    ).toThrow(/args\.t\.ignoreCase: must be true or false/);
    expect(() => toExpectedValue({ t: { $match: "optional" } }, { field: "args" })).toThrow(
      /args\.t: needs a value/,
    );
  });
});

describe("textNormalizer", () => {
  it("removes any ignored character, regex syntax included", () => {
    const normalize = textNormalizer({ ignoreCharacters: "]\\^-[.*" });
    expect(normalize("a]b\\c^d-e[f.g*h")).toBe("abcdefgh");
  });
});

describe("MatcherMemo", () => {
  // The engine patterns from data compile on, through require's cache: the same class.
  const re2 = (createRequire(import.meta.url)("re2js") as { RE2JS: { compile: () => unknown } })
    .RE2JS;
  const date = (): Record<string, unknown> => ({ $match: "regex", pattern: "^2026-05-\\d\\d$" });

  it("makes a matcher once for every copy of its text, as a dataset writes one a case", () => {
    const compile = vi.spyOn(re2, "compile");
    try {
      const memo = new MatcherMemo();
      const read = (at: number) =>
        toExpectedValue({ date: date(), n: at }, { field: `expected[${at}]`, memo }) as Record<
          string,
          ValueMatcher
        >;
      const first = read(0);
      const second = read(1);
      expect(second.date).toBe(first.date);
      expect(first.date.test("2026-05-01")).toBe(true);
      expect(first.date.test("2026-06-01")).toBe(false);
      expect(compile).toHaveBeenCalledTimes(1);
      // Without a memo, each reading makes its own.
      toExpectedValue(date(), { field: "x" });
      expect(compile).toHaveBeenCalledTimes(2);
    } finally {
      compile.mockRestore();
    }
  });

  it("keeps no error: each bad copy is refused naming its own path", () => {
    const memo = new MatcherMemo();
    const bad = () => ({ $match: "regex", pattern: "(?<=a)b" });
    expect(() => toExpectedValue({ a: bad() }, { field: "expected[0]", memo })).toThrow(
      /expected\[0\]\.a\.pattern/,
    );
    expect(() => toExpectedValue({ a: bad() }, { field: "expected[1]", memo })).toThrow(
      /expected\[1\]\.a\.pattern/,
    );
  });

  it("does not share a matcher whose text may hold a code matcher's meaning", () => {
    const memo = new MatcherMemo();
    const record = () => ({ $match: "oneOf", values: [match.regex(/^a/), "b"] });
    const one = toExpectedValue(record(), { field: "x", memo });
    const two = toExpectedValue(record(), { field: "x", memo });
    expect(one).not.toBe(two);
  });

  it("lets the oldest of many distinct matchers go, and makes it again when it comes back", () => {
    const memo = new MatcherMemo();
    const of = (n: number) =>
      toExpectedValue({ $match: "range", min: n }, { field: "x", memo }) as ValueMatcher;
    const first = of(0);
    expect(of(0)).toBe(first);
    for (let n = 1; n <= 1000; n++) of(n);
    const again = of(0);
    expect(again).not.toBe(first);
    expect(again.test(0)).toBe(true);
    expect(again.test(-1)).toBe(false);
  });
});
