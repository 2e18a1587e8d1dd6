import { describe, expect, it } from "vitest";
import { measureKeepingDetails } from "../core/metric.js";
import type { Metric } from "../core/metric.js";
import type { MetricResult } from "../core/metric-result.js";
import type { CaseResult } from "../core/case-result.js";
import { createSummaryBuilder } from "../core/summary.js";
import { summaryInput, toCaseRecord } from "./record.js";
import { createCaseScorer } from "./score-case.js";

/** A metric that says which way it was asked to score. */
function metric(name: string, canLeaveOut: boolean): Metric<object> {
  const scored = (how: string): MetricResult => ({
    status: "scored",
    metric: name,
    score: 1,
    threshold: 0.5,
    success: true,
    details: how,
  });
  const made: Metric<object> = {
    name,
    measure: () => Promise.resolve(scored("measure")),
    measureSync: () => scored("measureSync"),
  };
  return canLeaveOut
    ? Object.assign(made, {
        [measureKeepingDetails]: (_testCase: object, keep: string) => scored(`lean ${keep}`),
      })
    : made;
}

describe("createCaseScorer: details the caller does not keep", () => {
  const metrics = [metric("A", true), metric("B", true), metric("C", false)];
  const detailsOf = (result: CaseResult | Promise<CaseResult>): unknown[] =>
    (result as CaseResult).results.map((r) => (r.status === "scored" ? r.details : undefined));

  it("lets the metrics named leave them out, when they can, saying what is kept", () => {
    for (const keep of ["none", "failed"] as const) {
      const scorer = createCaseScorer({
        metrics,
        leanDetails: { metrics: new Set(["A", "C"]), keep },
      });
      expect(detailsOf(scorer.score({}, 0))).toEqual([
        `lean ${keep}`,
        "measureSync",
        "measureSync",
      ]);
    }
  });

  it("asks for every detail otherwise", () => {
    expect(detailsOf(createCaseScorer({ metrics }).score({}, 0))).toEqual([
      "measureSync",
      "measureSync",
      "measureSync",
    ]);
  });
});

describe("createCaseScorer: durations", () => {
  it("gives each case's duration in milliseconds, to the microsecond", () => {
    const scorer = createCaseScorer({ metrics: [metric("A", false)] });
    for (let i = 0; i < 20; i++) {
      const { durationMs } = scorer.score({}, i) as CaseResult;
      expect(durationMs).toBeGreaterThanOrEqual(0);
      expect(Math.abs(durationMs * 1000 - Math.round(durationMs * 1000))).toBeLessThan(1e-6);
    }
  });
});

describe("createCaseScorer: a case past the size limits", () => {
  it("is that case's LIMIT_EXCEEDED error, with its line; the cases around it are scored", () => {
    const scorer = createCaseScorer({ metrics: [metric("A", false)] });
    const long = { id: "long", line: 2, turns: Array.from({ length: 10_001 }, () => ({})) };
    const results = [{ id: "a", line: 1 }, long, { id: "b", line: 3 }].map(
      (item, at) => scorer.score(item, at) as CaseResult,
    );
    expect(results.map((result) => result.status)).toEqual(["passed", "error", "passed"]);
    expect(results[1].error).toEqual({
      code: "LIMIT_EXCEEDED",
      message:
        "the conversation has 10001 turns, over the 10000 a case may have (see docs/reference/limits.md): split it into cases",
      line: 2,
      field: "turns",
    });
  });
});

describe("createCaseScorer: options for a metric the run does not use", () => {
  it("scores the case and says, once, what was left unused; a near miss is the case's error", () => {
    const scorer = createCaseScorer({
      metrics: [{ ...metric("A", false), id: "tool-call-accuracy" }],
    });
    const flat = scorer.score(
      { id: "a", metricOptions: { "tool-selection": { threshold: 0.5 } } },
      0,
    ) as CaseResult;
    expect(flat.status).toBe("passed");
    expect(flat.notes).toEqual([
      'metricOptions.tool-selection is not used: "tool-selection", which is not a metric of this run (tool-call-accuracy)',
    ]);
    const turned = scorer.score(
      {
        id: "b",
        metricOptions: { "tool-selection": {} },
        turns: [{ metricOptions: { "tool-selection": {} } }, {}],
      },
      1,
    ) as CaseResult;
    expect(turned.status).toBe("passed");
    expect(turned.notes).toEqual([
      'metricOptions.tool-selection is not used: "tool-selection", which is not a metric of this run (tool-call-accuracy)',
    ]);
    // A near miss of the run's metric is a typo, and the case's error.
    const typo = scorer.score(
      { id: "d", turns: [{ metricOptions: { "tool-call-acuracy": {} } }] },
      3,
    ) as CaseResult;
    expect(typo.error).toMatchObject({
      field: "turns[0].metricOptions.tool-call-acuracy",
      message:
        'turns[0].metricOptions names "tool-call-acuracy", which is not a metric of this run (tool-call-accuracy): did you mean "tool-call-accuracy"?',
    });
    expect((scorer.score({ id: "c" }, 2) as CaseResult).notes).toBeUndefined();
  });
});

