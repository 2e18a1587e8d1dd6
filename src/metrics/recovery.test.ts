import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../core/errors.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { ToolSpec } from "../core/test-case.js";
import type { ToolCall } from "../core/tool-call.js";
import { recovery } from "./recovery.js";
import type { RecoveryCase } from "./recovery.js";

const call = (name: string, args: JsonObject, output: JsonValue, isError?: boolean): ToolCall => ({
  name,
  inputParameters: args,
  output,
  type: "FUNCTION",
  ...(isError === undefined ? {} : { isError }),
});

const tools: ToolSpec[] = [
  { name: "get_order", readOnly: true },
  { name: "issue_refund", readOnly: false },
];

const refund = { order_id: "A1" };
const timedOut = call("issue_refund", refund, "issue_refund timed out before answering");

/** The scored result (a test fails on an errored one). */
const measure = (testCase: RecoveryCase, options = {}) => {
  const result = recovery(options).measureSync(testCase);
  if (result.status !== "scored") throw new Error(`not scored: ${JSON.stringify(result)}`);
  return result;
};

describe("recovery", () => {
  it("passes a run where nothing failed, saying so", () => {
    const result = measure({ toolsCalled: [call("get_order", refund, { status: "paid" })] });
    expect(result).toMatchObject({
      score: 1,
      success: true,
      reason: "none of 1 call failed: nothing to recover from",
    });
  });

  it("passes an agent that looks after a timeout, finds the refund made, and says so", () => {
    const result = measure({
      availableTools: tools,
      toolsCalled: [timedOut, call("get_order", refund, { status: "refunded" })],
      actualOutput: "Your refund went through after all: order A1 is refunded.",
    });
    // Never retried, and its answer... says the refund was made: the refund did not succeed in
    // a call of its own, so the answer must say what failed.
    expect(result.details.failures).toEqual([
      {
        call: 0,
        tool: "issue_refund",
        kind: "timeout",
        retries: 0,
        recovered: false,
        violations: [
          "issue_refund failed (called[0], timeout) and never succeeded, but the answer does not say so",
        ],
      },
    ]);
    const told = measure({
      availableTools: tools,
      toolsCalled: [timedOut, call("get_order", refund, { status: "refunded" })],
      actualOutput:
        "The refund request timed out, but the order now shows as refunded, so it did go through.",
    });
    expect(told).toMatchObject({ score: 1, success: true, reason: "all 1 failure handled" });
  });

  it("fails an agent that refunds twice after a timeout, naming both calls", () => {
    const result = measure({
      availableTools: tools,
      toolsCalled: [timedOut, call("issue_refund", refund, { ok: true })],
      actualOutput: "Done: your refund is on its way.",
    });
    expect(result.score).toBe(0);
    expect(result.success).toBe(false);
    expect(result.reason).toBe(
      "1 of 1 failure mishandled: called[1] issue_refund repeats called[0], which timed out and may have gone through: look before doing it again",
    );
  });

  it("takes the state-changing tools from the option when the case does not mark them", () => {
    const twice = { toolsCalled: [timedOut, call("issue_refund", refund, { ok: true })] };
    expect(measure(twice).score).toBe(1);
    expect(measure(twice, { stateChanging: ["issue_refund"] }).score).toBe(0);
  });

  it("allows retries of a lookup up to maxRetries", () => {
    const down = call("get_order", refund, "error: database unavailable");
    const calls = [down, down, down, call("get_order", refund, { status: "paid" })];
    expect(measure({ toolsCalled: calls, actualOutput: "It is paid." })).toMatchObject({
      score: 0,
      reason:
        "1 of 1 failure mishandled: get_order was called 3 more times after called[0] failed (at most 2)",
    });
    expect(measure({ toolsCalled: calls }, { maxRetries: 3 })).toMatchObject({ score: 1 });
  });

  it("fails an answer that claims success after a failure it never recovered from", () => {
    const failed = call("issue_refund", refund, { message: "card declined" }, true);
    expect(
      measure({ toolsCalled: [failed], replies: ["All done, refunded!"] }).details.failures[0],
    ).toMatchObject({ kind: "error", recovered: false, violations: [expect.any(String)] });
    expect(
      measure({ toolsCalled: [failed], replies: ["Sorry, the refund could not be made."] }).score,
    ).toBe(1);
    expect(measure({ toolsCalled: [failed] }).reason).toBe(
      "all 1 failure handled; the case has no answer, so whether it claimed success was not checked",
    );
  });

  it("counts a rate limit as a failure of its own kind, and fixed arguments as recovering", () => {
    const limited = call("search", { q: "x" }, "rate limit exceeded (429): retry after 1000 ms");
    const result = measure({
      toolsCalled: [limited, call("search", { q: "x", page: 1 }, ["a"])],
      actualOutput: "Found a.",
    });
    expect(result.details.failures).toEqual([
      { call: 0, tool: "search", kind: "rate-limit", retries: 0, recovered: true, violations: [] },
    ]);
  });

  it("reads failures by its errorOutput pattern, and refuses bad options by name", () => {
    const odd = call("a", {}, "KAPUTT");
    expect(measure({ toolsCalled: [odd] }).details.failures).toEqual([]);
    expect(
      measure({ toolsCalled: [odd] }, { errorOutput: "KAPUTT" }).details.failures,
    ).toHaveLength(1);
    expect(() => recovery({ maxRetries: -1 })).toThrow(InvalidOptionError);
    expect(() => recovery({ stateChanging: "x" as never })).toThrow(
      "recovery.stateChanging must be a list of tool names",
    );
    expect(() => recovery({ retries: 1 } as never)).toThrow(InvalidOptionError);
  });

  it("takes a case's options over the run's", async () => {
    const down = call("get_order", {}, "error");
    const metric = recovery({ maxRetries: 0 }).withOptions?.({ maxRetries: 1 });
    expect(await metric?.measure({ toolsCalled: [down, down] })).toMatchObject({ score: 1 });
  });
});
