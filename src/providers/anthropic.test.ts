import { describe, expect, it } from "vitest";
import { ProviderCallError } from "../core/errors.js";
import type { JudgeRequest } from "../core/judge.js";
import { judgeRequest, useLlmServer, verdictSchema } from "../../test/support/judge-fixtures.js";
import Anthropic from "@anthropic-ai/sdk";
import { createAnthropicJudge } from "./anthropic.js";

const request: JudgeRequest = judgeRequest(
  [
    { type: "text", text: "Was this right?" },
    { type: "image", source: { kind: "url", url: "data:image/jpeg;base64,/9j/4AAQSkZJRg==" } },
    { type: "image", source: { kind: "url", url: "https://example.com/chart.png" } },
  ],
  { system: "You judge tool calls." },
);

const schema = verdictSchema();
const server = useLlmServer({ answer: () => ({ reason: "fine", score: 0.5 }) });

const judge = (options: Partial<Parameters<typeof createAnthropicJudge>[0]> = {}) =>
  createAnthropicJudge({
    model: "claude-sonnet-4-5",
    apiKey: "test-key",
    baseURL: server().anthropicBaseURL,
    maxRetries: 2,
    ...options,
  });

describe("createAnthropicJudge", () => {
  it("asks through an SDK client of the caller's, which needs no key of its own", async () => {
    const client = new Anthropic({
      apiKey: "client-key",
      baseURL: server().anthropicBaseURL,
      defaultHeaders: { "x-gateway": "mine" },
    });
    const response = await createAnthropicJudge({ model: "claude-sonnet-4-5", client }).generate(
      request,
    );
    expect(response.output).toEqual({ reason: "fine", score: 0.5 });
    const sent = server().modelCalls.at(0);
    expect(sent?.headers.authorization ?? sent?.headers["x-api-key"]).toMatch(/client-key/);
    expect(sent?.headers["x-gateway"]).toBe("mine");
  });

  it("sends native structured output with the system prompt apart, and reads the answer", async () => {
    const response = await judge().generate(request);
    expect(response.output).toEqual({ reason: "fine", score: 0.5 });
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    const sent = server().modelCalls.at(0);
    expect(sent?.headers.authorization ?? sent?.headers["x-api-key"]).toMatch(/test-key/);
    expect(sent?.headers["anthropic-version"]).toBeDefined();
    expect(sent?.body).toMatchObject({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      system: "You judge tool calls.",
      output_config: { format: { type: "json_schema", schema: schema.schema } },
    });
    expect(sent?.body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Was this right?" },
          {
            type: "image",
            source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQSkZJRg==" },
          },
          { type: "image", source: { type: "url", url: "https://example.com/chart.png" } },
        ],
      },
    ]);
  });

  it("can force a tool whose input is the answer, for models without structured outputs", async () => {
    const response = await judge({ structuredOutput: "tool" }).generate(request);
    expect(response.output).toEqual({ reason: "fine", score: 0.5 });
    const sent = server().modelCalls.at(0)?.body;
    expect(sent.tool_choice).toEqual({ type: "tool", name: "verdict" });
    expect(sent.tools[0]).toMatchObject({ name: "verdict", input_schema: schema.schema });
    expect(sent.output_config).toBeUndefined();
  });

  it("retries overload and rate limits, then gives up with a typed error", async () => {
    server().fail(
      { kind: "status", status: 529 },
      { kind: "status", status: 429, retryAfterMs: 10 },
    );
    await expect(judge().generate(request)).resolves.toMatchObject({ output: { score: 0.5 } });
    expect(server().modelCalls).toHaveLength(3);
    server().reset();
    server().fail(...Array.from({ length: 3 }, () => ({ kind: "status" as const, status: 500 })));
    const error = await judge()
      .generate(request)
      .catch((e: unknown) => e);
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: "anthropic", status: 500, retryable: true });
  });

  it("runs a message batch and maps every outcome back by custom id", async () => {
    server().batchFailures = (id) =>
      id === "b"
        ? { status: 529, message: "overloaded" }
        : id === "c"
          ? { kind: "expired" }
          : undefined;
    const api = judge().batch;
    if (!api) throw new Error("the Anthropic judge has a batch API");
    const id = await api.submit(["a", "b", "c"].map((customId) => ({ customId, request })));
    const created = server().requests.find((r) => r.path === "/v1/messages/batches");
    expect(created?.body.requests[0]).toMatchObject({
      custom_id: "a",
      params: { model: "claude-sonnet-4-5", output_config: { format: { type: "json_schema" } } },
    });
    expect(await api.status(id)).toMatchObject({ state: "in_progress" });
    expect(await api.status(id)).toMatchObject({
      state: "ended",
      counts: { total: 3, succeeded: 1, failed: 2 },
    });
    const results = await api.results(id);
    expect(results).toEqual([
      expect.objectContaining({ customId: "a", status: "succeeded" }),
      expect.objectContaining({ customId: "b", status: "failed", retryable: true }),
      expect.objectContaining({ customId: "c", status: "failed", retryable: true }),
    ]);
  });
});
