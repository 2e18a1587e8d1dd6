import { describe, expect, it } from "vitest";
import { toToolCall } from "../core/tool-call.js";
import { caseToolNames, toolCoverage } from "./tool-coverage.js";

const call = (name: string) => toToolCall({ name, inputParameters: {} });

describe("toolCoverage", () => {
  it("counts per tool the cases it was available, expected and called in, and says per case what went unused", () => {
    const coverage = toolCoverage(
      ["get_order", "refund_order", "cancel_order"],
      [
        caseToolNames({
          id: "a",
          expectedTools: [call("get_order"), call("refund_order")],
          toolsCalled: [call("get_order"), call("refund_order"), call("think")],
        }),
        caseToolNames({ id: "b", expectedTools: [call("get_order")], toolsCalled: [] }),
        // No expectations: its calls are counted, never as unexpected.
        caseToolNames({ id: "c", toolsCalled: [call("get_order")] }),
      ],
    );
    expect(coverage.cases).toBe(3);
    expect(coverage.tools).toEqual([
      {
        name: "get_order",
        listed: true,
        available: 3,
        expected: 2,
        called: 2,
        calledUnexpected: 0,
      },
      {
        name: "refund_order",
        listed: true,
        available: 3,
        expected: 1,
        called: 1,
        calledUnexpected: 0,
      },
      {
        name: "cancel_order",
        listed: true,
        available: 3,
        expected: 0,
        called: 0,
        calledUnexpected: 0,
      },
      { name: "think", listed: false, available: 0, expected: 0, called: 1, calledUnexpected: 1 },
    ]);
    expect(coverage).toMatchObject({
      neverExpected: ["cancel_order", "think"],
      neverCalled: ["cancel_order"],
      calledNeverExpected: ["think"],
    });
    expect(coverage.byCase).toEqual([
      {
        id: "a",
        availableNeverExpected: ["cancel_order"],
        availableNeverCalled: ["cancel_order"],
        calledNeverExpected: ["think"],
      },
      {
        id: "b",
        availableNeverExpected: ["refund_order", "cancel_order"],
        availableNeverCalled: ["get_order", "refund_order", "cancel_order"],
        calledNeverExpected: [],
      },
      {
        id: "c",
        availableNeverExpected: [],
        availableNeverCalled: ["refund_order", "cancel_order"],
        calledNeverExpected: [],
      },
    ]);
  });

  it("takes a case's own tools as available, and a conversation's turns' expected calls", () => {
    const names = caseToolNames({
      id: "chat",
      availableTools: [{ name: "search" }, { name: "book" }],
      turns: [
        { input: "find", expectedTools: [call("search")], toolsCalled: [call("search")] },
        { input: "book it", expectedTools: [call("book")], toolsCalled: [call("book")] },
      ],
    });
    expect(names).toEqual({
      id: "chat",
      available: ["search", "book"],
      expected: ["search", "book"],
      called: ["search", "book"],
    });
    expect(toolCoverage(undefined, [names]).byCase).toEqual([]);
  });
});
