import { describe, expect, it } from "vitest";
import { deepevalCompareParams } from "./deepeval-compare-params.js";

describe("deepevalCompareParams", () => {
  it("is 1 for equal objects, whatever the key order", () => {
    expect(deepevalCompareParams({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(1);
    expect(deepevalCompareParams({}, {})).toBe(1);
  });

  it("is exactly 1 for ten equal keys (no 0.9999999999999999)", () => {
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i]));
    expect(deepevalCompareParams(ten, { ...ten })).toBe(1);
  });

  it("counts keys on one side only against the score", () => {
    expect(deepevalCompareParams({ a: 1, b: 2 }, { a: 1, c: 3 })).toBe(1 / 3);
  });

  it("gives nested objects partial credit, and nothing else", () => {
    expect(deepevalCompareParams({ q: { x: 1, y: 2 }, n: 1 }, { q: { x: 1, y: 0 }, n: 1 })).toBe(
      0.5 + 0.5 / 2,
    );
    expect(deepevalCompareParams({ tags: [1, 2] }, { tags: [1] })).toBe(0);
    expect(deepevalCompareParams({ s: "abc" }, { s: "abd" })).toBe(0);
  });

  it("uses JSON equality: true is not 1", () => {
    expect(deepevalCompareParams({ a: true }, { a: 1 })).toBe(0);
    expect(deepevalCompareParams({ a: 1 }, { a: 1.0 })).toBe(1);
  });
});
