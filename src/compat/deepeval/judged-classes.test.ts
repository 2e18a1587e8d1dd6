import { describe, expect, it } from "vitest";
import { toMetric } from "../../core/metric.js";
import { fakeJudge } from "../../../test/support/fake-judge.js";
import { ArgumentCorrectnessMetric, TaskCompletionMetric } from "./judged-classes.js";
import { LLMTestCase, ToolCall } from "./test-case.js";

const refund = new LLMTestCase({
  input: "Refund 30 EUR on order 4521, then email me.",
  actualOutput: "Refunded and emailed.",
  toolsCalled: [
    new ToolCall({ name: "get_order", inputParameters: { order: "4521" } }),
    new ToolCall({ name: "refund_order", inputParameters: { order: "4521", amount: 300 } }),
    new ToolCall({ name: "send_email", inputParameters: { body: "done" } }),
  ],
});

/** The judge's verdicts on the three calls, in order. */
const verdicts = (...given: string[]) =>
  fakeJudge(() => ({
    calls: given.map((verdict, index) => ({
      call: index + 1,
      verdict,
      reason: `${verdict} ${index + 1}`,
    })),
  }));

describe("ArgumentCorrectnessMetric (deepeval)", () => {
  it("computes deepeval's score from the verdicts: any verdict but no counts", async () => {
    const metric = new ArgumentCorrectnessMetric({
      model: verdicts("right", "wrong", "cannot_tell").model,
    });
    expect(await metric.measure(refund)).toBeCloseTo(2 / 3);
    expect(metric).toMatchObject({ success: true, threshold: 0.5, notEvaluable: false });
    expect(metric.details?.verdicts.map((verdict) => verdict.verdict)).toEqual([
      "yes",
      "no",
      "idk",
    ]);
    // The call it could not tell counts, and the reason says so.
    expect(metric.reason).toBe(
      'The score is 0.67 because called[1] refund_order: wrong 2. 1 call the judge could not tell counts as right, as deepeval counts any verdict but "no".',
    );
    // Strict mode: threshold 1, and a score under it counts 0.
    const strict = new ArgumentCorrectnessMetric({
      model: verdicts("right", "wrong", "right").model,
      strictMode: true,
    });
    expect(await strict.measure(refund)).toBe(0);
    expect(strict).toMatchObject({ threshold: 1, success: false });
  });

  it("shows the judge each called tool's description", async () => {
    const judge = verdicts("right");
    const metric = new ArgumentCorrectnessMetric({ model: judge.model });
    await metric.measure(
      new LLMTestCase({
        input: "Refund 30 EUR on order 4521",
        toolsCalled: [
          new ToolCall({
            name: "refund_order",
            description: "Refunds an amount in cents, never in euros",
            inputParameters: { order: "4521", amount: 3000 },
          }),
        ],
      }),
    );
    expect(JSON.stringify(judge.asked[0].messages)).toContain(
      "Refunds an amount in cents, never in euros",
    );
  });

  it("scores 1 without calls, without asking, and needs input and toolsCalled", async () => {
    const judge = verdicts();
    const metric = new ArgumentCorrectnessMetric({ model: judge.model, includeReason: false });
    expect(await metric.measure(new LLMTestCase({ input: "hi", toolsCalled: [] }))).toBe(1);
    expect(metric.reason).toBeUndefined();
    expect(judge.asked).toHaveLength(0);
    await expect(metric.measure(new LLMTestCase({ input: "hi" }))).rejects.toMatchObject({
      code: "MISSING_PARAMS",
      fields: ["toolsCalled"],
    });
    expect(
      () => new ArgumentCorrectnessMetric({ model: judge.model, samples: 3 } as never),
    ).toThrow(/samples/);
  });
});

describe("TaskCompletionMetric (deepeval)", () => {
  const saying = (verdict: string) =>
    fakeJudge(() => ({ reason: `it is ${verdict}`, unmet: [], verdict }));

  it("scores the judge's verdict, strict mode as deepeval, and shows the judge the task", async () => {
    const judge = saying("partially_completed");
    const metric = new TaskCompletionMetric({ model: judge.model, task: "Refund order 4521" });
    expect(await metric.measure(refund)).toBe(0.5);
    expect(metric).toMatchObject({ success: true, reason: "it is partially_completed" });
    expect(JSON.stringify(judge.asked[0].messages)).toContain("Refund order 4521");
    const strict = new TaskCompletionMetric({
      model: saying("partially_completed").model,
      strictMode: true,
    });
    expect(await strict.measure(refund)).toBe(0);
    await expect(
      new TaskCompletionMetric({ model: judge.model }).measure(
        new LLMTestCase({ input: "x", toolsCalled: [] }),
      ),
    ).rejects.toMatchObject({ code: "MISSING_PARAMS", fields: ["actualOutput"] });
  });

  it("gives no score when the judge cannot tell: NaN from measure, not evaluable in evaluate", async () => {
    const metric = new TaskCompletionMetric({ model: saying("cannot_tell").model });
    expect(await metric.measure(refund)).toBeNaN();
    expect(metric).toMatchObject({ notEvaluable: true, success: false, score: undefined });
    expect(await metric[toMetric]().measure(refund as never)).toMatchObject({
      status: "not-evaluable",
      metric: "Task Completion",
      reason: "cannot tell: it is cannot_tell",
    });
    const completed = new TaskCompletionMetric({ model: saying("completed").model });
    expect(await completed[toMetric]().measure(refund as never)).toMatchObject({
      status: "scored",
      score: 1,
      threshold: 0.5,
      success: true,
    });
  });
});
