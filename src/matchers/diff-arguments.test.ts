import { describe, expect, it } from "vitest";
import { diffArguments } from "./diff-arguments.js";

describe("diffArguments", () => {
  it("locates each difference by JSON path", () => {
    const verdicts = diffArguments(
      { query: "weather", filters: { date: "2025-01-01", city: "Paris" }, "odd key": 1 },
      { query: "weather", filters: { date: "2025-01-02", city: "Paris" }, limit: 5 },
    );
    expect(verdicts).toEqual([
      { path: "$.query", verdict: "match", expected: "weather", actual: "weather" },
      { path: "$.filters.date", verdict: "mismatch", expected: "2025-01-01", actual: "2025-01-02" },
      { path: "$.filters.city", verdict: "match", expected: "Paris", actual: "Paris" },
      { path: '$["odd key"]', verdict: "missing", expected: 1 },
      { path: "$.limit", verdict: "unexpected", actual: 5 },
    ]);
  });

  it("can leave extra keys out and attach similarities", () => {
    expect(
      diffArguments({ a: "abc" }, { a: "abd", b: 1 }, { extras: "ignore", similarity: () => 0.5 }),
    ).toEqual([
      { path: "$.a", verdict: "mismatch", expected: "abc", actual: "abd", similarity: 0.5 },
    ]);
  });
});
