import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../core/errors.js";
import { resolveMatchOptions } from "./match-options.js";
import type { MatchOptions } from "./match-options.js";

describe("resolveMatchOptions", () => {
  it("resolves an options object once, and a fresh object again (no state beyond the object)", () => {
    const given: MatchOptions = { order: "strict", threshold: 0.8 };
    const first = resolveMatchOptions(given);
    expect(resolveMatchOptions(given)).toBe(first);
    const fresh = resolveMatchOptions({ order: "strict", threshold: 0.8 });
    expect(fresh).not.toBe(first);
    expect([fresh.order, fresh.threshold]).toEqual([first.order, first.threshold]);
  });

  it("tells options apart by every value and by type", () => {
    expect(resolveMatchOptions({ order: "in-order" }).order).toBe("in-order");
    expect(resolveMatchOptions({ order: "strict", threshold: 1 }).threshold).toBe(1);
    expect(resolveMatchOptions({ order: "strict", toolErrors: "fail" }).toolErrors).toBe("fail");
    expect(resolveMatchOptions({ order: "strict" }).order).toBe("strict");
    // Values that would read alike unquoted are kept apart; the invalid one is refused.
    expect(() => resolveMatchOptions({ order: 'strict";threshold=0.8' as "strict" })).toThrow(
      InvalidOptionError,
    );
    // A number and its text are different options: the text is refused.
    expect(() => resolveMatchOptions({ threshold: "1" as unknown as number })).toThrow(
      InvalidOptionError,
    );
  });

  it("refuses bad options every time they are given", () => {
    const rules: MatchOptions = { arguments: "subset" };
    expect(resolveMatchOptions({ arguments: "subset" })).not.toBe(resolveMatchOptions(rules));
    expect(resolveMatchOptions(rules)).toBe(resolveMatchOptions(rules));
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(() => resolveMatchOptions({ order: "sideways" as "any" })).toThrow(/order must be/);
      expect(() => resolveMatchOptions({ threshold: 2 })).toThrow(InvalidOptionError);
    }
    expect(() => resolveMatchOptions(null as unknown as MatchOptions)).toThrow(InvalidOptionError);
    expect(resolveMatchOptions({ order: "strict" }).defaults.arguments.mode).toBe("exact");
  });
});
