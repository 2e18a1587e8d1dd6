import { describe, expect, it } from "vitest";
import type { JudgeBatchApi, JudgeRequest, JudgeResponse } from "../core/judge.js";
import type { JsonValue } from "../core/json.js";
import { match } from "../matchers/value-matchers.js";
import { createJudgeSession } from "../providers/judge-session.js";
import { fakeJudge } from "../../test/support/fake-judge.js";
import { evaluateToFile } from "./evaluate-to-file.js";
import type { EvaluateToFileOptions } from "./run-options.js";

/** A judge that reads the case from its prompt: an order refunded in full is right. */
function answer(request: JudgeRequest): JsonValue {
  const text = JSON.stringify(request.messages);
  const full = text.includes("120");
  switch (request.schema.name) {
    case "task_completion_verdict":
      return full
        ? { reason: "the order was refunded in full", unmet: [], verdict: "completed" }
        : {
            reason: "only part was refunded",
            unmet: ["the full refund"],
            verdict: "partially_completed",
          };
    case "judged_value_verdict":
      return {
        reason: full ? "it names the amount" : "no amount",
        verdict: full ? "meets" : "fails",
      };
    default:
      throw new Error(`unexpected question ${request.schema.name}`);
  }
}

const cases = [120, 30, 120, 45].map((amount, at) => ({
  id: `refund-${at + 1}`,
  input: `Refund order ${4500 + at} in full: 120 EUR.`,
  toolsCalled: [
    {
      name: "refund_order",
      arguments: { order: `${4500 + at}`, amount, note: `refunded ${amount} EUR` },
    },
  ],
  expectedTools: [
    {
      name: "refund_order",
      arguments: {
        order: `${4500 + at}`,
        amount: 120,
        note: match.judged("names the full amount, 120 EUR"),
      },
    },
  ],
}));

const metrics = [{ metric: "task-completion" }, { metric: "tool-call-accuracy" }];

async function scoresOf(options: Partial<EvaluateToFileOptions>) {
  const results: unknown[] = [];
  const run = await evaluateToFile({
    testCases: cases,
    metrics,
    onResult: (result) => results.push(result),
    ...options,
  });
  // Durations differ run to run; the rest is compared.
  const timeless = (results as { index: number }[]).map((result) => ({ ...result, durationMs: 0 }));
  return { run, results: timeless.sort((a, b) => a.index - b.index) };
}

describe("batch mode of a run", () => {
  it("gives the results a run without batches gives, every question sent once in one batch", async () => {
    const direct = fakeJudge(answer);
    const plain = await scoresOf({ judge: direct.model });
    const batched = fakeJudge(answer, { batch: true });
    const submitted: unknown[] = [];
    const viaBatch = await scoresOf({
      judge: batched.model,
      batch: { intervalSeconds: 0, onSubmit: (event) => submitted.push(event) },
    });
    expect(viaBatch.results).toEqual(plain.results);
    expect(plain.run.summary.passed).toBe(2);
    // Four task-completion questions and four judged values, asked once each, none directly.
    expect(batched.asked).toEqual([]);
    expect(batched.batches.map((batch) => batch.length)).toEqual([8]);
    expect(submitted).toEqual([{ round: 1, requests: 8 }]);
    expect(
      batched.batches[0]
        .map((entry) => entry.request)
        .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
    ).toEqual([...direct.asked].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)));
  });

  it("sends an answer asked again (one that did not fit its schema) in the next batch", async () => {
    let first = true;
    const flaky = fakeJudge(
      (request) => {
        if (request.schema.name === "task_completion_verdict" && first) {
          first = false;
          return { verdict: "maybe" };
        }
        return answer(request);
      },
      { batch: true },
    );
    const { results } = await scoresOf({
      judge: flaky.model,
      batch: { intervalSeconds: 0 },
      testCases: cases.slice(0, 1),
    });
    expect(flaky.batches.map((batch) => batch.length)).toEqual([2, 1]);
    expect(flaky.asked).toEqual([]);
    expect(results[0]).toMatchObject({ status: "passed" });
  });

  it("goes through a session: its cache answers the next run, which sends no batch", async () => {
    const entries = new Map<string, JudgeResponse>();
    const cache = {
      get: async (key: string) => {
        await Promise.resolve();
        return entries.get(key);
      },
      set: (key: string, value: JudgeResponse) => {
        entries.set(key, value);
        return Promise.resolve();
      },
    };
    const fake = fakeJudge(answer, { batch: true });
    const first = createJudgeSession(fake.model, { cache });
    const one = await scoresOf({
      judge: first.model,
      batch: { session: first, intervalSeconds: 0 },
    });
    expect(first.summary()).toMatchObject({ batchedRequests: 8, calls: 0 });
    const second = createJudgeSession(fake.model, { cache });
    const two = await scoresOf({
      judge: second.model,
      batch: { session: second, intervalSeconds: 0 },
    });
    // The same verdicts, now from the cache.
    const verdicts = (results: unknown[]) =>
      (results as { results: { score: number; reason: string }[] }[]).map((result) =>
        result.results.map(({ score, reason }) => ({ score, reason })),
      );
    expect(verdicts(two.results)).toEqual(verdicts(one.results));
    expect(fake.batches).toHaveLength(1);
    expect(second.summary()).toMatchObject({ batchedRequests: 0, calls: 0, cacheHits: 8 });
  });

  it("fails the run, writing nothing, when the batch fails; needs a judge", async () => {
    const fake = fakeJudge(answer, { batch: true });
    const failing = {
      ...fake.model,
      batch: {
        ...(fake.model.batch as JudgeBatchApi),
        status: (id: string) =>
          Promise.resolve({
            id,
            state: "failed" as const,
            counts: { total: 8, succeeded: 0, failed: 8 },
            message: "quota exceeded",
          }),
      },
    };
    await expect(scoresOf({ judge: failing, batch: { intervalSeconds: 0 } })).rejects.toThrow(
      /batch batch-1 failed: quota exceeded/,
    );
    await expect(scoresOf({ batch: { intervalSeconds: 0 } })).rejects.toThrow(
      /batch mode sends the judge's questions in batches: give a judge too/,
    );
    await expect(
      scoresOf({ judge: fake.model, batch: { intervalSeconds: 0, rounds: 0 } }),
    ).rejects.toThrow(/batch.rounds/);
  });
});
