import { describe, expect, it } from "vitest";
import type { JudgeModel, JudgeRequest } from "../core/judge.js";
import type { JsonValue } from "../core/json.js";
import { fakeJudge } from "../../test/support/fake-judge.js";
import type { TestCase } from "../core/test-case.js";
import { createMetric } from "../registry/metric-registry.js";
import { conversationSoFar, maxEarlierTurnsShown } from "./argument-correctness.js";

/** Every call judged `verdict`. */
const all =
  (verdict: string) =>
  (request: JudgeRequest): JsonValue => {
    const text = JSON.stringify(request.messages);
    const count = (text.match(/Call \d+:/g) ?? []).length;
    return {
      calls: Array.from({ length: count }, (_, index) => ({
        call: index + 1,
        verdict,
        reason: `call ${index + 1} is ${verdict}`,
      })),
    };
  };

const refund: TestCase = {
  input: "Refund 30 EUR on order 4521, then tell me when it is done.",
  availableTools: [
    {
      name: "refund_order",
      description: "Refunds an amount on an order.",
      parameters: {
        type: "object",
        properties: { order: { type: "string" }, amount: { type: "number" } },
      },
    },
  ],
  toolsCalled: [
    { name: "get_order", arguments: { order: "4521" }, output: { total: 120, currency: "EUR" } },
    { name: "refund_order", arguments: { order: "4521", amount: 300 }, output: "ok" },
  ] as never,
};

const metric = (model: JudgeModel, options: Record<string, unknown> = {}) =>
  createMetric({ metric: "argument-correctness", ...options }, { judge: model });

describe("argument-correctness", () => {
  it("shows the judge the request, the tools with their schemas, and every call with its output", async () => {
    const { model, asked } = fakeJudge(all("right"));
    await metric(model).measure(refund);
    expect(asked).toHaveLength(1);
    const [system, user] = asked[0].messages;
    expect(system.content).toContain("cannot_tell");
    const text = JSON.stringify(user.content);
    for (const part of [
      "Refund 30 EUR on order 4521",
      "refund_order: Refunds an amount on an order.",
      '\\"amount\\":{\\"type\\":\\"number\\"}',
      'Call 2: refund_order({\\"order\\":\\"4521\\",\\"amount\\":300})',
      'Returned: {\\"total\\":120,\\"currency\\":\\"EUR\\"}',
    ]) {
      expect(text).toContain(part);
    }
    expect(asked[0].temperature).toBe(0);
  });

  it("scores 1 when every call is judged right and 0 when every call is judged wrong", async () => {
    const right = await metric(fakeJudge(all("right")).model).measure(refund);
    expect(right).toMatchObject({ status: "scored", score: 1, success: true });
    const wrong = await metric(fakeJudge(all("wrong")).model).measure(refund);
    expect(wrong).toMatchObject({ status: "scored", score: 0, success: false });
    expect(wrong.status === "scored" && wrong.reason).toContain(
      "called[1] refund_order: call 2 is wrong",
    );
  });

  it("is not evaluable when the verdict hangs on a call the judge cannot tell", async () => {
    const { model } = fakeJudge(() => ({
      calls: [
        { call: 1, verdict: "right", reason: "order 4521 as asked" },
        { call: 2, verdict: "cannot_tell", reason: "the refund's output is missing" },
      ],
    }));
    const result = await metric(model).measure(refund);
    expect(result).toMatchObject({
      status: "not-evaluable",
      reason: expect.stringContaining(
        "called[1] refund_order: cannot tell: the refund's output is missing",
      ) as string,
    });
    // With a threshold the known verdicts already meet, the case is scored.
    expect(await metric(model, { threshold: 0.5 }).measure(refund)).toMatchObject({
      status: "scored",
      score: 0.5,
      success: true,
    });
  });

  it("asks n samples, kept apart, takes the majority, and is not evaluable when they disagree", async () => {
    const agreeing = fakeJudge((request, sample) => all(sample === 1 ? "wrong" : "right")(request));
    const three = await metric(agreeing.model, { samples: 3 }).measure(refund);
    expect(agreeing.asked.map((request) => request.sample)).toEqual([0, 1, 2]);
    expect(agreeing.asked.every((request) => request.temperature === 0.7)).toBe(true);
    expect(three).toMatchObject({ status: "scored", score: 1 });
    const details = (three as { details: { calls: { agreement: number; samples: string[] }[] } })
      .details;
    expect(details.calls[1]).toMatchObject({
      agreement: 2 / 3,
      samples: ["right", "wrong", "right"],
    });

    const split = fakeJudge((request, sample) => all(sample === 0 ? "right" : "wrong")(request));
    const two = await metric(split.model, { samples: 2 }).measure(refund);
    expect(two).toMatchObject({
      status: "not-evaluable",
      reason: expect.stringContaining(
        "the judge's 2 answers disagreed (right 1, wrong 1)",
      ) as string,
    });
  });

  it("asks again when an answer leaves out a call, then records an error, never a default", async () => {
    let calls = 0;
    const { model } = fakeJudge((request) => {
      calls++;
      return calls === 1
        ? { calls: [{ call: 1, verdict: "right", reason: "ok" }] }
        : all("right")(request);
    });
    expect(await metric(model).measure(refund)).toMatchObject({ status: "scored", score: 1 });
    const never = fakeJudge(() => ({ calls: [] }));
    expect(await metric(never.model).measure(refund)).toMatchObject({
      status: "error",
      error: { code: "JUDGE_RESPONSE" },
    });
    expect(never.asked).toHaveLength(3);
  });

  it("skips a case without calls, and refuses options a case may not set", async () => {
    const { model, asked } = fakeJudge(all("right"));
    expect(await metric(model).measure({ input: "hi", toolsCalled: [] })).toMatchObject({
      status: "skipped",
    });
    expect(asked).toHaveLength(0);
    expect(() => metric(model).withOptions?.({ samples: 5 })).toThrow(/samples/);
    expect(() => createMetric({ metric: "argument-correctness" })).toThrow(/judge/);
  });
});

describe("conversationSoFar", () => {
  const turns = Array.from({ length: 500 }, (_, at) => ({
    input: `message ${at + 1}`,
    toolsCalled: [],
    replies: [`reply ${at + 1}`],
  }));
  const text = (at: number) =>
    conversationSoFar({ turns, at })
      .map((part) => part.text)
      .join("");

  it("shows the latest earlier turns, and says how many are left out", () => {
    const shown = text(499);
    expect(shown).toContain(
      `(turns 1 to ${499 - maxEarlierTurnsShown} are not shown: only the latest ${maxEarlierTurnsShown} earlier turns are)`,
    );
    expect(shown).not.toContain("message 479\n");
    expect(shown).toContain("### Turn 480\nThe user said:\n```\nmessage 480\n```");
    expect(shown).toContain("reply 499");
    expect(shown).not.toContain("message 500");
    expect(shown.match(/### Turn /g)).toHaveLength(maxEarlierTurnsShown);
  });

  it("shows every earlier turn of a short conversation, and nothing for its first", () => {
    expect(text(3).match(/### Turn /g)).toHaveLength(3);
    expect(text(3)).not.toContain("not shown");
    expect(conversationSoFar({ turns, at: 0 })).toEqual([]);
    expect(conversationSoFar(undefined)).toEqual([]);
  });
});
