import { describe, expect, it } from "vitest";
import { ProviderCallError, ProviderConfigError } from "../core/errors.js";
import type { JudgeRequest } from "../core/judge.js";
import {
  closedPort,
  judgeRequest,
  useLlmServer,
  verdictSchema,
} from "../../test/support/judge-fixtures.js";
import OpenAI from "openai";
import { createOpenAIJudge } from "./openai.js";

const request: JudgeRequest = judgeRequest(
  [
    { type: "text", text: "Was this right?" },
    { type: "image", source: { kind: "base64", data: "iVBORw0KGgoAAAANSUhEUg==" } },
    { type: "image", source: { kind: "url", url: "https://example.com/chart.png" } },
  ],
  { system: "You judge tool calls." },
);

const schema = verdictSchema();
const server = useLlmServer({ answer: () => ({ reason: "fine", score: 0.75 }) });

const judge = (options: Partial<Parameters<typeof createOpenAIJudge>[0]> = {}) =>
  createOpenAIJudge({
    model: "gpt-4.1",
    apiKey: "test-key",
    baseURL: server().openaiBaseURL,
    maxRetries: 2,
    ...options,
  });

describe("createOpenAIJudge", () => {
  it("asks through an SDK client of the caller's, which needs no key of its own", async () => {
    const client = new OpenAI({
      apiKey: "client-key",
      baseURL: server().openaiBaseURL,
      defaultHeaders: { "x-gateway": "mine" },
    });
    const response = await createOpenAIJudge({ model: "gpt-4.1", client }).generate(request);
    expect(response.output).toEqual({ reason: "fine", score: 0.75 });
    const sent = server().modelCalls.at(0);
    expect(sent?.headers.authorization).toBe("Bearer client-key");
    expect(sent?.headers["x-gateway"]).toBe("mine");
  });

  it("sends a structured-output request and reads the answer and usage", async () => {
    const response = await judge().generate(request);
    expect(response.output).toEqual({ reason: "fine", score: 0.75 });
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.usage.outputTokens).toBeGreaterThan(0);
    expect(response.modelId).toBe("gpt-4.1");
    const sent = server().modelCalls.at(0);
    expect(sent?.headers.authorization).toBe("Bearer test-key");
    expect(sent?.body).toMatchObject({
      model: "gpt-4.1",
      temperature: 0,
      max_completion_tokens: 1024,
      response_format: { type: "json_schema", json_schema: { name: "verdict", strict: true } },
    });
    expect(sent?.body.response_format.json_schema.schema).toEqual(schema.schema);
    expect(sent?.body.messages[1].content).toEqual([
      { type: "text", text: "Was this right?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==" } },
      { type: "image_url", image_url: { url: "https://example.com/chart.png" } },
    ]);
  });

  it("puts the schema in the prompt for servers without JSON Schema mode", async () => {
    await judge({
      provider: "ollama",
      structuredOutput: "json-object",
      model: "llama3.2",
    }).generate(request);
    const sent = server().modelCalls.at(0)?.body;
    expect(sent.response_format).toEqual({ type: "json_object" });
    expect(sent.max_tokens).toBe(1024);
    expect(sent.messages[0].content).toContain('"required":["reason","score"]');
  });

  it("leaves the temperature of reasoning models alone", async () => {
    await judge({ model: "o4-mini" }).generate(request);
    expect(server().modelCalls.at(0)?.body.temperature).toBeUndefined();
  });

  it("retries 429 (honouring Retry-After), 500, resets and truncated bodies", async () => {
    server().fail(
      { kind: "status", status: 429, retryAfterMs: 20 },
      { kind: "status", status: 500 },
    );
    await expect(judge().generate(request)).resolves.toMatchObject({ output: { score: 0.75 } });
    expect(server().modelCalls).toHaveLength(3);
    server().reset();
    server().fail({ kind: "reset" }, { kind: "truncated" });
    await expect(judge().generate(request)).resolves.toMatchObject({ output: { score: 0.75 } });
    expect(server().modelCalls).toHaveLength(3);
  });

  it("waits as long as Retry-After says", async () => {
    server().fail({ kind: "status", status: 429, retryAfter: 1 });
    const start = performance.now();
    await judge().generate(request);
    expect(performance.now() - start).toBeGreaterThanOrEqual(950);
  });

  it("times a call out and tries again", async () => {
    server().fail({ kind: "timeout", ms: 3_000 });
    const start = performance.now();
    await expect(judge({ timeoutMs: 300 }).generate(request)).resolves.toMatchObject({
      output: { score: 0.75 },
    });
    expect(performance.now() - start).toBeLessThan(2_500);
    expect(server().modelCalls).toHaveLength(2);
  });

  it("gives up with a typed error once retries are spent, and never retries a 400", async () => {
    server().fail(...Array.from({ length: 3 }, () => ({ kind: "status" as const, status: 503 })));
    const error = await judge()
      .generate(request)
      .catch((e: unknown) => e);
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: "openai", status: 503, retryable: true });
    expect(server().modelCalls).toHaveLength(3);

    server().reset();
    server().fail({ kind: "status", status: 400, message: "bad schema" });
    const refused = await judge()
      .generate(request)
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "PROVIDER_CALL", status: 400, retryable: false });
    expect((refused as Error).message).toContain("bad schema");
    expect(server().modelCalls).toHaveLength(1);
  });

  it("names the URL it could not reach, without its credentials", async () => {
    const port = await closedPort();
    const error = await judge({
      baseURL: `http://user:hunter2-secret@127.0.0.1:${port}/v1`,
      maxRetries: 0,
    })
      .generate(request)
      .catch((e: unknown) => e);
    expect(ProviderCallError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(
      `openai: the model API at http://127.0.0.1:${port}/v1 could not connect`,
    );
    expect(message).not.toContain("hunter2");
  });

  it("returns an answer that is not JSON as text, for the judge to deal with", async () => {
    server().fail({ kind: "invalid-json" });
    const response = await judge().generate(request);
    expect(response.output).toBeUndefined();
    expect(response.text).toBe("Sure! The score is high.");
  });

  it("stops when aborted", async () => {
    server().fail({ kind: "timeout", ms: 5_000 });
    const controller = new AbortController();
    setTimeout(() => {
      controller.abort(new Error("user cancelled"));
    }, 100);
    await expect(judge().generate(request, { signal: controller.signal })).rejects.toThrow(
      "user cancelled",
    );
  });

  it("reports a missing API key as a configuration error", () => {
    const saved = process.env.OPENAI_API_KEY;
    Reflect.deleteProperty(process.env, "OPENAI_API_KEY");
    try {
      expect(() => createOpenAIJudge({ model: "gpt-4.1" })).toThrow(ProviderConfigError);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it("runs a batch through files and the Batch API", async () => {
    server().batchFailures = (id) =>
      id === "c2" ? { status: 500, message: "overloaded" } : undefined;
    const model = judge();
    const api = model.batch;
    if (!api) throw new Error("the OpenAI judge has a batch API");
    const id = await api.submit(["c1", "c2", "c3"].map((customId) => ({ customId, request })));
    const upload = server().requests.find((r) => r.path === "/v1/files");
    expect(upload?.headers["content-type"]).toMatch(/^multipart\/form-data/);
    const created = server().requests.find((r) => r.path === "/v1/batches");
    expect(created?.body).toMatchObject({
      endpoint: "/v1/chat/completions",
      completion_window: "24h",
    });
    expect(await api.status(id)).toMatchObject({ state: "in_progress" });
    expect(await api.status(id)).toMatchObject({ state: "ended", counts: { total: 3 } });
    const results = await api.results(id);
    expect(results.map((r) => [r.customId, r.status]).sort()).toEqual([
      ["c1", "succeeded"],
      ["c2", "failed"],
      ["c3", "succeeded"],
    ]);
    expect(results.find((r) => r.customId === "c2")).toMatchObject({
      retryable: true,
      message: "500: overloaded",
    });
    expect(results.find((r) => r.customId === "c1")).toMatchObject({
      response: { output: { score: 0.75 } },
    });
  });
});
