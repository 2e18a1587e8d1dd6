/**
 * The README's matchToolCalls example runs as written and prints what the README says it prints.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { match, matchToolCalls } from "../src/index.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The comment lines that follow `marker` in the README, joined into one line. */
function commentAfter(marker: string): string {
  const start = readme.indexOf(marker);
  expect(start).toBeGreaterThan(0);
  const lines: string[] = [];
  for (const line of readme
    .slice(start + marker.length)
    .split("\n")
    .slice(1)) {
    if (!line.startsWith("//")) break;
    lines.push(line.slice(2).trim());
  }
  return lines.join(" ");
}

describe("README", () => {
  it("shows matchToolCalls' real output", () => {
    const made = [
      { name: "get_weather", inputParameters: { city: "Lyon" } },
      { name: "get_weather", inputParameters: { city: "Paris" } },
      {
        name: "book_train",
        inputParameters: { to: "Lyon", date: "2026-06-01", request_id: "r-81" },
      },
    ];
    const result = matchToolCalls(made, [
      [
        { name: "get_weather", arguments: { city: "Paris" } },
        { name: "get_weather", arguments: { city: "Lyon" } },
      ],
      [
        {
          name: "book_train",
          arguments: { to: "Lyon", date: match.regex(/^2026-05-/), request_id: match.anyString() },
        },
      ],
    ]);
    expect(readme).toContain(`result.score; // ${result.score.toFixed(3)}: recall here`);
    expect(commentAfter("result.reason;")).toBe(result.reason);
    const verdict = commentAfter("result.pairs[2].arguments[1];");
    expect(verdict).toBe(
      '{ path: "$.date", verdict: "mismatch", expected: { $match: "regex", pattern: "^2026-05-" }, actual: "2026-06-01", note: "expected a string matching /^2026-05-/" }',
    );
    expect(result.pairs[2]?.arguments[1]).toEqual({
      path: "$.date",
      verdict: "mismatch",
      expected: { $match: "regex", pattern: "^2026-05-" },
      actual: "2026-06-01",
      note: "expected a string matching /^2026-05-/",
    });
  });
});

describe("README: toolscore/vitest", () => {
  it("shows a real failure message of toHaveCalledTool", async () => {
    const { toHaveCalledTool } = await import("../src/testing/matchers.js");
    const calls = [
      { name: "search_flights", inputParameters: { from: "CDG", to: "OSL" } },
      { name: "get_weather", inputParameters: { city: "Oslo" } },
      { name: "book_flight", inputParameters: { flight: "AF123", seat: "12A" } },
    ];
    const message = toHaveCalledTool
      .call({ isNot: false }, calls, "book_flight", { seat: "1C" })
      .message();
    const start = readme.indexOf("expected a call of book_flight");
    expect(start).toBeGreaterThan(0);
    const shown = readme.slice(start, readme.indexOf("```", start)).trimEnd();
    expect(message.startsWith(shown)).toBe(true);
  });
});
