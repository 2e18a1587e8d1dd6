import { describe, expect, it } from "vitest";
import { MAX_SHOWN_ITEMS, boundValue, cutText, textHash } from "./bounded.js";

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
