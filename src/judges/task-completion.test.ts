import { describe, expect, it } from "vitest";
import type { JudgeModel } from "../core/judge.js";
import { fakeJudge } from "../../test/support/fake-judge.js";
import type { TestCase } from "../core/test-case.js";
import { createMetric } from "../registry/metric-registry.js";

const saying =
  (verdict: string, unmet: string[] = []) =>
  () => ({
    reason: `the run is ${verdict}`,
    unmet,
    verdict,
  });

const run: TestCase = {
  input: "Refund 30 EUR on order 4521 and tell me when it is done.",
  expectedOutcome: "Order 4521 refunded 30 EUR; the customer is told.",
  availableTools: [{ name: "refund_order", description: "Refunds an amount on an order." }],
  toolsCalled: [
    { name: "refund_order", arguments: { order: "4521", amount: 30 }, output: { refunded: 30 } },
  ] as never,
  replies: ["Done: 30 EUR refunded on order 4521."],
};

const metric = (model: JudgeModel, options: Record<string, unknown> = {}) =>
  createMetric({ metric: "task-completion", ...options }, { judge: model });

describe("task-completion", () => {
  it("shows the judge the request, the expected outcome, tools, every call with its output, the replies", async () => {
    const { model, asked } = fakeJudge(saying("completed"));
    await metric(model).measure(run);
    const text = JSON.stringify(asked[0].messages[1].content);
    for (const part of [
      "Refund 30 EUR on order 4521",
      "## The expected outcome",
      "Order 4521 refunded 30 EUR; the customer is told.",
      "refund_order: Refunds an amount on an order.",
      'Call 1: refund_order({\\"order\\":\\"4521\\",\\"amount\\":30})',
      'Returned: {\\"refunded\\":30}',
      "Done: 30 EUR refunded on order 4521.",
    ]) {
      expect(text).toContain(part);
    }
    // Without a reference, the judge reads the request alone.
    const bare = fakeJudge(saying("completed"));
    await metric(bare.model).measure({ ...run, expectedOutcome: undefined });
    expect(JSON.stringify(bare.asked[0].messages[1].content)).not.toContain("expected outcome");
  });

  it("scores completed 1, partially 0.5, not 0, naming what was not achieved", async () => {
    expect(await metric(fakeJudge(saying("completed")).model).measure(run)).toMatchObject({
      status: "scored",
      score: 1,
      success: true,
    });
    const partly = await metric(
      fakeJudge(saying("partially_completed", ["the customer was not told"])).model,
    ).measure(run);
    expect(partly).toMatchObject({
      status: "scored",
      score: 0.5,
      success: false,
      reason:
        "partially completed: the run is partially_completed Not achieved: the customer was not told.",
    });
    expect(await metric(fakeJudge(saying("not_completed")).model).measure(run)).toMatchObject({
      score: 0,
      success: false,
    });
  });

  it("is not evaluable when the judge cannot tell, or its samples disagree", async () => {
    expect(await metric(fakeJudge(saying("cannot_tell")).model).measure(run)).toMatchObject({
      status: "not-evaluable",
      reason: "cannot tell: the run is cannot_tell",
    });
    const split = fakeJudge((_, sample) =>
      saying(["completed", "not_completed", "partially_completed"][sample])(),
    );
    expect(await metric(split.model, { samples: 3 }).measure(run)).toMatchObject({
      status: "not-evaluable",
      reason:
        "cannot tell: the judge's 3 answers disagreed (completed 1, partially_completed 1, not_completed 1)",
      details: { agreement: 1 / 3 },
    });
    const most = fakeJudge((_, sample) => saying(sample === 2 ? "not_completed" : "completed")());
    expect(await metric(most.model, { samples: 3 }).measure(run)).toMatchObject({
      status: "scored",
      score: 1,
      details: { agreement: 2 / 3, samples: ["completed", "completed", "not_completed"] },
    });
  });

  it("asks again on an answer that does not fit, then records an error; needs the request", async () => {
    const bad = fakeJudge(() => ({ verdict: "done" }));
    expect(await metric(bad.model).measure(run)).toMatchObject({
      status: "error",
      error: { code: "JUDGE_RESPONSE" },
    });
    expect(bad.asked).toHaveLength(3);
    expect(
      await metric(fakeJudge(saying("completed")).model).measure({ ...run, input: undefined }),
    ).toMatchObject({ status: "error", error: { code: "INVALID_INPUT", field: "input" } });
  });
});
