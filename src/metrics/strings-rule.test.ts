import { describe, expect, it } from "vitest";
import { match } from "../matchers/value-matchers.js";
import { matchToolCalls } from "./match-tool-calls.js";

/** Issue 21, item 4: a rule-level `strings` normalization, at any depth. */

const strings = { ignoreCase: true, ignoreCharacters: " ,./-_*^", trim: true };

describe("strings rules", () => {
  const made = [
    {
      name: "search",
      inputParameters: { query: " python-Tutorials ", tags: ["Web_Dev"], filter: { lang: "EN" } },
    },
  ];
  const expected = [
    {
      name: "search",
      arguments: { query: "Python tutorials", tags: ["webdev"], filter: { lang: "en" } },
    },
  ];

  it("normalizes every string under the arguments' rule, inside arrays and objects", () => {
    expect(matchToolCalls(made, expected).score).toBeLessThan(1);
    expect(matchToolCalls(made, expected, { arguments: { strings } }).score).toBe(1);
  });

  it("applies per tool and per path", () => {
    expect(
      matchToolCalls(made, expected, { toolRules: { search: { arguments: { strings } } } }).score,
    ).toBe(1);
    const byPath = matchToolCalls(made, expected, {
      arguments: {
        paths: { query: { strings }, "filter.lang": { strings: { ignoreCase: true } } },
      },
    });
    // tags is compared as it is: one of three arguments differs.
    expect(
      byPath.pairs[0].arguments.filter((v) => v.verdict === "mismatch").map((v) => v.path),
    ).toEqual(["$.tags[0]"]);
  });

  it("reaches oneOf and optional alternatives", () => {
    const result = matchToolCalls(
      [{ name: "convert", inputParameters: { units: "Metric " } }],
      [{ name: "convert", arguments: { units: match.optional(match.oneOf(["metric", "si"])) } }],
      { arguments: { strings } },
    );
    expect(result.score).toBe(1);
  });

  it("refuses unknown or mistyped settings, naming them", () => {
    expect(() =>
      matchToolCalls([], [], { arguments: { strings: { ignorecase: true } as never } }),
    ).toThrow(/arguments\.strings has no option "ignorecase"/);
    expect(() =>
      matchToolCalls([], [], { arguments: { strings: { trim: "yes" } as never } }),
    ).toThrow(/arguments\.strings\.trim must be true or false/);
  });
});
