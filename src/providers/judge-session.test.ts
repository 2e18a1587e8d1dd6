import { describe, expect, it } from "vitest";
import { InvalidOptionError, ProviderCallError } from "../core/errors.js";
import type { JudgeCache, JudgeRequest, JudgeResponse } from "../core/judge.js";
import { closedPort, judgeRequest, useLlmServer } from "../../test/support/judge-fixtures.js";
import { createJudgeSession } from "./judge-session.js";
import { createOpenAIJudge } from "./openai.js";

const ask = (n: number): JudgeRequest => judgeRequest(`question ${n}`, { withReason: false });

function memoryCache(): JudgeCache & { entries: Map<string, JudgeResponse> } {
  const entries = new Map<string, JudgeResponse>();
  return {
    entries,
    get: (key) => Promise.resolve(entries.get(key)),
    set: (key, response) => {
      entries.set(key, response);
      return Promise.resolve();
    },
  };
}

const server = useLlmServer({ answer: () => ({ score: 1 }) });

const model = (name = "gpt-4.1") =>
  createOpenAIJudge({ model: name, apiKey: "k", baseURL: server().openaiBaseURL, maxRetries: 0 });

describe("createJudgeSession", () => {
  it("never has more calls in flight than its concurrency", async () => {
    server().latencyMs = 60;
    const session = createJudgeSession(model(), { concurrency: 4 });
    const start = performance.now();
    await Promise.all(Array.from({ length: 24 }, (_, n) => session.model.generate(ask(n))));
    const elapsed = performance.now() - start;
    expect(server().maxInFlight).toBe(4);
    // Six waves of four, 60 ms each.
    expect(elapsed).toBeGreaterThanOrEqual(6 * 60 - 5);
    expect(session.summary().calls).toBe(24);
  });

  it("asks one question once while its answer is on its way, whoever asks it again", async () => {
    server().latencyMs = 40;
    const session = createJudgeSession(model());
    const answers = await Promise.all([
      session.model.generate(ask(1)),
      session.model.generate(ask(1)),
      session.model.generate(ask(2)),
    ]);
    expect(server().modelCalls).toHaveLength(2);
    expect(answers[1]).toMatchObject({ cached: true, costUsd: 0, output: answers[0].output });
    expect(session.summary()).toMatchObject({ calls: 2, cacheHits: 1 });
    // Once answered, a later ask is a new call (no cache here).
    await session.model.generate(ask(1));
    expect(server().modelCalls).toHaveLength(3);
  });

  it("paces calls to a rate limit", async () => {
    const session = createJudgeSession(model(), { rateLimit: { limit: 2, intervalMs: 250 } });
    const start = performance.now();
    await Promise.all(Array.from({ length: 6 }, (_, n) => session.model.generate(ask(n))));
    // Windows of two: the fifth and sixth calls start 500 ms in.
    expect(performance.now() - start).toBeGreaterThanOrEqual(480);
  });

  it("answers a repeated run from the cache, with no model calls", async () => {
    const cache = memoryCache();
    const first = createJudgeSession(model(), { cache });
    await Promise.all(Array.from({ length: 5 }, (_, n) => first.model.generate(ask(n))));
    expect(first.summary()).toMatchObject({ calls: 5, cacheHits: 0, cacheMisses: 5 });
    expect(cache.entries.size).toBe(5);

    server().reset();
    const second = createJudgeSession(model(), { cache });
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, n) => second.model.generate(ask(n))),
    );
    expect(server().modelCalls).toHaveLength(0);
    expect(second.summary()).toMatchObject({
      calls: 0,
      cacheHits: 5,
      cacheMisses: 0,
      inputTokens: 0,
    });
    expect(answers[0]).toMatchObject({ output: { score: 1 }, cached: true, costUsd: 0 });
  });

  it("can refresh the cache or leave it alone", async () => {
    const cache = memoryCache();
    await createJudgeSession(model(), { cache }).model.generate(ask(1));
    server().reset();
    server().answer = () => ({ score: 0.5 });
    const refreshed = await createJudgeSession(model(), {
      cache,
      cacheMode: "refresh",
    }).model.generate(ask(1));
    expect(refreshed.output).toEqual({ score: 0.5 });
    expect(server().modelCalls).toHaveLength(1);
    const stored = [...cache.entries.values()].at(0);
    expect(stored?.output).toEqual({ score: 0.5 });
    expect(stored).not.toHaveProperty("cached");

    server().reset();
    const off = createJudgeSession(model(), { cache, cacheMode: "off" });
    await off.model.generate(ask(1));
    expect(server().modelCalls).toHaveLength(1);
    expect(off.summary()).toMatchObject({ cacheHits: 0, cacheMisses: 0 });
  });

  it("keys the cache by everything that decides the answer", async () => {
    const cache = memoryCache();
    const session = createJudgeSession(model(), { cache });
    await session.model.generate(ask(1));
    await session.model.generate({ ...ask(1), temperature: 0.5 });
    await createJudgeSession(model("gpt-4.1-mini"), { cache }).model.generate(ask(1));
    expect(cache.entries.size).toBe(3);
  });

  it("counts tokens and estimates cost from the price table", async () => {
    const session = createJudgeSession(model(), { concurrency: 2 });
    const answers = await Promise.all([0, 1, 2].map((n) => session.model.generate(ask(n))));
    const summary = session.summary();
    const input = answers.reduce((sum, a) => sum + a.usage.inputTokens, 0);
    const output = answers.reduce((sum, a) => sum + a.usage.outputTokens, 0);
    expect(summary).toMatchObject({ inputTokens: input, outputTokens: output, unpricedModels: [] });
    // gpt-4.1: $2 in, $8 out per million tokens.
    expect(summary.estimatedCostUsd).toBeCloseTo((input * 2 + output * 8) / 1e6, 12);
    expect(answers[0]?.costUsd).toBeCloseTo(
      ((answers[0]?.usage.inputTokens ?? 0) * 2 + (answers[0]?.usage.outputTokens ?? 0) * 8) / 1e6,
      12,
    );

    const local = createJudgeSession(
      createOpenAIJudge({
        model: "llama3.2",
        provider: "ollama",
        apiKey: "x",
        baseURL: server().openaiBaseURL,
      }),
    );
    await local.model.generate(ask(9));
    expect(local.summary()).toMatchObject({
      estimatedCostUsd: undefined,
      unpricedModels: ["ollama/llama3.2"],
    });
    const priced = createJudgeSession(
      createOpenAIJudge({
        model: "llama3.2",
        provider: "ollama",
        apiKey: "x",
        baseURL: server().openaiBaseURL,
      }),
      { prices: { "ollama/llama3.2": { inputPerMillion: 0, outputPerMillion: 0 } } },
    );
    await priced.model.generate(ask(9));
    expect(priced.summary().estimatedCostUsd).toBe(0);
  });

  it("counts failures and stops queued calls when aborted", async () => {
    server().fail({ kind: "status", status: 400 });
    const session = createJudgeSession(model(), { concurrency: 1 });
    await expect(session.model.generate(ask(1))).rejects.toSatisfy((e: unknown) =>
      ProviderCallError.isInstance(e),
    );
    expect(session.summary().failures).toBe(1);

    server().latencyMs = 200;
    const controller = new AbortController();
    const calls = [1, 2, 3].map((n) =>
      session.model.generate(ask(n), { signal: controller.signal }),
    );
    setTimeout(() => {
      controller.abort(new Error("stop"));
    }, 50);
    const settled = await Promise.allSettled(calls);
    expect(settled.every((s) => s.status === "rejected")).toBe(true);
    // The queued two never reached the server().
    expect(server().modelCalls.length).toBeLessThanOrEqual(2);
  });

  it("checks its options before any call", () => {
    expect(() => createJudgeSession(model(), { concurrency: 0 })).toThrow(InvalidOptionError);
    expect(() => createJudgeSession(model(), { requestsPerMinute: 1.5 })).toThrow(
      /requestsPerMinute/,
    );
    expect(() => createJudgeSession(model(), { cacheMode: "sometimes" as "use" })).toThrow(
      /cacheMode/,
    );
  });
});

