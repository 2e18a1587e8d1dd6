import { describe, expect, it } from "vitest";
import { matchToolCallsByTurn } from "./match-by-turn.js";

const lookup = { name: "lookup_order", arguments: { order: "4521" } };
const refund = { name: "refund_order", arguments: { order: "4521", amount: 30 } };

/** A support conversation: look the order up, refund it once the user confirms, send nothing. */
const expectedTurns = [[lookup], [refund], []];

describe("matchToolCallsByTurn", () => {
  it("scores each turn as a case and the conversation by their mean", () => {
    const result = matchToolCallsByTurn([
      { called: [lookup], expected: expectedTurns[0] },
      { called: [refund], expected: expectedTurns[1] },
      { called: [], expected: expectedTurns[2] },
    ]);
    expect(result).toMatchObject({ score: 1, success: true, misplaced: [] });
    expect(result.reason).toBe("3 of 3 turns passed (mean).");
  });

  it("names a call made at the wrong turn as such, not only as missing and unexpected", () => {
    // The refund is made at turn 1, before the user confirmed at turn 2.
    const result = matchToolCallsByTurn([
      { called: [lookup, refund], expected: expectedTurns[0] },
      { called: [], expected: expectedTurns[1] },
      { called: [], expected: expectedTurns[2] },
    ]);
    expect(result.misplaced).toEqual([
      { name: "refund_order", madeAt: 1, expectedAt: 2, calledIndex: 1, expectedIndex: 0 },
    ]);
    expect(result.success).toBe(false);
    expect(
      result.reason.startsWith("turn 1: refund_order made too early (expected at turn 2)"),
    ).toBe(true);
    expect(result.reason).toContain("1 of 3 turns passed (mean).");
    // A call of another amount is not the expected one made elsewhere: only missing and extra.
    const other = matchToolCallsByTurn([
      {
        called: [lookup, { ...refund, arguments: { order: "4521", amount: 300 } }],
        expected: expectedTurns[0],
      },
      { called: [], expected: expectedTurns[1] },
    ]);
    expect(other.misplaced).toEqual([]);
  });

  it("aggregates by min or all, takes each turn's options, and refuses an unknown aggregate", () => {
    const turns = [
      { called: [lookup], expected: expectedTurns[0] },
      {
        called: [{ ...refund, arguments: { order: "4521", amount: 300 } }],
        expected: expectedTurns[1],
      },
    ];
    const mean = matchToolCallsByTurn(turns);
    const min = matchToolCallsByTurn(turns, { aggregate: "min" });
    const all = matchToolCallsByTurn(turns, { aggregate: "all" });
    expect(mean.score).toBeCloseTo((1 + min.score) / 2);
    expect(min.score).toBeLessThan(1);
    expect(all.score).toBe(0);
    // The second turn's own rule: the amount is not compared there.
    const lenient = matchToolCallsByTurn([
      turns[0],
      {
        ...turns[1],
        options: {
          toolRules: {
            refund_order: { arguments: { mode: "exact", paths: { amount: "ignore" } } },
          },
        },
      },
    ]);
    expect(lenient).toMatchObject({ score: 1, success: true });
    expect(() => matchToolCallsByTurn(turns, { aggregate: "max" as never })).toThrow(
      /aggregate must be mean, min, all/,
    );
  });
});
