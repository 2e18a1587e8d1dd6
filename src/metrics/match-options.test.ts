import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../core/errors.js";
import { resolveMatchOptions } from "./match-options.js";
import type { MatchOptions } from "./match-options.js";

describe("resolveMatchOptions", () => {
  it("resolves equal options of simple values once, even as fresh objects", () => {
    const first = resolveMatchOptions({ order: "strict", threshold: 0.8 });
    expect(resolveMatchOptions({ order: "strict", threshold: 0.8 })).toBe(first);
    expect(resolveMatchOptions({ order: "strict", threshold: 0.8, score: undefined })).toBe(first);
    expect(first.order).toBe("strict");
    expect(first.threshold).toBe(0.8);
  });

  it("tells options apart by every value and by type", () => {
    const strict = resolveMatchOptions({ order: "strict" });
    expect(resolveMatchOptions({ order: "in-order" }).order).toBe("in-order");
    expect(resolveMatchOptions({ order: "strict", threshold: 1 }).threshold).toBe(1);
    expect(resolveMatchOptions({ order: "strict", toolErrors: "fail" }).toolErrors).toBe("fail");
    expect(resolveMatchOptions({ order: "strict" })).toBe(strict);
    // Values that would read alike unquoted are kept apart; the invalid one is refused.
    expect(() => resolveMatchOptions({ order: 'strict";threshold=0.8' as "strict" })).toThrow(
      InvalidOptionError,
    );
    // A number and its text are different options: the text is refused.
    expect(() => resolveMatchOptions({ threshold: "1" as unknown as number })).toThrow(
      InvalidOptionError,
    );
  });

  it("resolves other options every time, and still refuses bad simple ones every time", () => {
    const rules: MatchOptions = { arguments: "subset" };
    expect(resolveMatchOptions({ arguments: "subset" })).not.toBe(resolveMatchOptions(rules));
    expect(resolveMatchOptions(rules)).toBe(resolveMatchOptions(rules));
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(() => resolveMatchOptions({ order: "sideways" as "any" })).toThrow(/order must be/);
      expect(() => resolveMatchOptions({ threshold: 2 })).toThrow(InvalidOptionError);
    }
    expect(() => resolveMatchOptions(null as unknown as MatchOptions)).toThrow(InvalidOptionError);
    // Simple values beside another option: resolved every time, and the simple set alone not
    // mistaken for them.
    const mixed = resolveMatchOptions({ order: "strict", arguments: "subset" });
    expect(resolveMatchOptions({ order: "strict", arguments: "subset" })).not.toBe(mixed);
    expect(resolveMatchOptions({ order: "strict" }).defaults.arguments.mode).toBe("exact");
    expect(resolveMatchOptions({})).toBe(resolveMatchOptions({}));
  });
});