describe("the judge cache keeps only usable answers (issue 22, item 4)", () => {
  it("does not keep a score of 7, and asks again once the judge is fixed", async () => {
    const { judgeToolSelection } = await import("../judges/tool-selection.js");
    const input = {
      input: "weather in Paris?",
      availableTools: [{ name: "get_weather" }],
      toolsCalled: [{ name: "get_weather" }],
    };
    const cache = memoryCache();
    server().answer = () => ({ reason: "off the scale", score: 7 });
    const broken = createJudgeSession(model(), { cache });
    await expect(judgeToolSelection(broken.model, input)).rejects.toThrow(/no usable answer/);
    expect(cache.entries.size).toBe(0);

    server().reset();
    server().answer = () => ({
      reason: "right tool",
      score: 1,
      overSelected: [],
      underSelected: [],
      misSelected: [],
    });
    const fixed = createJudgeSession(model(), { cache });
    const answer = await judgeToolSelection(fixed.model, input);
    expect(answer.value.score).toBe(1);
    expect(server().modelCalls.length).toBeGreaterThan(0);
    expect(cache.entries.size).toBe(1);
  });

  it("asks again when the cache holds an unusable answer from an older version", async () => {
    const { judgeToolSelection } = await import("../judges/tool-selection.js");
    const input = {
      input: "weather in Lyon?",
      availableTools: [{ name: "get_weather" }],
      toolsCalled: [{ name: "get_weather" }],
    };
    // What an older version kept: an answer that failed validation, under the request's key.
    const poisoned = memoryCache();
    const session = createJudgeSession(model(), { cache: poisoned });
    const request = (await import("../judges/tool-selection.js")).toolSelectionRequest(input, {
      images: session.model.supportsImages,
    });
    const key = (await import("./cache-key.js")).judgeCacheKey(session.model, request);
    poisoned.entries.set(key, {
      output: { reason: "x", score: 7 },
      text: '{"reason":"x","score":7}',
      usage: { inputTokens: 1, outputTokens: 1 },
      modelId: "gpt-4.1",
    });
    server().answer = () => ({
      reason: "ok",
      score: 0.5,
      overSelected: [],
      underSelected: [],
      misSelected: [],
    });
    const answer = await judgeToolSelection(session.model, input);
    expect(answer.value.score).toBe(0.5);
    expect(server().modelCalls).toHaveLength(1);
    expect(session.summary()).toMatchObject({ cacheHits: 0 });
  });
});

