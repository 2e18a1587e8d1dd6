import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchToolCalls } from "../metrics/match-tool-calls.js";
import { compilePathPattern } from "./path-rules.js";
import { globMatches } from "./glob.js";
import { match, toExpectedValue } from "./value-matchers.js";

/**
 * Issue 22, item 2: patterns that come with the data run in bounded time on any value. Each of
 * these hung (exponential or high-polynomial backtracking) on JavaScript's engine; vitest's
 * timeout fails them if they come back.
 */

const evil = `${"a".repeat(41)}b`;

describe("patterns from data", () => {
  it("runs a $match regex in linear time", () => {
    const matcher = toExpectedValue({ $match: "regex", pattern: "^(a+)+$" }, { field: "x" });
    const result = matchToolCalls(
      [{ name: "t", inputParameters: { v: evil } }],
      [{ name: "t", arguments: { v: matcher } }],
    );
    expect(result.score).toBeLessThan(1);
    expect(
      matchToolCalls(
        [{ name: "t", inputParameters: { v: "aaaa" } }],
        [{ name: "t", arguments: { v: { $match: "regex", pattern: "^(a+)+$" } } }],
      ).score,
    ).toBe(1);
  });

  it("runs a schema's pattern in linear time", () => {
    const tools = [
      {
        name: "t",
        parameters: { type: "object", properties: { v: { type: "string", pattern: "^(a+)+$" } } },
      },
    ];
    const result = matchToolCalls(
      [{ name: "t", inputParameters: { v: evil } }],
      [{ name: "t", arguments: { v: evil } }],
      { tools },
    );
    expect(result.schemaViolations.map((v) => v.path)).toEqual(["$.v"]);
  });

  it("runs errorOutput in linear time on a tool's output", () => {
    const result = matchToolCalls(
      [{ name: "t", inputParameters: {}, output: evil }],
      [{ name: "t", arguments: {} }],
      { errorOutput: "^(a|aa)+$", toolErrors: "skip" },
    );
    expect(result.score).toBe(1);
  });

  it("matches globs on long names and deep paths without backtracking", () => {
    const name = "a".repeat(100_000);
    expect(globMatches("*a*a*a*a*a*a*b", name)).toBe(false);
    expect(globMatches("*a*a*a*a*a*a*", name)).toBe(true);
    const deep = Array.from({ length: 1000 }, () => "k");
    expect(compilePathPattern("**.**.**.**.x").matches(deep)).toBe(false);
    expect(compilePathPattern("**.**.**.**.k").matches(deep)).toBe(true);
  });

  it("refuses syntax the linear engine cannot run, naming the path", () => {
    expect(() =>
      toExpectedValue({ a: { $match: "regex", pattern: "(?=a)a" } }, { field: "expected" }),
    ).toThrow(/expected\.a\.pattern: is not a valid regular expression .*linear-time engine/);
    expect(() => matchToolCalls([], [], { errorOutput: "(a)\\1" })).toThrow(
      /errorOutput is not a valid regular expression: .*linear-time engine/,
    );
    // A RegExp written in code keeps JavaScript's own engine.
    expect(match.regex(/(?<=x)a/).test("xa")).toBe(true);
  });
});

describe("globMatches", () => {
  it("agrees with the regular expression built from the glob (property)", () => {
    const toRegex = (glob: string) =>
      new RegExp(
        `^${glob
          .split("")
          .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c))
          .join("")}$`,
        "s",
      );
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", "*", "?"), maxLength: 8 }),
        fc.string({ unit: fc.constantFrom("a", "b"), maxLength: 10 }),
        (glob, text) => {
          expect(globMatches(glob, text)).toBe(toRegex(glob).test(text));
        },
      ),
      { seed: 20261125, numRuns: 500 },
    );
  });
});

describe("matcher kinds named after Object.prototype keys (issue 22, item 5)", () => {
  for (const kind of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]) {
    it(`refuses {"$match": "${kind}"} as an unknown matcher, naming the path`, () => {
      for (const record of [{ $match: kind, value: 1 }, { $match: kind }]) {
        let error: unknown;
        try {
          toExpectedValue({ when: record }, { field: "expectedTools[0].arguments" });
        } catch (caught) {
          error = caught;
        }
        expect(error).toMatchObject({
          code: "INVALID_INPUT",
          message: expect.stringMatching(
            new RegExp(`expectedTools\\[0\\]\\.arguments\\.when: unknown matcher "${kind}"`),
          ) as unknown,
        });
      }
    });
  }

  it("suggests the closest kind", () => {
    expect(() => toExpectedValue({ $match: "regx", pattern: "a" }, { field: "x" })).toThrow(
      /unknown matcher "regx" \(did you mean "regex"\?\)/,
    );
  });
});

describe("membership of long arrays (issue 22, item 9)", () => {
  it("stops with LIMIT_EXCEEDED instead of pairing 100,000 elements quadratically", () => {
    const long = Array.from({ length: 100_000 }, (_, at) => at);
    const result = () =>
      matchToolCalls(
        [{ name: "t", inputParameters: { ids: long } }],
        [{ name: "t", arguments: { ids: long } }],
        { arguments: { mode: "exact", paths: { ids: "subset" } } },
      );
    expect(result).toThrow(/too long to compare by membership \(subset\)/);
    // Short arrays still pair by membership.
    expect(
      matchToolCalls(
        [{ name: "t", inputParameters: { ids: [3, 1, 2] } }],
        [{ name: "t", arguments: { ids: [1, 2] } }],
        { arguments: "subset" },
      ).score,
    ).toBe(1);
  });
});
