import { describe, expect, it } from "vitest";
import { compilePathPattern } from "./path-rules.js";

describe("compilePathPattern", () => {
  const cases: [string, (string | number)[], boolean][] = [
    ["*_id", ["user_id"], true],
    ["*_id", ["order", "item_id"], true],
    ["*_id", ["identity"], false],
    ["*_id", [], false],
    ["filters.*", ["filters", "date"], true],
    ["filters.*", ["filters"], false],
    ["filters.*", ["filters", "date", "from"], false],
    ["filters.*", ["query", "filters", "date"], false],
    ["$.filters.*", ["filters", "date"], true],
    ["filters.**", ["filters", "date", "from"], true],
    ["filters.**", ["filters"], true],
    ["**.id", ["a", "b", "id"], true],
    ["**.id", ["id"], true],
    ["items.*.id", ["items", 0, "id"], true],
    ["items.*.id", ["items", 0, "name"], false],
    ["timestamp", ["meta", "timestamp"], true],
    ["a+b", ["a+b"], true],
    ["a+b", ["aab"], false],
    ["**", ["anything", 3], true],
  ];
  for (const [pattern, path, expected] of cases) {
    it(`${pattern} ${expected ? "matches" : "does not match"} ${path.join(".") || "the root"}`, () => {
      expect(compilePathPattern(pattern).matches(path)).toBe(expected);
    });
  }

  it("rejects empty patterns and empty segments", () => {
    expect(() => compilePathPattern("")).toThrow(/is not a path pattern/);
    expect(() => compilePathPattern("a..b")).toThrow(/is not a path pattern/);
    expect(() => compilePathPattern("$.")).toThrow(/is not a path pattern/);
  });
});
