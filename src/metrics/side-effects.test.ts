import { describe, expect, it } from "vitest";
import { readToolList } from "../adapters/tool-spec.js";
import { matchToolCalls } from "./match-tool-calls.js";
import { toolCallAccuracy } from "./tool-call-accuracy.js";

/** Issue 49, item 2: where the order lets extra calls go, those that change the world fail. */

const lookup = { name: "lookup_order", arguments: { order_id: "4521" } };
const refund = (order = "4521") => ({ name: "refund_order", arguments: { order_id: order } });
const readOnly = { readOnly: ["lookup_*"] };

describe("extra calls of a tool that changes state", () => {
  it("fail a case under in-order: a second refund, a refund nobody expected, another order's refund first", () => {
    const cases = [
      {
        made: [lookup, refund(), refund()],
        expected: [lookup, refund()],
        at: 2,
        counts: "2 made, 1 expected",
      },
      { made: [lookup, refund()], expected: [lookup], at: 1, counts: "1 made, none expected" },
      {
        made: [lookup, refund("9999"), refund()],
        expected: [lookup, refund()],
        at: 1,
        counts: "2 made, 1 expected",
      },
    ];
    for (const { made, expected, at, counts } of cases) {
      const result = matchToolCalls(made, expected, { order: "in-order", sideEffects: readOnly });
      expect(result).toMatchObject({ score: 0, success: false, exact: false });
      expect(result.violations).toEqual([
        {
          kind: "extra-state-change",
          calledIndex: at,
          name: "refund_order",
          made: counts.startsWith("2") ? 2 : 1,
          expected: counts.includes("none") ? 0 : 1,
        },
      ]);
      expect(result.reason).toContain(
        `called[${at}] refund_order: an extra call of a tool that changes state (${counts})`,
      );
      // Not also said to be a call the order allows.
      expect(result.reason).not.toContain("refund_order made besides the expected calls");
    }
  });

  it("lets an extra call of a read-only tool go, and refunds made as often as expected", () => {
    const extraLookup = matchToolCalls([lookup, lookup, refund()], [lookup, refund()], {
      order: "in-order",
      sideEffects: readOnly,
    });
    expect(extraLookup).toMatchObject({ score: 1, success: true, violations: [] });
    expect(
      matchToolCalls([refund("1"), refund("2")], [refund("1"), refund("2")], {
        order: "all-expected",
      }),
    ).toMatchObject({ score: 1, violations: [] });
  });

  it("counts no call the tool reported as an error: it changed nothing", () => {
    const failed = { ...refund(), output: "Error: card declined", isError: true };
    expect(matchToolCalls([failed, refund()], [refund()], { order: "in-order" })).toMatchObject({
      score: 1,
      violations: [],
    });
  });

  it("takes a tool nothing declares as one that changes state, unless the run says otherwise", () => {
    expect(matchToolCalls([lookup], [], { order: "all-expected" }).violations).toHaveLength(1);
    expect(
      matchToolCalls([lookup], [], {
        order: "all-expected",
        sideEffects: { undeclared: "read-only" },
      }),
    ).toMatchObject({ score: 1, violations: [] });
  });

  it("reads what tool definitions say (readOnly, MCP annotations); the options' word wins", () => {
    const tools = readToolList([
      { name: "lookup_order", annotations: { readOnlyHint: true } },
      { type: "function", function: { name: "note" }, read_only: true },
      { name: "refund_order", annotations: { readOnlyHint: true } },
      { name: "wipe", annotations: { destructiveHint: true } },
    ]);
    expect(tools.map((tool) => tool.readOnly)).toEqual([true, true, true, false]);
    const metric = toolCallAccuracy({ order: "in-order" });
    const made = [lookup, lookup, { name: "note" }, refund(), refund()];
    // The definitions call refund read-only: its extra call goes, as the lookup's and note's do.
    expect(
      metric.measureSync({
        toolsCalled: made,
        expectedTools: [lookup, refund()],
        availableTools: tools,
      }),
    ).toMatchObject({ status: "scored", score: 1 });
    // The run says refunds change state: that wins.
    const strict = toolCallAccuracy({
      order: "in-order",
      sideEffects: { changesState: ["refund_*"] },
    });
    const result = strict.measureSync({
      toolsCalled: made,
      expectedTools: [lookup, refund()],
      availableTools: tools,
    });
    expect(result).toMatchObject({ status: "scored", score: 0, success: false });
  });

  it("is listed, not failing, under onViolation: report; a case may not say which tools change state", () => {
    const reported = matchToolCalls([refund(), refund()], [refund()], {
      order: "in-order",
      onViolation: "report",
    });
    expect(reported).toMatchObject({ score: 1, success: true });
    expect(reported.violations).toHaveLength(1);
    expect(() =>
      toolCallAccuracy({ order: "in-order" }).withOptions?.({ sideEffects: { readOnly: ["*"] } }),
    ).toThrow(/metricOptions.tool-call-accuracy.sideEffects: a case may not set "sideEffects"/);
  });

  it("counts only where the order lets extra calls go: elsewhere the score counts them", () => {
    const any = matchToolCalls([refund(), refund()], [refund()]);
    expect(any.violations).toEqual([]);
    expect(any.score).toBeCloseTo(2 / 3, 12);
  });
});
