import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ErrorCode, InvalidOptionError, LimitExceededError } from "./errors.js";
import type { MetricResult } from "./metric-result.js";
import {
  aggregateTurns,
  combineTurnResults,
  findMisplacedCalls,
  misplacedReasons,
  readTurnAggregate,
  turnCaseOf,
} from "./turns.js";
import type { MisplacedCall, TurnLeftovers } from "./turns.js";

const scored = (score: number, threshold = 1, reason = `scored ${score}`): MetricResult => ({
  status: "scored",
  metric: "m",
  score,
  threshold,
  success: score >= threshold,
  reason,
  details: null,
});

describe("aggregateTurns", () => {
  const turns = [
    { score: 1, success: true },
    { score: 0.5, success: false },
    { score: 0.9, success: true },
  ];
  it("takes the mean, the minimum, or all-or-nothing, each against the threshold", () => {
    // (1 + 0.5 + 0.9) / 3 is 0.7999… in floats: it still reaches a threshold of 0.8.
    expect(aggregateTurns(turns, "mean", 0.8)).toEqual({ score: 2.4 / 3, success: true });
    expect(aggregateTurns(turns, "mean", 0.81)).toEqual({ score: 2.4 / 3, success: false });
    expect(aggregateTurns(turns, "min", 0.5)).toEqual({ score: 0.5, success: true });
    expect(aggregateTurns(turns, "all", 0)).toEqual({ score: 0, success: false });
    expect(aggregateTurns(turns.slice(0, 1), "all", 1)).toEqual({ score: 1, success: true });
    expect(aggregateTurns([], "mean", 1)).toEqual({ score: 1, success: true });
  });

  it("reads an aggregate, or names the option and the values it takes", () => {
    expect(readTurnAggregate("min", "x")).toBe("min");
    expect(() => readTurnAggregate("median", "--turn-aggregate")).toThrow(InvalidOptionError);
    expect(() => readTurnAggregate("median", "--turn-aggregate")).toThrow(
      /--turn-aggregate must be mean, min, all, got "median"/,
    );
  });
});

describe("combineTurnResults", () => {
  it("names the failing turns first and says how many passed", () => {
    const result = combineTurnResults({
      metric: "m",
      results: [scored(1), scored(0, 1, "refund missing."), scored(1)],
      aggregate: "mean",
      threshold: 1,
    });
    expect(result).toMatchObject({ status: "scored", success: false });
    if (result.status !== "scored") throw new Error("scored");
    expect(result.score).toBeCloseTo(2 / 3);
    expect(result.reason).toBe("turn 2: refund missing.\n2 of 3 turns passed (mean).");
    expect(result.details.turns.map((turn) => [turn.turn, turn.status])).toEqual([
      [1, "scored"],
      [2, "scored"],
      [3, "scored"],
    ]);
  });

  it("leaves skipped turns out of the score, and is skipped when every turn is", () => {
    const skipped: MetricResult = { status: "skipped", metric: "m", reason: "nothing to judge" };
    const some = combineTurnResults({
      metric: "m",
      results: [skipped, scored(0.5, 0.5)],
      aggregate: "min",
      threshold: 0.5,
    });
    expect(some).toMatchObject({ status: "scored", score: 0.5, success: true });
    expect(
      combineTurnResults({
        metric: "m",
        results: [skipped, skipped],
        aggregate: "mean",
        threshold: 1,
      }),
    ).toEqual({
      status: "skipped",
      metric: "m",
      reason: "skipped at every turn: nothing to judge",
    });
  });

  it("is an error naming the turn when a turn's is, not evaluable when a turn could not be told and none failed", () => {
    const error: MetricResult = {
      status: "error",
      metric: "m",
      error: { code: ErrorCode.INVALID_INPUT, message: "arguments are not JSON" },
    };
    expect(
      combineTurnResults({
        metric: "m",
        results: [scored(1), error],
        aggregate: "mean",
        threshold: 1,
      }),
    ).toMatchObject({ status: "error", error: { message: "turn 2: arguments are not JSON" } });
    const unsure: MetricResult = { status: "not-evaluable", metric: "m", reason: "no reference" };
    expect(
      combineTurnResults({
        metric: "m",
        results: [scored(1), unsure],
        aggregate: "mean",
        threshold: 1,
      }),
    ).toMatchObject({ status: "not-evaluable", reason: "turn 2: no reference" });
    // A failing turn decides: the conversation failed, whatever another turn could not tell.
    expect(
      combineTurnResults({
        metric: "m",
        results: [scored(0), unsure],
        aggregate: "mean",
        threshold: 1,
      }),
    ).toMatchObject({ status: "scored", success: false });
  });

  it("fails a conversation with a misplaced call, quoting what the user said at the turn it belonged to", () => {
    const result = combineTurnResults({
      metric: "m",
      results: [scored(1), scored(1)],
      aggregate: "mean",
      threshold: 0.5,
      misplaced: [
        { name: "refund_order", madeAt: 1, expectedAt: 2, calledIndex: 1, expectedIndex: 0 },
      ],
      inputs: ["Where is my order?", [{ type: "text", text: "Yes,   refund it." }]],
    });
    expect(result).toMatchObject({ status: "scored", score: 1, success: false });
    if (result.status !== "scored") throw new Error("scored");
    expect(result.reason).toMatch(
      /^turn 1: refund_order made too early, before the user said "Yes, refund it." \(expected at turn 2\)\./,
    );
    expect(
      misplacedReasons([{ name: "a", madeAt: 3, expectedAt: 2, calledIndex: 0, expectedIndex: 0 }]),
    ).toEqual(["turn 3: a made too late (expected at turn 2)."]);
  });
});

