import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileBatchStore } from "../../node/file-batch-store.js";
import { createFileJudgeCache } from "../../node/file-judge-cache.js";
import { createJudgeSession } from "../../providers/judge-session.js";
import { createOpenAIJudge } from "../../providers/openai.js";
import { useLlmServer } from "../../../test/support/judge-fixtures.js";
import { DeepEvalToolCorrectnessMetric } from "./index.js";
import type { DeepEvalToolCorrectnessInput } from "./index.js";

// The judge scores by the query: "ok" queries 1, "meh" 0.5, "bad" an out-of-range 7.
const server = useLlmServer({
  answer: ({ prompt }) => ({
    reason: "judged",
    overSelected: [],
    underSelected: [],
    misSelected: [],
    score: prompt.includes("query bad") ? 7 : prompt.includes("query meh") ? 0.5 : 1,
  }),
});
const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

const tools = [
  {
    name: "search",
    description: "Searches.",
    parameters: { type: "object", properties: { q: { type: "string" } } },
  },
  { name: "calculator", description: "Computes." },
];
const call = { name: "search", args: { q: "x" }, output: "r" };
const caseOf = (
  query: string,
  extra: Partial<DeepEvalToolCorrectnessInput> = {},
): DeepEvalToolCorrectnessInput => ({
  query,
  toolsCalled: [call],
  expectedTools: [call],
  ...extra,
});

const metric = (options: ConstructorParameters<typeof DeepEvalToolCorrectnessMetric>[0] = {}) =>
  new DeepEvalToolCorrectnessMetric({
    availableTools: tools,
    modelCredentials: "sk-test",
    modelConfig: { baseURL: server().openaiBaseURL, maxRetries: 0 },
    batchStatusCheckInterval: 0.01,
    ...options,
  });

describe("DeepEvalToolCorrectnessMetric judging tool selection", () => {
  it("judges each case with the metric's tools and keeps the lower score", async () => {
    const result = await metric().measure(caseOf("query meh"));
    expect(result.score).toBe(0.5);
    expect(result.reason).toMatch(/Tool Selection Reason: judged$/);
    expect(result.selection).toMatchObject({ score: 0.5, attempts: 1 });
    const sent = server().modelCalls.at(0);
    expect(sent?.headers.authorization).toBe("Bearer sk-test");
    expect(JSON.stringify(sent?.body.messages)).toContain("- calculator: Computes.");
  });

  it("takes a case's own tools over the metric's, and judges only cases that have tools", async () => {
    const plain = new DeepEvalToolCorrectnessMetric({
      modelCredentials: "sk-test",
      modelConfig: { baseURL: server().openaiBaseURL },
    });
    expect((await plain.measure(caseOf("query ok"))).selection).toBeUndefined();
    expect(server().modelCalls).toHaveLength(0);
    await plain.measure(caseOf("query ok", { availableTools: [{ name: "only_this_one" }] }));
    expect(JSON.stringify(server().modelCalls.at(0)?.body.messages)).toContain("only_this_one");
  });

  it("measures many cases, one bad case never stopping the others", async () => {
    const outcomes = await metric().measureMany(
      [caseOf("query ok"), caseOf("query bad"), { query: "query ok" }, caseOf("query meh")],
      { concurrency: 2 },
    );
    expect(outcomes.map((o) => o.status)).toEqual(["scored", "error", "error", "scored"]);
    expect(outcomes[1]).toMatchObject({ error: { code: "JUDGE_RESPONSE" } });
    expect(outcomes[2]).toMatchObject({ error: { code: "MISSING_PARAMS" } });
    expect(outcomes[3]).toMatchObject({ result: { score: 0.5 } });
    expect(server().maxInFlight).toBeLessThanOrEqual(2);
  });

  it("judges through the provider's batch API in batch mode, re-asking unusable answers directly", async () => {
    const outcomes = await metric().measureMany(
      [caseOf("query ok"), caseOf("query meh"), caseOf("query bad")],
      {
        batch: true,
      },
    );
    expect(server().requests.some((r) => r.path === "/v1/batches")).toBe(true);
    expect(outcomes.map((o) => (o.status === "scored" ? o.result.score : o.error.code))).toEqual([
      1,
      0.5,
      "JUDGE_RESPONSE",
    ]);
    // Only the bad answer was asked again, on its own: twice more (three attempts in all).
    expect(server().modelCalls).toHaveLength(2);
  });

  it("resumes a batch after a restart, and answers a repeated run from the session's cache", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "toolscore-trajectory-"));
    directories.push(directory);
    const batchStore = createFileBatchStore(path.join(directory, "batches"));
    const cases = [caseOf("query ok"), caseOf("query meh")];
    server().batchPolls = 4;
    const first = await metric({ batchMaxIterations: 2 }).measureMany(cases, {
      batch: true,
      batchStore,
    });
    expect(first.every((o) => o.status === "error" && o.error.code === "PROVIDER_CALL")).toBe(true);
    const submitted = () =>
      server().requests.filter((r) => r.method === "POST" && r.path === "/v1/batches").length;
    expect(submitted()).toBe(1);

    const cache = createFileJudgeCache(path.join(directory, "cache"));
    const session = createJudgeSession(
      createOpenAIJudge({ model: "gpt-4.1", apiKey: "sk-test", baseURL: server().openaiBaseURL }),
      { cache },
    );
    const second = await metric().measureMany(cases, { batch: true, batchStore, session });
    expect(submitted()).toBe(1);
    expect(second.map((o) => (o.status === "scored" ? o.result.score : o.error.message))).toEqual([
      1, 0.5,
    ]);

    server().reset();
    const again = createJudgeSession(
      createOpenAIJudge({ model: "gpt-4.1", apiKey: "sk-test", baseURL: server().openaiBaseURL }),
      { cache },
    );
    const third = await metric().measureMany(cases, { batch: true, session: again });
    expect(server().requests).toHaveLength(0);
    expect(again.summary()).toMatchObject({ cacheHits: 2, calls: 0, batchedRequests: 0 });
    expect(third.map((o) => o.status)).toEqual(["scored", "scored"]);
  });
});
