import { describe, expect, it } from "vitest";
import type { JudgeRequest } from "../core/judge.js";
import type { JsonValue } from "../core/json.js";
import type { TestCase } from "../core/test-case.js";
import { fakeJudge } from "../../test/support/fake-judge.js";
import { judgeCacheKey } from "../providers/cache-key.js";
import { createMetric } from "../registry/metric-registry.js";
import { match } from "../matchers/value-matchers.js";
import { bandVerdict, decisionBandOption, defaultDecisionBand } from "./decisions.js";

const refund: TestCase = {
  input: "Refund 30 EUR on order 4521, then tell me when it is done.",
  availableTools: [
    { name: "get_order", description: "Reads an order." },
    { name: "refund_order", description: "Refunds an amount on an order." },
  ],
  toolsCalled: [
    { name: "get_order", arguments: { order: "4521" }, output: { total: 120 } },
    { name: "refund_order", arguments: { order: "4521", amount: 300 }, output: "ok" },
  ] as never,
  actualOutput: "Refunded.",
};

/** A decision judge that answers each yes-no question with `p[id]`, each other question with `other`. */
function decider(
  p: Record<string, number | null>,
  other: Record<string, Record<string, number> | null> = {},
) {
  return fakeJudge(
    (request: JudgeRequest): JsonValue => ({
      answers: Object.fromEntries(
        (request.decision?.questions ?? []).map((question) => {
          const given = p[question.id];
          if (question.type !== "yes-no") return [question.id, other[question.id] ?? null];
          return [question.id, given === null ? null : { yes: given, no: 1 - given }];
        }),
      ),
    }),
    { decisions: true },
  );
}

const metric = (id: string, model: ReturnType<typeof decider>["model"], options = {}) =>
  createMetric({ metric: id, ...options }, { judge: model });