describe("a judge no call reaches (issue 49, item 4)", () => {
  it("is asked by the first calls only, and the others fail at once naming the address", async () => {
    const port = await closedPort();
    const judge = createOpenAIJudge({
      model: "gpt-4.1",
      apiKey: "k",
      baseURL: `http://127.0.0.1:${port}/v1`,
      maxRetries: 0,
    });
    const unreachable: ProviderCallError[] = [];
    const session = createJudgeSession(judge, {
      concurrency: 1,
      cacheMode: "off",
      onUnreachable: (error) => unreachable.push(error),
    });
    const errors: unknown[] = [];
    for (let n = 0; n < 10; n++) {
      await session.model.generate(ask(n)).catch((error: unknown) => errors.push(error));
    }
    expect(errors).toHaveLength(10);
    expect(session.summary()).toMatchObject({ calls: 3, failures: 10 });
    const last = errors.at(-1) as ProviderCallError;
    expect(ProviderCallError.isInstance(last)).toBe(true);
    expect(last.unreachable).toBe(true);
    expect(last.message).toContain(`127.0.0.1:${port}`);
    // One error in the same words for every case; the run is told once, to stop.
    expect(new Set(errors.map((error) => (error as Error).message)).size).toBe(1);
    expect(unreachable).toEqual([errors[0]]);
  });

  it("keeps asking a judge that has answered once", async () => {
    const session = createJudgeSession(model(), { concurrency: 1, cacheMode: "off" });
    await session.model.generate(ask(1));
    server().fail({ kind: "reset" }, { kind: "reset" }, { kind: "reset" }, { kind: "reset" });
    for (let n = 2; n < 6; n++) await session.model.generate(ask(n)).catch(() => undefined);
    expect(session.summary().calls).toBe(5);
  });
});
