import { describe, expect, it } from "vitest";
import { comparePythonStrings, pythonRound, pythonStr } from "./python-text.js";

describe("pythonStr: Python's str() of a value json.loads made", () => {
  // Each right-hand side is what CPython 3 prints.
  const cases: [unknown, string][] = [
    ["plain text", "plain text"],
    [10, "10"],
    [-3, "-3"],
    [1.5, "1.5"],
    [0.1 + 0.2, "0.30000000000000004"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [1.5e-7, "1.5e-07"],
    [123456789.123, "123456789.123"],
    [true, "True"],
    [null, "None"],
    [[1, "a", null, false], "[1, 'a', None, False]"],
    [{ a: "it's", b: [0.5] }, `{'a': "it's", 'b': [0.5]}`],
    [["both ' and \""], `['both \\' and "']`],
    [["line\nbreak\ttab\\"], "['line\\nbreak\\ttab\\\\']"],
    [["\u0007", "\u2028", "é", " "], "['\\x07', '\\u2028', 'é', ' ']"],
  ];
  for (const [value, text] of cases) {
    it(`${JSON.stringify(value)} -> ${text}`, () => {
      expect(pythonStr(value as never)).toBe(text);
    });
  }
});

describe("pythonRound", () => {
  it("rounds to the nearest, exact binary ties to even, as Python's round()", () => {
    expect(pythonRound(2 / 3, 4)).toBe(0.6667);
    expect(pythonRound(0.03125, 4)).toBe(0.0312);
    expect(pythonRound(0.09375, 4)).toBe(0.0938);
    expect(pythonRound(0.125, 2)).toBe(0.12);
    expect(pythonRound(0.375, 2)).toBe(0.38);
    // 0.15 is a little below 0.15 in binary: not a tie.
    expect(pythonRound(0.15, 1)).toBe(0.1);
    expect(pythonRound(1, 4)).toBe(1);
  });
});

describe("comparePythonStrings", () => {
  it("orders by code point, where UTF-16 units would put an emoji before U+FFFF", () => {
    expect(comparePythonStrings("\u{1F600}", "\uFFFF")).toBeGreaterThan(0);
    // JavaScript's own order, by UTF-16 units, says the opposite.
    expect(["\uFFFF", "\u{1F600}"].sort()).toEqual(["\u{1F600}", "\uFFFF"]);
    expect(comparePythonStrings("ab", "abc")).toBeLessThan(0);
    expect(comparePythonStrings("b", "b")).toBe(0);
  });
});