describe("findMisplacedCalls", () => {
  const turns = [
    { unexpected: [{ calledIndex: 1, name: "refund" }], missing: [] },
    { unexpected: [], missing: [{ expectedIndex: 0, name: "refund" }] },
    { unexpected: [], missing: [{ expectedIndex: 0, name: "refund" }] },
  ];
  it("pairs a call a turn did not expect with the nearest turn that missed it, once", () => {
    expect(findMisplacedCalls(turns, () => true)).toEqual([
      { name: "refund", madeAt: 1, expectedAt: 2, calledIndex: 1, expectedIndex: 0 },
    ]);
    const tried: number[] = [];
    expect(
      findMisplacedCalls(turns, (_made, _called, at) => {
        tried.push(at);
        return at === 2;
      }),
    ).toEqual([{ name: "refund", madeAt: 1, expectedAt: 3, calledIndex: 1, expectedIndex: 0 }]);
    expect(tried).toEqual([1, 2]);
  });

  it("leaves calls the order allows, other tools, and calls that do not match", () => {
    expect(
      findMisplacedCalls(
        [
          { unexpected: [{ calledIndex: 0, name: "refund", allowed: true }], missing: [] },
          { unexpected: [], missing: [{ expectedIndex: 0, name: "refund" }] },
        ],
        () => true,
      ),
    ).toEqual([]);
    expect(findMisplacedCalls(turns, () => false)).toEqual([]);
    expect(
      findMisplacedCalls(
        [
          { unexpected: [{ calledIndex: 0, name: "lookup" }], missing: [] },
          { unexpected: [], missing: [{ expectedIndex: 0, name: "refund" }] },
        ],
        () => true,
      ),
    ).toEqual([]);
  });
});

/** The search as first written: every candidate of every turn sorted by distance, per call. */
function naiveMisplaced(
  turns: readonly TurnLeftovers[],
  matches: (made: number, called: number, at: number, expected: number) => boolean,
): MisplacedCall[] {
  const misplaced: MisplacedCall[] = [];
  const taken = new Set<string>();
  turns.forEach((turn, made) => {
    for (const extra of turn.unexpected) {
      if (extra.allowed === true) continue;
      const found = turns
        .flatMap((other, at) =>
          at === made
            ? []
            : other.missing
                .filter((missing) => missing.name === extra.name && missing.allowed !== true)
                .map((missing) => ({ at, missing })),
        )
        .sort((a, b) => Math.abs(a.at - made) - Math.abs(b.at - made) || a.at - b.at)
        .find(
          ({ at, missing }) =>
            !taken.has(`${at}:${missing.expectedIndex}`) &&
            matches(made, extra.calledIndex, at, missing.expectedIndex),
        );
      if (found === undefined) continue;
      taken.add(`${found.at}:${found.missing.expectedIndex}`);
      misplaced.push({
        name: extra.name,
        madeAt: made + 1,
        expectedAt: found.at + 1,
        calledIndex: extra.calledIndex,
        expectedIndex: found.missing.expectedIndex,
      });
    }
  });
  return misplaced;
}