describe("judges on decision models", () => {
  it("asks argument-correctness as one yes-no question per call, and reads verdicts through the band", async () => {
    const { model, asked } = decider({ call_1: 0.93, call_2: 0.08 });
    const result = await metric("argument-correctness", model, { samples: 5 }).measure(refund);
    // A decision model is asked once, however many samples: its answer is a distribution already.
    expect(asked).toHaveLength(1);
    const questions = asked[0].decision?.questions ?? [];
    expect(questions.map((question) => [question.type, question.id])).toEqual([
      ["yes-no", "call_1"],
      ["yes-no", "call_2"],
    ]);
    expect(questions[1].instructions).toContain("call 2 (refund_order)");
    // The case is shown as the chat judge is shown it, fenced; the instructions are the decision form.
    expect(JSON.stringify(asked[0].messages[1].content)).toContain("Call 2: refund_order");
    expect(JSON.stringify(asked[0].messages[0].content)).not.toContain('\\"cannot_tell\\"');
    expect(result).toMatchObject({ status: "scored", score: 0.5 });
    if (result.status !== "scored") return;
    expect(result.reason).toContain("called[1] refund_order: P(right) 0.08");
    const calls = (result.details as { calls: { verdict: string; probability: number }[] }).calls;
    expect(calls.map((call) => [call.verdict, call.probability])).toEqual([
      ["right", 0.93],
      ["wrong", 0.08],
    ]);
  });

  it("leaves a probability inside the band undecided, and a case it decides not evaluable", async () => {
    const { model } = decider({ call_1: 0.95, call_2: 0.5 });
    const result = await metric("argument-correctness", model).measure(refund);
    expect(result.status).toBe("not-evaluable");
    if (result.status !== "not-evaluable") return;
    expect(result.reason).toContain("called[1] refund_order: cannot tell: P(right) 0.50");
    // A narrower band decides it.
    const narrow = await metric("argument-correctness", model, { band: [0.4, 0.45] }).measure(
      refund,
    );
    expect(narrow).toMatchObject({ status: "scored", score: 1 });
  });

  it("counts a question the model declined as cannot tell", async () => {
    const { model } = decider({ call_1: 0.9, call_2: null });
    const result = await metric("argument-correctness", model).measure(refund);
    expect(result.status).toBe("not-evaluable");
    if (result.status === "not-evaluable") expect(result.reason).toContain("declined to answer");
  });

  it("asks task-completion as a choice, completed when P(completed) reaches the band", async () => {
    const answer = (completed: number, partly: number) => ({
      task: { completed, partially_completed: partly, not_completed: 1 - completed - partly },
    });
    const cases: [ReturnType<typeof answer>, string, number | undefined][] = [
      [answer(0.9, 0.05), "scored", 1],
      [answer(0.5, 0.3), "not-evaluable", undefined],
      [answer(0.1, 0.6), "scored", 0.5],
      [answer(0.1, 0.2), "scored", 0],
    ];
    for (const [given, status, score] of cases) {
      const { model, asked } = decider({}, given);
      const result = await metric("task-completion", model).measure(refund);
      expect(asked[0].decision?.questions[0]).toMatchObject({ type: "choice", id: "task" });
      expect(result.status).toBe(status);
      if (result.status === "scored") expect(result.score).toBe(score);
    }
  });

  it("rates tool-selection on the scale: the chance of reaching the threshold decides, the score stays on its side", async () => {
    const levels = (...p: number[]) => ({
      selection: Object.fromEntries(p.map((v, i) => [String(i), v])),
    });
    const pass = decider({}, levels(0, 0.05, 0.05, 0.3, 0.6));
    const passed = await metric("tool-selection", pass.model).measure(refund);
    expect(pass.asked[0].decision?.questions[0]).toMatchObject({ type: "score", id: "selection" });
    expect(passed.status).toBe("scored");
    if (passed.status === "scored") {
      // P(score >= 0.5) = 0.95; the expected rating over 0.5, 0.75 and 1.
      expect(passed.score).toBeCloseTo((0.05 * 0.5 + 0.3 * 0.75 + 0.6) / 0.95, 10);
      expect(passed.reason).toContain("P(score >= 0.5) 0.95");
    }
    const fail = await metric(
      "tool-selection",
      decider({}, levels(0.7, 0.2, 0.1, 0, 0)).model,
    ).measure(refund);
    expect(fail).toMatchObject({ status: "scored" });
    if (fail.status === "scored") expect(fail.score).toBeCloseTo((0.2 * 0.25) / 0.9, 10);
    const unsure = await metric(
      "tool-selection",
      decider({}, levels(0.2, 0.2, 0.2, 0.2, 0.2)).model,
    ).measure(refund);
    expect(unsure.status).toBe("not-evaluable");
  });

  it("asks a distribution that does not sum to 1 again, then records the case's error", async () => {
    const broken = fakeJudge(
      (request) => ({
        answers: Object.fromEntries(
          (request.decision?.questions ?? []).map((question) => [
            question.id,
            { yes: 0.9, no: 0.9 },
          ]),
        ),
      }),
      { decisions: true },
    );
    const result = await metric("argument-correctness", broken.model).measure(refund);
    expect(result.status).toBe("error");
    if (result.status === "error") expect(result.error.message).toContain("sum to 1.800, not 1");
    expect(broken.asked).toHaveLength(3);
  });

  it("refuses a decision model where the metric wants free text, naming the metric", () => {
    const { model } = decider({});
    expect(() => metric("multimodal-faithfulness", model)).toThrow(
      /fake\/judge-1 is a decision model: .*multimodal-faithfulness asks its judge for free text/,
    );
  });

  it("checks the band option", () => {
    expect(decisionBandOption("x.band", undefined)).toEqual(defaultDecisionBand);
    expect(decisionBandOption("x.band", [0.2, 0.9])).toEqual({ low: 0.2, high: 0.9 });
    for (const bad of [[0.9, 0.2], [0, 1.5], "0.5", [0.5]]) {
      expect(() => decisionBandOption("x.band", bad)).toThrow(/x\.band must be \[low, high\]/);
    }
    expect([0.25, 0.5, 0.75].map((p) => bandVerdict(p, defaultDecisionBand))).toEqual([
      "fail",
      "cannot_tell",
      "pass",
    ]);
  });

  it("keeps answers to different questions apart in a judge cache, and chat keys unchanged", () => {
    const { model } = decider({});
    const base: JudgeRequest = {
      messages: [{ role: "user", content: "x" }],
      schema: { name: "s", schema: {} },
    };
    const ask = (instructions: string): JudgeRequest => ({
      ...base,
      decision: { questions: [{ type: "yes-no", id: "q", instructions }] },
    });
    expect(judgeCacheKey(model, ask("a"))).not.toBe(judgeCacheKey(model, ask("b")));
    expect(judgeCacheKey(model, base)).not.toBe(judgeCacheKey(model, ask("a")));
  });
});

describe("judged values on a decision model", () => {
  it("asks whether the value meets its criterion, and reads the verdict through the band", async () => {
    const judge = fakeJudge(
      (request): JsonValue => {
        const text = JSON.stringify(request.messages).split("## The value\\n")[1] ?? "";
        const p = text.includes("30 EUR") ? 0.9 : text.includes("soon") ? 0.5 : 0.1;
        return { answers: { meets: { yes: p, no: 1 - p } } };
      },
      { decisions: true },
    );
    const accuracy = createMetric({ metric: "tool-call-accuracy" }, { judge: judge.model });
    const expectedTools = [
      { name: "send_email", arguments: { body: match.judged("names the refund amount") } },
    ];
    const measure = (body: string) =>
      accuracy.measure({
        input: "Refund 30 EUR and tell the customer",
        toolsCalled: [{ name: "send_email", arguments: { body } }] as never,
        expectedTools: expectedTools as never,
      });
    expect(await measure("30 EUR is on its way back.")).toMatchObject({ score: 1, success: true });
    expect(judge.asked[0].decision?.questions).toEqual([
      { type: "yes-no", id: "meets", instructions: "Does the value meet the criterion?" },
    ]);
    const fails = await measure("Sorry for the trouble.");
    expect(fails).toMatchObject({ success: false });
    expect((fails as { reason: string }).reason).toContain("P(meets) 0.10");
    expect((await measure("Your refund is coming soon.")).status).toBe("not-evaluable");
  });
});