describe("createCaseScorer: an order mode's old name in a case", () => {
  it("is read, and a note gives the new name", () => {
    const scorer = createCaseScorer({
      metrics: [
        { ...metric("A", false), id: "tool-call-accuracy", withOptions: () => metric("A", false) },
      ],
    });
    const scored = scorer.score(
      { id: "a", metricOptions: { "tool-call-accuracy": { order: "superset" } } },
      0,
    ) as CaseResult;
    expect(scored.status).toBe("passed");
    expect(scored.notes).toEqual([
      'metricOptions.tool-call-accuracy.order: "superset" is the old name of "all-expected" (every expected call must be made; other calls are fine); write "all-expected"',
    ]);
  });
});

describe("createCaseScorer: a run its simulated user spoiled", () => {
  it("is not evaluable by any metric, with the simulator's fault as the reason; the summary counts it apart", () => {
    const scorer = createCaseScorer({ metrics: [metric("A", false), metric("B", false)] });
    const spoiled = scorer.score(
      { id: "x", simulatorFault: 'turn 2: the simulated user said "555-0100"' },
      0,
    ) as CaseResult;
    expect(spoiled).toMatchObject({ status: "not-evaluable", simulatorFault: true });
    expect(spoiled.results).toEqual(
      ["A", "B"].map((name) => ({
        metric: name,
        status: "not-evaluable",
        reason: 'not the agent\'s to answer for: turn 2: the simulated user said "555-0100"',
      })),
    );
    const builder = createSummaryBuilder(["A", "B"]);
    builder.add(spoiled);
    builder.add(scorer.score({ id: "y" }, 1) as CaseResult);
    // Read back from its record, as a resumed run or a report adds it up.
    builder.add(summaryInput(toCaseRecord(spoiled)));
    const summary = builder.summary({ durationMs: 0 });
    expect(summary).toMatchObject({ cases: 3, passed: 1, notEvaluable: 2, simulatorFaults: 2 });
    expect(summary.metrics[0]).toMatchObject({ notEvaluable: 2, scored: 1 });
    // A run without any has no such count.
    const plain = createSummaryBuilder(["A"]);
    plain.add(scorer.score({ id: "y" }, 1) as CaseResult);
    expect(plain.summary({ durationMs: 0 })).not.toHaveProperty("simulatorFaults");
  });
});

describe("createCaseScorer: a metric of the whole run", () => {
  it("scores a conversation once, on all its calls and what it spent, its turns skipped", async () => {
    const { efficiency } = await import("../metrics/efficiency.js");
    const { toolCallAccuracy } = await import("../metrics/tool-call-accuracy.js");
    const scorer = createCaseScorer({
      metrics: [
        efficiency({ maxCalls: 2, maxTokens: 500 }),
        toolCallAccuracy(),
      ] as Metric<object>[],
    });
    const call = (name: string) => ({ name, inputParameters: {}, output: "ok", type: "FUNCTION" });
    const conversation = {
      id: "c",
      toolsCalled: [call("a"), call("b"), call("c")],
      spend: { inputTokens: 300, outputTokens: 100 },
      turns: [
        {
          input: "one",
          toolsCalled: [call("a"), call("b")],
          expectedTools: [call("a"), call("b")],
        },
        { input: "two", toolsCalled: [call("c")], expectedTools: [call("c")] },
      ],
    };
    const result = await scorer.score(conversation, 0);
    const [whole, matched] = result.results;
    expect(whole).toMatchObject({ status: "scored", score: 2 / 3, success: false });
    expect(whole.status === "scored" && whole.reason).toContain(
      "3 calls, 400 tokens (300 in, 100 out); over 1 of 3 budgets: maxCalls 3 > 2",
    );
    expect(matched).toMatchObject({ status: "scored", success: true });
    // Each turn passed the matcher; the whole run's budget failed the case.
    expect(result.status).toBe("failed");
    expect(result.turns).toEqual(["passed", "passed"]);
  });
});
