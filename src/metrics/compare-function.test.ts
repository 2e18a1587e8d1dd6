import { describe, expect, it } from "vitest";
import { match } from "../matchers/value-matchers.js";
import { matchToolCalls } from "./match-tool-calls.js";

/** Issue 21, item 8: a tool's own comparison of arguments, in code. */

describe("toolRules compare", () => {
  const sameCity = (actual: Record<string, unknown>, expected: unknown) =>
    String(actual.city).toLowerCase() === (expected as { city: string }).city.toLowerCase();

  it("replaces the argument comparison for that tool only", () => {
    const result = matchToolCalls(
      [
        { name: "weather", inputParameters: { city: "PARIS", unit: "c" } },
        { name: "news", inputParameters: { topic: "x" } },
      ],
      [
        { name: "weather", arguments: { city: "paris" } },
        { name: "news", arguments: { topic: "y" } },
      ],
      { toolRules: { weather: { compare: sameCity } } },
    );
    expect(result.pairs.map((pair) => pair.score)).toEqual([1]);
    expect(result.pairs[0].arguments[0]).toMatchObject({
      path: "$",
      verdict: "match",
      note: "compared by toolRules.weather.compare (score 1)",
    });
    // The news call is the missing one's nearest miss, named there and not as unexpected too.
    expect(result.missing).toMatchObject([{ expectedIndex: 1, nearest: { calledIndex: 1 } }]);
    expect(result.unexpected).toEqual([]);
  });

  it("takes a number as the pair's argument score, and gets matchers as JSON", () => {
    let seen: unknown;
    const result = matchToolCalls(
      [{ name: "a", inputParameters: { x: 1 } }],
      [{ name: "a", arguments: { x: match.range({ min: 0 }) } }],
      {
        toolRules: {
          a: {
            compare: (_actual, expected) => {
              seen = expected;
              return 0.5;
            },
          },
        },
      },
    );
    expect(result.pairs[0].score).toBe(0.5);
    expect(seen).toEqual({ x: { $match: "range", min: 0 } });
  });

  it("refuses what is not a function, and a result that is not a score", () => {
    expect(() => matchToolCalls([], [], { toolRules: { a: { compare: "yes" as never } } })).toThrow(
      /toolRules\.a\.compare must be a function/,
    );
    expect(() =>
      matchToolCalls([{ name: "a", inputParameters: {} }], [{ name: "a", arguments: {} }], {
        toolRules: { a: { compare: () => 2 } },
      }),
    ).toThrow(/toolRules\.a\.compare must return true, false or a number in \[0, 1\], got 2/);
  });
});
