import { describe, expect, it } from "vitest";
import { toToolCall } from "../core/tool-call.js";
import { match } from "../matchers/value-matchers.js";
import { compareArguments } from "../matchers/compare-arguments.js";
import type { ArgumentVerdict } from "../core/explanation.js";
import {
  scoreDeepevalToolCorrectness,
  resolveDeepevalToolCorrectnessOptions,
} from "./deepeval-tool-correctness.js";
import { matchToolCalls } from "./match-tool-calls.js";

/** Defects found running toolscore on real agent data, each held by a test. */

describe("order strict with toolErrors retry", () => {
  it("leaves the failed attempt out of the positions", () => {
    const result = matchToolCalls(
      [
        { name: "search", inputParameters: { q: 1 }, isError: true, output: "Error: timeout" },
        { name: "search", inputParameters: { q: 1 } },
        { name: "book", inputParameters: {} },
      ],
      [
        { name: "search", arguments: { q: 1 } },
        { name: "book", arguments: {} },
      ],
      { order: "strict", toolErrors: "retry" },
    );
    expect(result).toMatchObject({ score: 1, exact: true, unexpected: [], outOfOrder: [] });
    expect(result.pairs.map((pair) => [pair.expectedIndex, pair.calledIndex])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(result.reason).toContain(
      "called[0] search failed and was retried; the attempt is left out",
    );
  });
});

describe("match.oneOf with matchers as alternatives", () => {
  const units = { name: "convert", arguments: { units: match.oneOf([match.absent(), "metric"]) } };
  it.each([
    [{}, 1],
    [{ units: "metric" }, 1],
    [{ units: "imperial" }, 0],
  ])("in code: %o scores %d", (args, score) => {
    expect(matchToolCalls([{ name: "convert", inputParameters: args }], [units]).score).toBe(score);
  });

  it("in JSON, with nested matchers and objects holding them", () => {
    const expected = [
      {
        name: "convert",
        arguments: {
          units: { $match: "oneOf", values: [{ $match: "absent" }, "metric"] },
          at: {
            $match: "oneOf",
            values: [
              { $match: "regex", pattern: "^2026-" },
              { day: { $match: "range", min: 1, max: 31 } },
            ],
          },
        },
      },
    ];
    const score = (args: Record<string, unknown>) =>
      matchToolCalls([{ name: "convert", inputParameters: args }], expected).score;
    expect(score({ at: "2026-05-01" })).toBe(1);
    expect(score({ units: "metric", at: { day: 3 } })).toBe(1);
    expect(score({ at: { day: 40 } })).toBeLessThan(1);
    expect(score({ at: "2025-05-01" })).toBeLessThan(1);
    expect(() =>
      matchToolCalls([], [
        { name: "a", arguments: { x: { $match: "oneOf", values: [{ $match: "nope" }] } } },
      ] as never),
    ).toThrow(/expected\[0\]\.arguments\.x\.values\[0\]: unknown matcher "nope"/);
  });

  it("round-trips to JSON", () => {
    expect(JSON.parse(JSON.stringify(match.oneOf([match.absent(), "metric"])))).toEqual({
      $match: "oneOf",
      values: [{ $match: "absent" }, "metric"],
    });
  });
});

describe('arguments: "superset"', () => {
  it("lets a matcher-valued expected key be left out, like a plain one", () => {
    const expected = [{ name: "s", arguments: { q: "x", date: match.regex(/^2026/) } }];
    expect(
      matchToolCalls([{ name: "s", inputParameters: { q: "x" } }], expected, {
        arguments: "superset",
      }).score,
    ).toBe(1);
    expect(
      matchToolCalls([{ name: "s", inputParameters: { q: "x", date: "2025" } }], expected, {
        arguments: "superset",
      }).score,
    ).toBeLessThan(1);
  });
});

describe("subset and superset on arrays of objects", () => {
  const expected = {
    flights: [
      { id: "AF1", date: "2026-05-01" },
      { id: "AF2", date: "2026-05-02" },
    ],
  };
  const actual = {
    flights: [
      { id: "AF1", date: "2026-05-01" },
      { id: "AF2", date: "2026-05-09" },
    ],
  };
  it.each(["subset", "superset"] as const)(
    "%s never scores below exact, and names the deepest path",
    (mode) => {
      const exact = compareArguments(expected, actual, {
        rules: { mode: "exact", paths: [] } as never,
      });
      const verdicts: ArgumentVerdict[] = [];
      const loose = compareArguments(expected, actual, {
        rules: { mode, paths: [] },
        verdicts,
      });
      expect(loose).toBeGreaterThanOrEqual(exact);
      expect(loose).toBeGreaterThan(0.5);
      expect(
        verdicts.find((v) => v.verdict === "mismatch" && v.path === "$.flights[1].date"),
      ).toMatchObject({
        expected: "2026-05-02",
        actual: "2026-05-09",
      });
      const result = matchToolCalls(
        [{ name: "book", inputParameters: actual }],
        [{ name: "book", arguments: expected }],
        {
          arguments: mode,
        },
      );
      expect(result.reason).toContain("$.flights[1].date");
    },
  );
});

describe("deepeval's reason for a tool of the wrong type", () => {
  it("names the type mismatch instead of calling the tool missing", () => {
    const resolved = resolveDeepevalToolCorrectnessOptions({});
    const { reason } = scoreDeepevalToolCorrectness(
      {
        expected: [toToolCall({ name: "search" })],
        called: [toToolCall({ name: "search", type: "MCP" })],
      },
      resolved,
    );
    expect(reason).toContain('tool type mismatches ["search (expected FUNCTION, called MCP)"]');
    expect(reason).not.toContain("missing tools");
  });
});
