import { createOpenAI } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { ProviderCallError, ProviderConfigError } from "../core/errors.js";
import type { JudgeRequest } from "../core/judge.js";
import { judgeRequest, useLlmServer } from "../../test/support/judge-fixtures.js";
import { fromAiSdk } from "./ai-sdk.js";

const request: JudgeRequest = judgeRequest(
  [
    { type: "text", text: "Was this right?" },
    { type: "image", source: { kind: "url", url: "https://example.com/chart.png" } },
  ],
  { system: "You judge tool calls." },
);

const server = useLlmServer({ answer: () => ({ reason: "fine", score: 0.25 }) });

const model = () =>
  createOpenAI({ apiKey: "test-key", baseURL: server().openaiBaseURL }).chat("gpt-4.1-mini");

describe("fromAiSdk", () => {
  it("judges through an AI SDK model, over real HTTP", async () => {
    const judge = fromAiSdk(model(), { maxRetries: 1 });
    expect(judge).toMatchObject({ provider: "openai", modelId: "gpt-4.1-mini" });
    const response = await judge.generate(request);
    expect(response.output).toEqual({ reason: "fine", score: 0.25 });
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    const sent = server().modelCalls.at(0)?.body;
    expect(sent.model).toBe("gpt-4.1-mini");
    expect(sent.response_format).toMatchObject({ type: "json_schema" });
    expect(JSON.stringify(sent.messages)).toContain("https://example.com/chart.png");
  });

  it("hands an unusable answer back as text, and a failed call as a typed error", async () => {
    server().fail({ kind: "invalid-json" });
    const response = await fromAiSdk(model(), { maxRetries: 0 }).generate(request);
    expect(response.output).toBeUndefined();
    expect(response.text).toBe("Sure! The score is high.");
    server().fail({ kind: "status", status: 500 }, { kind: "status", status: 500 });
    const error = await fromAiSdk(model(), { maxRetries: 1 })
      .generate(request)
      .catch((e: unknown) => e);
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 500, retryable: true });
  });

  it("refuses what is not a model", () => {
    expect(() => fromAiSdk("gpt-4.1" as never)).toThrow(ProviderConfigError);
  });
});
