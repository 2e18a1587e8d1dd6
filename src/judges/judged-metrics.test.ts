import { describe, expect, it } from "vitest";
import type { TestCase } from "../core/test-case.js";
import { createMetric } from "../registry/metric-registry.js";
import { fakeJudge } from "../../test/support/fake-judge.js";

const selection = (score: number) => ({
  reason: `score ${score}`,
  overSelected: [],
  underSelected: score < 1 ? ["book"] : [],
  misSelected: [],
  score,
});

const flight: TestCase = {
  input: "Book me a flight to Oslo",
  availableTools: [{ name: "search_flights" }, { name: "book" }],
  toolsCalled: [{ name: "search_flights", arguments: { to: "OSL" } }] as never,
};

describe("tool-selection, sampled", () => {
  it("is the single verdict as it always was with one sample", async () => {
    const { model, asked } = fakeJudge(() => selection(0.5));
    const result = await createMetric({ metric: "tool-selection" }, { judge: model }).measure(
      flight,
    );
    expect(result).toEqual({
      status: "scored",
      metric: "Tool Selection",
      score: 0.5,
      threshold: 0.5,
      success: true,
      reason: "score 0.5",
      details: selection(0.5),
    });
    expect(asked.map((request) => [request.sample, request.temperature])).toEqual([[0, 0]]);
  });

  it("takes the median of n scores, agreeing as the share within a step of it, and is not evaluable when they spread", async () => {
    const close = fakeJudge((_, sample) => selection([1, 0.75, 1][sample]));
    const metric = (model: typeof close.model, samples = 3) =>
      createMetric({ metric: "tool-selection", samples }, { judge: model });
    expect(await metric(close.model).measure(flight)).toMatchObject({
      status: "scored",
      score: 1,
      details: { agreement: 1, scores: [1, 0.75, 1], reason: "score 1" },
    });
    // One dissenting sample in 25 leaves the rest decided.
    const dissent = fakeJudge((_, sample) => selection(sample === 7 ? 0 : 1));
    expect(await metric(dissent.model, 25).measure(flight)).toMatchObject({
      status: "scored",
      score: 1,
      details: { agreement: 0.96 },
      // The split shows where the verdict is read, not only in the details.
      reason: "score 1 (24 of 25 samples)",
    });
    const apart = fakeJudge((_, sample) => selection([1, 0, 0.5][sample]));
    expect(await metric(apart.model).measure(flight)).toMatchObject({
      status: "not-evaluable",
      reason: "the judge's 3 scores disagreed (1, 0, 0.5)",
    });
  });

  it("takes its sampling from the config, never from a case", () => {
    const { model } = fakeJudge(() => selection(1));
    const metric = createMetric({ metric: "tool-selection" }, { judge: model });
    expect(() => metric.withOptions?.({ samples: 9 })).toThrow(/samples/);
    expect(() => createMetric({ metric: "tool-selection", samples: 0 }, { judge: model })).toThrow(
      /tool-selection.samples must be a whole number of answers, from 1 to 25/,
    );
  });
});

describe("multimodal-faithfulness, sampled", () => {
  const receipt: TestCase = {
    actualOutput: "The total is 12 EUR, paid by card.",
    retrievedContexts: ["The receipt total is 12 EUR.", "Paid in cash."],
  };
  const claim = (text: string, verdict: string, contexts: number[]) => ({
    claim: text,
    verdict,
    contexts,
    reason: `${text}: ${verdict}`,
  });
  // Two gradings find both claims' fate; one misses the contradiction.
  const gradings = [
    [claim("total 12 EUR", "supported", [1]), claim("paid by card", "contradicted", [2])],
    [claim("total 12 EUR", "supported", [1]), claim("paid by card", "supported", [2])],
    [claim("total 12 EUR", "supported", [1]), claim("paid by card", "contradicted", [2])],
  ];

  it("grades n times, the median score with the claims of the grading nearest it", async () => {
    const { model, asked } = fakeJudge((_, sample) => ({ claims: gradings[sample] }));
    const metric = createMetric(
      { metric: "multimodal-faithfulness", samples: 3, minAgreement: 0.5 },
      { judge: model },
    );
    const result = await metric.measure(receipt);
    expect(asked.map((request) => request.sample)).toEqual([0, 1, 2]);
    expect(result).toMatchObject({
      status: "scored",
      score: 0.5,
      details: { scores: [0.5, 1, 0.5] },
    });
    expect(
      (result as { details: { claims: { verdict: string }[] } }).details.claims[1],
    ).toMatchObject({ verdict: "contradicted" });
    // Two gradings of three at the median: 2/3 agree.
    expect((result as { details: { agreement: number } }).details.agreement).toBeCloseTo(2 / 3, 12);
  });

  it("is not evaluable when fewer gradings than minAgreement sit within a tenth of the median", async () => {
    const { model } = fakeJudge((_, sample) => ({ claims: gradings[sample] }));
    const metric = createMetric(
      { metric: "multimodal-faithfulness", samples: 3, minAgreement: 0.7 },
      { judge: model },
    );
    expect(await metric.measure(receipt)).toMatchObject({
      status: "not-evaluable",
      reason: "the judge's 3 gradings disagreed (0.50, 1.00, 0.50)",
    });
  });
});

describe("a decided verdict the samples split on says so in its reason", () => {
  const refund: TestCase = {
    input: "Refund 30 EUR on order 4521",
    availableTools: [{ name: "get_order" }, { name: "refund_order" }],
    toolsCalled: [
      { name: "get_order", arguments: { order: "4521" } },
      { name: "refund_order", arguments: { order: "4521", amount: 30 } },
    ] as never,
  };

  it("argument-correctness: each call whose samples split, right ones included", async () => {
    // Samples 0 and 1 find both calls right; sample 2 finds the refund wrong.
    const { model } = fakeJudge((_, sample) => ({
      calls: [
        { call: 1, reason: "the order id is the request's", verdict: "right" },
        { call: 2, reason: "30 EUR as asked", verdict: sample === 2 ? "wrong" : "right" },
      ],
    }));
    const metric = createMetric({ metric: "argument-correctness", samples: 3 }, { judge: model });
    expect(await metric.measure(refund)).toMatchObject({
      status: "scored",
      score: 1,
      reason: "called[1] refund_order: right (2 of 3 samples); 2 of 2 calls judged right.",
    });
  });

  it("task-completion: the majority verdict with its share", async () => {
    const { model } = fakeJudge((_, sample) => ({
      reason: "refunded",
      unmet: [],
      verdict: sample === 1 ? "not_completed" : "completed",
    }));
    const metric = createMetric({ metric: "task-completion", samples: 3 }, { judge: model });
    expect(await metric.measure(refund)).toMatchObject({
      status: "scored",
      reason: "completed (2 of 3 samples): refunded",
    });
  });
});
