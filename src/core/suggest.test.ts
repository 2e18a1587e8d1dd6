import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closestName, didYouMean } from "./suggest.js";

describe("closestName", () => {
  it("finds the name meant despite a swap, a slip, another case or separator", () => {
    const flags = ["--report", "--junit", "--markdown", "--out", "--resume"];
    expect(closestName("--junti", flags)).toBe("--junit");
    expect(closestName("--reprot", flags)).toBe("--report");
    expect(closestName("--resme", flags)).toBe("--resume");
    expect(closestName("tools_called", ["toolsCalled", "expectedTools"])).toBe("toolsCalled");
    expect(closestName("Order", ["order", "score"])).toBe("order");
  });

  it("suggests nothing when no name is close", () => {
    expect(closestName("--verbose", ["--report", "--junit"])).toBe(undefined);
    expect(closestName("x", [])).toBe(undefined);
  });

  it("always finds a name among names that include it", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.array(fc.string()), (name, others) => {
        expect(closestName(name, [...others, name])).toBeDefined();
      }),
      { seed: 20261125, numRuns: 300 },
    );
  });
});

describe("didYouMean", () => {
  it("says the closest name, quoted, or nothing", () => {
    expect(didYouMean("evl", ["eval", "parse"])).toBe(' (did you mean "eval"?)');
    expect(didYouMean("zzz", ["eval", "parse"])).toBe("");
  });
});