describe("findMisplacedCalls, at scale", () => {
  const name = fc.constantFrom("a", "b", "c");
  const turn = fc.record({
    unexpected: fc.array(fc.record({ name, allowed: fc.boolean() }), { maxLength: 3 }),
    missing: fc.array(fc.record({ name, allowed: fc.boolean() }), { maxLength: 3 }),
  });
  it("finds what the search over every candidate finds, in the same order", () => {
    fc.assert(
      fc.property(fc.array(turn, { maxLength: 12 }), fc.integer(), (given, seed) => {
        const turns: TurnLeftovers[] = given.map((item) => ({
          unexpected: item.unexpected.map((call, calledIndex) => ({ ...call, calledIndex })),
          missing: item.missing.map((call, expectedIndex) => ({ ...call, expectedIndex })),
        }));
        // Whether a call matches: a fixed, arbitrary function of the four indices.
        const matches = (made: number, called: number, at: number, expected: number) =>
          ((made * 31 + called * 17 + at * 7 + expected * 3 + seed) & 3) !== 0;
        expect(findMisplacedCalls(turns, matches)).toEqual(naiveMisplaced(turns, matches));
      }),
      { seed: 48, numRuns: 2000 },
    );
  });

  it("stops at maxChecks with LIMIT_EXCEEDED, and checks each candidate once per call", () => {
    // Half the turns made a call nothing expected; the other half missed one of that tool.
    const turns: TurnLeftovers[] = Array.from({ length: 6000 }, (_, at) =>
      at < 3000
        ? { unexpected: [{ calledIndex: 0, name: "t" }], missing: [] }
        : { unexpected: [], missing: [{ expectedIndex: 0, name: "t" }] },
    );
    let checks = 0;
    const error = (() => {
      try {
        findMisplacedCalls(turns, () => (checks++, false));
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as LimitExceededError).code).toBe(ErrorCode.LIMIT_EXCEEDED);
    expect((error as LimitExceededError).limit).toBe("maxMisplacedChecks");
    expect(checks).toBe(100_000);
    checks = 0;
    expect(findMisplacedCalls(turns, () => (checks++, false), { maxChecks: 1e7 })).toEqual([]);
    expect(checks).toBe(3000 * 3000);
  });

  it("walks past the turns whose expected calls are taken", () => {
    // The first half missed a call, the second made it: each takes the nearest one still free.
    const turns: TurnLeftovers[] = Array.from({ length: 10_000 }, (_, at) => ({
      unexpected: at >= 5000 ? [{ calledIndex: 0, name: "t" }] : [],
      missing: at < 5000 ? [{ expectedIndex: 0, name: "t" }] : [],
    }));
    let checks = 0;
    const found = findMisplacedCalls(turns, () => (checks++, true));
    expect(checks).toBe(5000);
    expect(found.map((call) => [call.madeAt, call.expectedAt])).toEqual(
      Array.from({ length: 5000 }, (_, k) => [5001 + k, 5000 - k]),
    );
  });
});

describe("turnCaseOf", () => {
  it("shares the conversation's turns with every turn, never copying the earlier ones", () => {
    const turns = Array.from({ length: 10_000 }, (_, at) => ({ input: `turn ${at}` }));
    const conversation = { id: "long", turns };
    const last = turnCaseOf(conversation, 9999);
    expect(last.conversation?.turns).toBe(turns);
    expect(last.conversation?.at).toBe(9999);
    expect(turnCaseOf(conversation, 0).conversation).toBeUndefined();
  });

  it("makes a turn a case: its own fields, the conversation's tools and contexts, options laid over, earlier turns", () => {
    const conversation = {
      id: "c",
      availableTools: [{ name: "refund" }],
      retrievedContexts: ["policy"],
      metricOptions: { "tool-call-accuracy": { order: "in-order", threshold: 1 } },
      toolsCalled: [],
      turns: [
        { input: "hi", toolsCalled: [] },
        {
          input: "refund it",
          replies: ["done"],
          metricOptions: {
            "tool-call-accuracy": { threshold: 0.5 },
            "response-contains": { threshold: 1 },
          },
        },
      ],
    };
    expect(turnCaseOf(conversation, 1)).toEqual({
      id: "c turn 2",
      availableTools: [{ name: "refund" }],
      retrievedContexts: ["policy"],
      input: "refund it",
      replies: ["done"],
      expectedTools: [],
      metricOptions: {
        "tool-call-accuracy": { order: "in-order", threshold: 0.5 },
        "response-contains": { threshold: 1 },
      },
      conversation: { turns: conversation.turns, at: 1 },
    });
    expect(turnCaseOf(conversation, 0)).toEqual({
      id: "c turn 1",
      availableTools: [{ name: "refund" }],
      retrievedContexts: ["policy"],
      input: "hi",
      toolsCalled: [],
      expectedTools: [],
      metricOptions: { "tool-call-accuracy": { order: "in-order", threshold: 1 } },
    });
  });
});
