import { describe, expect, it } from "vitest";
import { judgedLeavesOf, mapJudgedLeaves, valueAt } from "./judged-leaves.js";
import { match, toExpectedValue } from "./value-matchers.js";

describe("judged leaves of an expected value", () => {
  const expected = {
    to: "ada@example.com",
    body: match.judged("polite"),
    lines: ["intro", { $match: "judged", criterion: "names the amount" }],
    subject: match.oneOf(["Refund", match.judged("about the refund")]),
    raw: { $literal: { $match: "judged", criterion: "data, not a matcher" } },
  };

  it("finds each, code or JSON, inside arrays and oneOf, with its path; $literal stays data", () => {
    expect(
      judgedLeavesOf(expected).map(({ criterion, path, at }) => [criterion, path, at]),
    ).toEqual([
      ["polite", "$.body", ["body"]],
      ["names the amount", "$.lines[1]", ["lines", 1]],
      ["about the refund", "$.subject", ["subject"]],
    ]);
  });

  it("replaces each by what binding gives, rebuilding the matchers that hold them", () => {
    const bound = mapJudgedLeaves(expected, (leaf) => match.text(leaf.criterion)) as Record<
      string,
      unknown
    >;
    expect(bound.to).toBe("ada@example.com");
    const subject = toExpectedValue(bound.subject, { field: "subject" }) as {
      test(v: unknown): boolean;
    };
    expect(subject.test("about the refund")).toBe(true);
    expect(subject.test("Refund")).toBe(true);
    expect(subject.test("other")).toBe(false);
    expect(bound.raw).toBe(expected.raw);
  });

  it("reads the value at a leaf's place in a call's arguments", () => {
    const args = { lines: ["intro", "30 EUR back"], body: "sorry" };
    expect(valueAt(args, ["lines", 1])).toBe("30 EUR back");
    expect(valueAt(args, ["lines", 5])).toBeUndefined();
    expect(valueAt(args, ["missing", "deeper"])).toBeUndefined();
  });

  it("needs a criterion, in code and in JSON; unbound, its test is a JUDGE_REQUIRED error", () => {
    expect(() => match.judged("  ")).toThrow(/needs a criterion/);
    expect(() => toExpectedValue({ $match: "judged" }, { field: "body" })).toThrow(/criterion/);
    expect(() => match.judged("polite").test("hi")).toThrow(
      expect.objectContaining({ code: "JUDGE_REQUIRED" }) as Error,
    );
    expect(match.judged("polite").toJSON()).toEqual({ $match: "judged", criterion: "polite" });
  });
});
