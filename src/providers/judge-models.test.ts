import { describe, expect, it } from "vitest";
import { ProviderConfigError } from "../core/errors.js";
import type { JudgeModel, JudgeRequest } from "../core/judge.js";
import { useLlmServer } from "../../test/support/judge-fixtures.js";
import { parseModelString, resolveJudgeModel } from "./judge-models.js";

const request: JudgeRequest = {
  messages: [{ role: "user", content: "hello" }],
  schema: { name: "v", schema: { type: "object", properties: {}, additionalProperties: false } },
};

const server = useLlmServer();

function configError(run: () => unknown): ProviderConfigError {
  try {
    run();
  } catch (error) {
    if (ProviderConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ProviderConfigError");
}

describe("resolveJudgeModel", () => {
  it("resolves provider/model strings with credentials from the environment", async () => {
    const env = { OPENAI_API_KEY: "sk-env", OPENAI_BASE_URL: server().openaiBaseURL };
    const judge = resolveJudgeModel("openai/gpt-4.1", { env, maxRetries: 0 });
    expect(judge).toMatchObject({
      provider: "openai",
      modelId: "gpt-4.1",
      specificationVersion: "v1",
    });
    server().reset();
    await judge.generate(request);
    expect(server().modelCalls.at(0)?.headers.authorization).toBe("Bearer sk-env");
  });

  it("lets settings win over the environment", async () => {
    const env = { OPENAI_API_KEY: "sk-env", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };
    const judge = resolveJudgeModel("gpt-4.1-mini", {
      env,
      apiKey: "sk-setting",
      baseURL: server().openaiBaseURL,
      maxRetries: 0,
    });
    server().reset();
    await judge.generate(request);
    expect(server().modelCalls.at(0)?.headers.authorization).toBe("Bearer sk-setting");
  });

  it("reaches local OpenAI-compatible servers without a key", async () => {
    const judge = resolveJudgeModel("ollama/llama3.2", {
      env: { OLLAMA_BASE_URL: server().openaiBaseURL },
      maxRetries: 0,
    });
    expect(judge.provider).toBe("ollama");
    server().reset();
    await judge.generate(request);
    expect(server().modelCalls.at(0)?.body).toMatchObject({ model: "llama3.2", max_tokens: 1024 });
  });

  it("reads provider names from bare model names where they are unambiguous", () => {
    expect(parseModelString("gpt-4.1")).toEqual({ provider: "openai", model: "gpt-4.1" });
    expect(parseModelString("o4-mini")).toEqual({ provider: "openai", model: "o4-mini" });
    expect(parseModelString("claude-sonnet-4-5")).toEqual({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
    });
    expect(parseModelString("vllm/meta-llama/Llama-3.1-8B")).toEqual({
      provider: "vllm",
      model: "meta-llama/Llama-3.1-8B",
    });
    expect(() => parseModelString("llama3")).toThrow(/write it as provider\/model/);
  });

  it("says what is missing before any case runs", () => {
    expect(configError(() => resolveJudgeModel("openai/gpt-4.1", { env: {} })).message).toBe(
      "openai: no API key; set OPENAI_API_KEY, or give the key as apiKey in the model settings",
    );
    // The CLI takes keys from its environment alone, and says so.
    expect(
      configError(() => resolveJudgeModel("openai/gpt-4.1", { env: {}, keysFrom: "environment" }))
        .message,
    ).toBe(
      "openai: no API key; set OPENAI_API_KEY in the environment the command runs in (keys are read from there only, never from a config or a dataset)",
    );
    expect(
      configError(() => resolveJudgeModel("anthropic/claude-sonnet-4-5", { env: {} })).message,
    ).toMatch(/ANTHROPIC_API_KEY/);
    expect(configError(() => resolveJudgeModel("mistral/large", { env: {} })).message).toMatch(
      /unknown provider "mistral".*known: openai, azure, anthropic, ollama/,
    );
    expect(configError(() => resolveJudgeModel("vllm/x", { env: {} })).message).toMatch(
      /set VLLM_BASE_URL/,
    );
    expect(
      configError(() =>
        resolveJudgeModel("azure/my-deployment", { env: { AZURE_OPENAI_API_KEY: "k" } }),
      ).message,
    ).toMatch(/AZURE_OPENAI_ENDPOINT and OPENAI_API_VERSION/);
    expect(
      configError(() => resolveJudgeModel("openai/", { env: { OPENAI_API_KEY: "k" } })).message,
    ).toMatch(/names no model/);
  });

  it("builds an Azure judge from its endpoint, version and deployment", () => {
    const judge = resolveJudgeModel("azure/judge-deployment", {
      env: {
        AZURE_OPENAI_API_KEY: "k",
        AZURE_OPENAI_ENDPOINT: "https://example.openai.azure.com",
        OPENAI_API_VERSION: "2025-04-01-preview",
      },
    });
    expect(judge).toMatchObject({ provider: "azure", modelId: "judge-deployment" });
  });

  it("passes a JudgeModel through, and refuses other objects", () => {
    const own: JudgeModel = {
      specificationVersion: "v1",
      provider: "mine",
      modelId: "m",
      supportsImages: false,
      generate: () =>
        Promise.resolve({
          output: {},
          text: "{}",
          usage: { inputTokens: 0, outputTokens: 0 },
          modelId: "m",
        }),
    };
    expect(resolveJudgeModel(own)).toBe(own);
    expect(configError(() => resolveJudgeModel({ doGenerate() {} } as never)).message).toMatch(
      /fromAiSdk/,
    );
  });
});
