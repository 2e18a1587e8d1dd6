import { describe, expect, it } from "vitest";
import { axionFuzzyScore, axionSubsetMatch, axionValueSimilarity } from "./axion-parameters.js";
import { sequenceMatcherRatio } from "./sequence-matcher.js";

describe("axionSubsetMatch", () => {
  it("accepts extra called keys and recurses into objects", () => {
    expect(axionSubsetMatch({ a: 1 }, { a: 1, b: 2 })).toBe(true);
    expect(axionSubsetMatch({}, { anything: true })).toBe(true);
    expect(axionSubsetMatch({ a: { x: 1 } }, { a: { x: 1, y: 2 } })).toBe(true);
    expect(axionSubsetMatch({ a: { x: 1, y: 2 } }, { a: { x: 1 } })).toBe(false);
    expect(axionSubsetMatch({ a: 1 }, {})).toBe(false);
    expect(axionSubsetMatch({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
  });
});

describe("axionValueSimilarity", () => {
  it("scores by JSON type", () => {
    expect(axionValueSimilarity(null, null)).toBe(1);
    expect(axionValueSimilarity(true, false)).toBe(0);
    expect(axionValueSimilarity(1, true)).toBe(0);
    expect(axionValueSimilarity("5", 5)).toBe(0);
    expect(axionValueSimilarity([1, 2], [1, 3])).toBe(0);
    expect(axionValueSimilarity("abcd", "abce")).toBe(sequenceMatcherRatio("abcd", "abce"));
  });

  it("compares numbers by relative difference, floored at 0", () => {
    expect(axionValueSimilarity(5, 5.5)).toBe(1 - 0.5 / 5.5);
    expect(axionValueSimilarity(0, 3)).toBe(0);
    expect(axionValueSimilarity(5, -5)).toBe(0);
  });

  it("averages key overlap and shared-key similarity for objects", () => {
    expect(axionValueSimilarity({ x: 1 }, {})).toBe(0);
    expect(axionValueSimilarity({ x: 1, y: "a" }, { x: 1, z: 2 })).toBe((1 / 3 + 1) / 2);
  });
});

describe("axionFuzzyScore", () => {
  it("averages over the expected keys; a missing key scores 0", () => {
    expect(axionFuzzyScore({}, { a: 1 })).toBe(1);
    expect(axionFuzzyScore({ a: null }, {})).toBe(0);
    expect(axionFuzzyScore({ a: "ab", b: 1 }, { a: "cd", b: 1 })).toBe(0.5);
  });
});
