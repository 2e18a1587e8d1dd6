import { describe, expect, it } from "vitest";
import { fakeJudge } from "../../test/support/fake-judge.js";
import type { TestCase } from "../core/test-case.js";
import { toToolCall } from "../core/tool-call.js";
import type { TurnsDetails } from "../core/turns.js";
import { createMetric } from "../registry/metric-registry.js";
import { evaluate } from "./evaluate.js";

const lookup = toToolCall({ name: "lookup_order", inputParameters: { order_id: "4521" } });
const refund = toToolCall({
  name: "refund_order",
  inputParameters: { order_id: "4521", amount: 30 },
});

/** Three user turns: look the order up, refund it once the user confirms, then nothing. */
const conversation = (called: TestCase["toolsCalled"][]): TestCase => ({
  id: "support",
  turns: [
    {
      input: "Where is my order 4521?",
      toolsCalled: called[0],
      replies: ["It was delivered. Shall I refund the 30 EUR?"],
      expectedTools: [lookup],
      expectedOutputContains: ["delivered"],
    },
    {
      input: "Yes, please refund it.",
      toolsCalled: called[1],
      replies: ["Done: 30 EUR refunded."],
      expectedTools: [refund],
      expectedOutputContains: ["refunded"],
    },
    { input: "Thanks, that's all.", toolsCalled: called[2], replies: ["Bye!"], expectedTools: [] },
  ],
});

const metrics = () => [
  createMetric({ metric: "tool-call-accuracy" }),
  createMetric({ metric: "response-contains" }),
];

