import { describe, expect, it } from "vitest";
import { responseContains } from "./response-contains.js";

/** Issue 21, item 9: reply content, as tau-bench checks its required outputs. */

describe("response-contains", () => {
  const tau = responseContains({ strings: { ignoreCase: true, ignoreCharacters: "," } });

  it("finds each string in some reply, under the normalization", () => {
    const result = tau.measureSync({
      expectedOutputContains: ["1000", "Economy"],
      replies: ["Your refund of $1,000 is on its way.", "You are now in ECONOMY class."],
    });
    expect(result).toMatchObject({
      status: "scored",
      score: 1,
      success: true,
      details: { found: ["1000", "Economy"], missing: [], searched: "replies", texts: 2 },
    });
  });

  it("scores the share found and names what is missing", () => {
    const result = tau.measureSync({
      expectedOutputContains: ["1000", "327"],
      replies: ["The total is $1,000."],
    });
    expect(result).toMatchObject({ score: 0.5, success: false });
    expect(result.status === "scored" && result.reason).toBe(
      '1 of 2 expected strings not found in 1 reply (ignoring case, ignoring ","): "327"',
    );
  });

  it("is exact without a normalization", () => {
    const plain = responseContains();
    expect(
      plain.measureSync({ expectedOutputContains: ["1000"], replies: ["$1,000"] }),
    ).toMatchObject({ score: 0 });
  });

  it("searches actualOutput when the case gives it, not the replies", () => {
    const result = tau.measureSync({
      expectedOutputContains: ["yes"],
      actualOutput: [{ type: "text", text: "Yes, done." }],
      replies: ["no"],
    });
    expect(result).toMatchObject({ score: 1, details: { searched: "actualOutput" } });
  });

  it("scores 1 with nothing to find, and reads the metric's values otherwise", () => {
    expect(tau.measureSync({ replies: ["hi"] })).toMatchObject({ score: 1, success: true });
    const withValues = responseContains({ values: ["hi"] });
    expect(withValues.measureSync({ replies: ["oh hi"] })).toMatchObject({ score: 1 });
    expect(withValues.measureSync({ replies: [] })).toMatchObject({ score: 0 });
    // The case's own list wins over the metric's values.
    expect(withValues.measureSync({ expectedOutputContains: [], replies: [] })).toMatchObject({
      score: 1,
    });
  });

  it("takes per-case options", () => {
    const strict = responseContains().withOptions?.({ strings: { ignoreCase: true } });
    expect(
      strict?.measureSync?.({ expectedOutputContains: ["abc"], replies: ["ABC"] }),
    ).toMatchObject({ score: 1 });
  });

  it("refuses bad options and bad case fields, naming them", () => {
    expect(() => responseContains({ values: [1] as never })).toThrow(
      /response-contains\.values must be a list of strings/,
    );
    expect(() => responseContains({ strings: { ignorecase: true } as never })).toThrow(
      /ignorecase/,
    );
    expect(() => responseContains({ treshold: 1 } as never)).toThrow(/treshold/);
    expect(tau.measureSync({ expectedOutputContains: "1000" as never, replies: [] })).toMatchObject(
      {
        status: "error",
        error: {
          message: expect.stringMatching(/expectedOutputContains must be a list of strings/),
        },
      },
    );
  });
});
