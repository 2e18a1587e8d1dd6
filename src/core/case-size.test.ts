import { describe, expect, it } from "vitest";
import { caseSizeError, maxCaseCalls, maxCaseTurns } from "./case-size.js";
import { ErrorCode } from "./errors.js";

describe("caseSizeError", () => {
  const calls = (count: number) => Array.from({ length: count }, () => ({ name: "t" }));

  it("lets a case within the limits through", () => {
    expect(
      caseSizeError({
        turns: Array.from({ length: maxCaseTurns }, () => ({})),
        toolsCalled: calls(maxCaseCalls),
        expectedTools: calls(maxCaseCalls),
      }),
    ).toBeUndefined();
    expect(caseSizeError({})).toBeUndefined();
  });

  it("names the turns of a conversation past the limit", () => {
    const error = caseSizeError({ turns: Array.from({ length: maxCaseTurns + 1 }, () => ({})) });
    expect(error?.code).toBe(ErrorCode.LIMIT_EXCEEDED);
    expect(error?.limit).toBe("maxCaseTurns");
    expect(error?.field).toBe("turns");
    expect(error?.message).toBe(
      "the conversation has 10001 turns, over the 10000 a case may have (see docs/reference/limits.md): split it into cases",
    );
  });

  it("counts calls in lists, groups and transcripts, on each side", () => {
    expect(caseSizeError({ toolsCalled: { calls: calls(maxCaseCalls + 1) } })?.field).toBe(
      "toolsCalled",
    );
    const groups = [calls(maxCaseCalls / 2), calls(maxCaseCalls / 2), [{ name: "one more" }]];
    const error = caseSizeError({ toolsCalled: calls(1), expectedTools: groups });
    expect(error?.limit).toBe("maxCaseCalls");
    expect(error?.message).toBe(
      "expectedTools holds 100001 calls, over the 100000 a case may hold on each side (see docs/reference/limits.md): split it into cases",
    );
  });
});