describe("a conversation scored turn by turn", () => {
  it("names a refund made before the user confirmed, as made at the wrong turn, first", async () => {
    const { results, summary } = await evaluate({
      testCases: [conversation([[lookup, refund], [], []])],
      metrics: metrics(),
    });
    const [result] = results;
    expect(result.status).toBe("failed");
    expect(result.turns).toEqual(["failed", "failed", "passed"]);
    const accuracy = result.results[0];
    if (accuracy.status !== "scored") throw new Error("scored");
    expect(accuracy.reason?.split("\n")).toEqual([
      'turn 1: refund_order made too early, before the user said "Yes, please refund it." (expected at turn 2).',
      "turn 1: called[1] refund_order not expected. 1 of 1 expected call matched exactly (order: any; f1 0.667).",
      "turn 2: expected[0] refund_order missing. 0 of 1 expected call matched exactly (order: any; f1 0).",
      "1 of 3 turns passed (mean).",
    ]);
    const details = accuracy.details as TurnsDetails;
    expect(details.misplaced).toEqual([
      { name: "refund_order", madeAt: 1, expectedAt: 2, calledIndex: 1, expectedIndex: 0 },
    ]);
    expect(details.turns.map((turn) => (turn.status === "scored" ? turn.success : null))).toEqual([
      false,
      false,
      true,
    ]);
    // The replies were right at every turn: that metric passes the conversation.
    expect(result.results[1]).toMatchObject({ status: "scored", score: 1, success: true });
    expect(summary.turns).toEqual([
      { turn: 1, cases: 1, passed: 0, failed: 1, errors: 0, notEvaluable: 0 },
      { turn: 2, cases: 1, passed: 0, failed: 1, errors: 0, notEvaluable: 0 },
      { turn: 3, cases: 1, passed: 1, failed: 0, errors: 0, notEvaluable: 0 },
    ]);
  });

  it("passes the same calls made at the right turns, which a flat list of calls could not tell apart", async () => {
    const { results } = await evaluate({
      testCases: [conversation([[lookup], [refund], []])],
      metrics: metrics(),
    });
    expect(results[0]).toMatchObject({ status: "passed", turns: ["passed", "passed", "passed"] });
    expect(results[0].results[0]).toMatchObject({
      score: 1,
      reason: "3 of 3 turns passed (mean).",
    });
  });

  it("aggregates by the case's rule over the run's, and takes a turn's options over the case's", async () => {
    const twoTurns = conversation([[lookup], [], []]);
    const run = (testCase: TestCase, turnAggregate?: "mean" | "min" | "all") =>
      evaluate({
        testCases: [testCase],
        metrics: [createMetric({ metric: "tool-call-accuracy", threshold: 0.5 })],
        ...(turnAggregate === undefined ? {} : { turnAggregate }),
      }).then(({ results }) => results[0].results[0]);
    expect(await run(twoTurns)).toMatchObject({ score: 2 / 3, success: true });
    expect(await run(twoTurns, "min")).toMatchObject({ score: 0, success: false });
    expect(await run(twoTurns, "all")).toMatchObject({ score: 0, success: false });
    expect(await run({ ...twoTurns, turnAggregate: "min" }, "mean")).toMatchObject({ score: 0 });
    // Turn 2 asks nothing of its calls: it passes at any score, and so does the conversation.
    const lenient: TestCase = {
      ...twoTurns,
      turns: (twoTurns.turns ?? []).map((turn, at) =>
        at === 1 ? { ...turn, metricOptions: { "tool-call-accuracy": { threshold: 0 } } } : turn,
      ),
    };
    expect(await run(lenient, "all")).toMatchObject({ score: 1, success: true });
  });

  it("counts, over repeated runs of a conversation, the turns every run passed and the flaky ones", async () => {
    const runs = [
      conversation([[lookup], [refund], []]),
      conversation([[lookup], [refund], []]),
      conversation([[lookup, refund], [], []]),
    ].map((testCase, run) => ({ ...testCase, run }));
    const { summary } = await evaluate({ testCases: runs, metrics: metrics() });
    expect(summary.repeats).toMatchObject({ flaky: 1 });
    expect(summary.turns?.map((turn) => [turn.turn, turn.passed, turn.groups])).toEqual([
      [1, 2, { groups: 1, alwaysPassed: 0, flaky: 1 }],
      [2, 2, { groups: 1, alwaysPassed: 0, flaky: 1 }],
      [3, 3, { groups: 1, alwaysPassed: 1, flaky: 0 }],
    ]);
  });

  it("is the case's error when a turn misspells a metric of the run, and a note for another metric", async () => {
    const turnWith = (metricOptions: TestCase["metricOptions"]): TestCase => ({
      ...conversation([[lookup], [refund], []]),
      turns: [{ toolsCalled: [], metricOptions }],
    });
    const { results } = await evaluate({
      testCases: [
        turnWith({ "tool-call-acuracy": { threshold: 0 } }),
        turnWith({ "task-completion": { threshold: 0 } }),
      ],
      metrics: metrics(),
    });
    expect(results[0]).toMatchObject({
      status: "error",
      error: { code: "INVALID_INPUT", field: "turns[0].metricOptions.tool-call-acuracy" },
    });
    expect(results[1].status).not.toBe("error");
    expect(results[1].notes).toEqual([
      'turns[0].metricOptions.task-completion is not used: "task-completion", which is not a metric of this run (tool-call-accuracy, response-contains)',
    ]);
  });

  it("asks a judge about each turn, showing it the conversation so far", async () => {
    const { model, asked } = fakeJudge(() => ({ reason: "fine", unmet: [], verdict: "completed" }));
    const { results } = await evaluate({
      testCases: [conversation([[lookup], [refund], []])],
      metrics: [createMetric({ metric: "task-completion" }, { judge: model })],
    });
    expect(results[0]).toMatchObject({ status: "passed", turns: ["passed", "passed", "passed"] });
    expect(asked).toHaveLength(3);
    const second = JSON.stringify(asked[1].messages[1].content);
    expect(second).toContain("Yes, please refund it.");
    expect(second).toContain("## The conversation so far");
    expect(second).toContain("Where is my order 4521?");
    expect(second).toContain("It was delivered. Shall I refund the 30 EUR?");
    expect(JSON.stringify(asked[0].messages[1].content)).not.toContain("conversation so far");
  });
});
