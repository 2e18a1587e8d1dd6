/**
 * Batch judging end to end over loopback HTTP: the OpenAI Batch API and Anthropic Message
 * Batches, results mapped back by custom id, failures retried or reported per request, a
 * restarted run resuming the batch it submitted, and the cache in front.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProviderCallError } from "../src/core/errors.js";
import type { JudgeBatchRequest, JudgeModel, JudgeResponse } from "../src/core/judge.js";
import { createFileBatchStore } from "../src/node/file-batch-store.js";
import { createFileJudgeCache } from "../src/node/file-judge-cache.js";
import { createAnthropicJudge } from "../src/providers/anthropic.js";
import { runJudgeBatch } from "../src/providers/judge-batch.js";
import { createJudgeSession } from "../src/providers/judge-session.js";
import { createOpenAIJudge } from "../src/providers/openai.js";
import { judgeRequest, useLlmServer } from "./support/judge-fixtures.js";

const requests: JudgeBatchRequest[] = ["case-1", "case-2", "case-3", "case-4"].map((customId) => ({
  customId,
  request: judgeRequest(`Judge ${customId}`, { withReason: false }),
}));

const server = useLlmServer();
let directory: string;
beforeEach(() => {
  server().batchPolls = 3;
  server().batchFailures = () => undefined;
  server().answer = ({ prompt }) => ({ score: Number(/case-(\d)/.exec(prompt)?.[1] ?? 0) / 4 });
  directory = mkdtempSync(path.join(tmpdir(), "toolscore-batch-"));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const providers: [string, () => JudgeModel, string][] = [
  [
    "OpenAI",
    () =>
      createOpenAIJudge({
        model: "gpt-4.1",
        apiKey: "k",
        baseURL: server().openaiBaseURL,
        maxRetries: 0,
      }),
    "/v1/batches",
  ],
  [
    "Anthropic",
    () =>
      createAnthropicJudge({
        model: "claude-sonnet-4-5",
        apiKey: "k",
        baseURL: server().anthropicBaseURL,
        maxRetries: 0,
      }),
    "/v1/messages/batches",
  ],
];

const scores = (outcome: Map<string, JudgeResponse | ProviderCallError>) =>
  Object.fromEntries(
    [...outcome].map(([id, result]) => [
      id,
      result instanceof Error ? result.message : result.output,
    ]),
  );

describe.each(providers)("%s batches", (_name, makeModel, batchPath) => {
  it("submit, poll every interval, and map each result back by custom id", async () => {
    const start = performance.now();
    const outcome = await runJudgeBatch(makeModel(), requests, {
      intervalSeconds: 0.05,
      maxIterations: 10,
    });
    expect(scores(outcome)).toEqual({
      "case-1": { score: 0.25 },
      "case-2": { score: 0.5 },
      "case-3": { score: 0.75 },
      "case-4": { score: 1 },
    });
    const polls = server().requests.filter(
      (r) =>
        r.method === "GET" && r.path.startsWith(`${batchPath}/`) && !r.path.endsWith("/results"),
    );
    expect(polls.length).toBeGreaterThanOrEqual(3);
    // Two waits of 50 ms between three checks.
    expect(performance.now() - start).toBeGreaterThanOrEqual(95);
    expect(server().modelCalls).toHaveLength(0);
  });

  it("asks failed requests again on their own, or reports them", async () => {
    server().batchFailures = (id) =>
      id === "case-2"
        ? { status: 500, message: "overloaded" }
        : id === "case-3"
          ? { status: 400, message: "bad request" }
          : undefined;
    const outcome = await runJudgeBatch(makeModel(), requests, { intervalSeconds: 0.01 });
    expect(outcome.get("case-2")).toMatchObject({ output: { score: 0.5 } });
    const failed = outcome.get("case-3");
    expect(ProviderCallError.isInstance(failed)).toBe(true);
    expect((failed as Error).message).toContain("bad request");
    expect(server().modelCalls).toHaveLength(1);

    server().reset();
    const reported = await runJudgeBatch(makeModel(), requests, {
      intervalSeconds: 0.01,
      retryFailed: "report",
    });
    expect(ProviderCallError.isInstance(reported.get("case-2"))).toBe(true);
    expect(server().modelCalls).toHaveLength(0);
  });

  it("resumes a submitted batch after a restart instead of submitting again", async () => {
    const store = createFileBatchStore(directory);
    server().batchPolls = 4;
    // The first run gives up after two checks (as a crash or a timeout would end it)...
    const first = await runJudgeBatch(makeModel(), requests, {
      intervalSeconds: 0.01,
      maxIterations: 2,
      store,
    }).catch((e: unknown) => e);
    expect(first).toMatchObject({ code: "PROVIDER_CALL" });
    expect((first as Error).message).toMatch(/run again to resume it \(its id is saved\)/);
    const submissions = () =>
      server().requests.filter((r) => r.method === "POST" && r.path === batchPath).length;
    expect(submissions()).toBe(1);
    // ...and the second, a new process with the same store, polls the same batch to the end.
    const second = await runJudgeBatch(makeModel(), requests, {
      intervalSeconds: 0.01,
      store: createFileBatchStore(directory),
    });
    expect(submissions()).toBe(1);
    expect(second.size).toBe(4);
    // Done: the saved id is cleared, so a later run starts afresh.
    await runJudgeBatch(makeModel(), requests, { intervalSeconds: 0.01, store });
    expect(submissions()).toBe(2);
  });

  it("goes through the session's cache: a repeated run sends nothing", async () => {
    const cache = createFileJudgeCache(path.join(directory, "cache"));
    const first = createJudgeSession(makeModel(), { cache });
    await first.runBatch(requests, { intervalSeconds: 0.01 });
    expect(first.summary()).toMatchObject({ batchedRequests: 4, cacheMisses: 4, calls: 0 });
    expect(first.summary().inputTokens).toBeGreaterThan(0);

    server().reset();
    const second = createJudgeSession(makeModel(), { cache });
    const outcome = await second.runBatch(requests, { intervalSeconds: 0.01 });
    expect(server().requests).toHaveLength(0);
    expect(second.summary()).toMatchObject({ batchedRequests: 0, cacheHits: 4 });
    expect(outcome.get("case-4")).toMatchObject({ output: { score: 1 }, cached: true });
  });
});

describe("batch failures", () => {
  it("reports a batch that failed as a whole", async () => {
    const model = createOpenAIJudge({
      model: "gpt-4.1",
      apiKey: "k",
      baseURL: server().openaiBaseURL,
    });
    const api = model.batch as NonNullable<JudgeModel["batch"]>;
    const failing: JudgeModel = {
      ...model,
      batch: {
        ...api,
        async submit(entries, options) {
          const id = await api.submit(entries, options);
          server().failBatch(id);
          return id;
        },
      },
    };
    const error = await runJudgeBatch(failing, requests, { intervalSeconds: 0.01 }).catch(
      (e: unknown) => e,
    );
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/batch .* failed/);
  });

  it("refuses batch mode for a provider without a batch API", async () => {
    const local = createOpenAIJudge({
      model: "llama3.2",
      provider: "ollama",
      apiKey: "x",
      baseURL: server().openaiBaseURL,
    });
    expect(local.batch).toBeUndefined();
    await expect(runJudgeBatch(local, requests)).rejects.toMatchObject({
      code: "PROVIDER_CONFIG",
    });
  });
});
