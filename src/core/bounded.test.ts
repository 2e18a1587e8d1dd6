import { describe, expect, it } from "vitest";
import { MAX_SHOWN_ITEMS, boundValue, cutText, textHash, MAX_SHOWN_DEPTH } from "./bounded.js";

describe("bounded values", () => {
  it("keeps short values as they are, the same objects", () => {
    const value = { a: ["x", 1, { b: "y".repeat(100) }] };
    expect(boundValue(value)).toBe(value);
    expect(cutText("short")).toBe("short");
  });

  it("cuts long strings at any depth, with their length and a hash", () => {
    const long = "z".repeat(10_000);
    const bounded = boundValue({ a: [{ text: long }], keep: "k" }, 100);
    expect(bounded.keep).toBe("k");
    const text = bounded.a[0].text;
    expect(text.startsWith("z".repeat(100))).toBe(true);
    expect(text).toContain(`[cut: 10000 characters in all, hash ${textHash(long)}]`);
    expect(text.length).toBeLessThan(200);
  });

  it("tells long values apart by their hash", () => {
    expect(textHash(`${"a".repeat(5000)}1`)).not.toBe(textHash(`${"a".repeat(5000)}2`));
    expect(textHash("same")).toBe(textHash("same"));
  });

  it("keeps the first elements of a long array and says how many there were", () => {
    const list = Array.from({ length: MAX_SHOWN_ITEMS + 5 }, (_, i) => i);
    const bounded = boundValue({ list });
    expect(bounded.list).toHaveLength(MAX_SHOWN_ITEMS + 1);
    expect(bounded.list.at(-1)).toBe(`… [cut: ${MAX_SHOWN_ITEMS + 5} items in all]`);
  });
});

describe("bounded values: nesting (issue 48, item 6)", () => {
  /** A value nested `levels` deep: objects, or lists. */
  const nested = (levels: number, list: boolean): unknown => {
    let value: unknown = 1;
    for (let at = 0; at < levels; at++) value = list ? [value] : { a: value };
    return value;
  };
  /** The levels of a value, and what sits at the bottom. */
  const bottom = (value: unknown): [number, unknown] => {
    let levels = 0;
    let at = value;
    while (typeof at === "object" && at !== null) {
      at = Array.isArray(at) ? (at as unknown[])[0] : (at as { a: unknown }).a;
      levels++;
    }
    return [levels, at];
  };

  it("keeps a value nested up to the limit as it is, and cuts deeper ones saying so", () => {
    const within = nested(MAX_SHOWN_DEPTH, false);
    expect(boundValue(within)).toBe(within);
    for (const list of [false, true]) {
      const shown = boundValue(nested(5000, list));
      expect(bottom(shown)).toEqual([
        MAX_SHOWN_DEPTH,
        `… [cut: ${list ? "a list" : "an object"} nested more than 1000 levels deep]`,
      ]);
      // Shown bounded, it is written and read like any value.
      expect(() => JSON.stringify(shown)).not.toThrow();
    }
  });
});
