import { describe, expect, it } from "vitest";
import type { TrajectoryFormat } from "../core/trajectory.js";
import { parseTrajectory } from "./parse-trajectory.js";
import { usageOf } from "./read.js";

const read = (format: TrajectoryFormat, input: unknown) => parseTrajectory(input, { format });

describe("usageOf", () => {
  it("reads every SDK's spelling, and adds Anthropic's cached input and Gemini's thinking", () => {
    expect(usageOf({ input_tokens: 10, output_tokens: 2 })).toEqual({
      inputTokens: 10,
      outputTokens: 2,
    });
    expect(usageOf({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 })).toEqual({
      inputTokens: 7,
      outputTokens: 3,
    });
    expect(usageOf({ inputTokens: 4, outputTokens: 1, totalTokens: 5 })).toEqual({
      inputTokens: 4,
      outputTokens: 1,
    });
    expect(usageOf({ promptTokens: 5, completionTokens: 6 })).toEqual({
      inputTokens: 5,
      outputTokens: 6,
    });
    expect(
      usageOf({
        input_tokens: 10,
        cache_creation_input_tokens: 100,
        cache_read_input_tokens: 1000,
        output_tokens: 2,
      }),
    ).toEqual({ inputTokens: 1110, outputTokens: 2 });
    expect(
      usageOf({ promptTokenCount: 8, candidatesTokenCount: 2, thoughtsTokenCount: 30 }),
    ).toEqual({ inputTokens: 8, outputTokens: 32 });
    // The AI SDK leaves a count the provider did not give undefined.
    expect(usageOf({ inputTokens: 4, outputTokens: undefined })).toEqual({
      inputTokens: 4,
      outputTokens: 0,
    });
  });

  it("is undefined for what is not a usage record, invalid for counts that are not numbers", () => {
    expect(usageOf(undefined)).toBeUndefined();
    expect(usageOf({ total: 3 })).toBeUndefined();
    expect(usageOf([1, 2])).toBeUndefined();
    expect(usageOf({ input_tokens: "10", output_tokens: 2 })).toBe("invalid");
    expect(usageOf({ input_tokens: -1, output_tokens: 2 })).toBe("invalid");
    expect(usageOf({ input_tokens: 1, output_tokens: 2, cache_read_input_tokens: "x" })).toBe(
      "invalid",
    );
  });
});

describe("tokens and models read from transcripts", () => {
  it("OpenAI Responses: the response's usage, in the turn its output belongs to", () => {
    const trajectory = read("openai-responses", {
      model: "gpt-4.1-2025-04-14",
      input: [{ role: "user", content: "hi" }],
      output: [{ type: "message", role: "assistant", content: "hello" }],
      usage: { input_tokens: 120, output_tokens: 8, total_tokens: 128 },
    });
    expect(trajectory.usage).toEqual({ inputTokens: 120, outputTokens: 8 });
    expect(trajectory.models).toEqual(["gpt-4.1-2025-04-14"]);
    expect(trajectory.turns.at(-1)?.usage).toEqual({ inputTokens: 120, outputTokens: 8 });
  });

  it("OpenAI chat: a completion's usage", () => {
    const trajectory = read("openai-chat", {
      model: "gpt-4o-mini",
      choices: [{ message: { role: "assistant", content: "ok" } }],
      usage: { prompt_tokens: 30, completion_tokens: 4 },
    });
    expect(trajectory.usage).toEqual({ inputTokens: 30, outputTokens: 4 });
    expect(trajectory.models).toEqual(["gpt-4o-mini"]);
  });

  it("Anthropic: each message's usage, added up turn by turn, cached input counted", () => {
    const message = (tokens: number, cached = 0) => ({
      role: "assistant",
      model: "claude-sonnet-4-5-20250929",
      content: [{ type: "text", text: "ok" }],
      usage: { input_tokens: tokens, cache_read_input_tokens: cached, output_tokens: 5 },
    });
    const trajectory = read("anthropic", {
      model: "claude-sonnet-4-5",
      messages: [
        { role: "user", content: "one" },
        message(100),
        { role: "user", content: "two" },
        message(20, 200),
        message(10),
      ],
    });
    expect(trajectory.usage).toEqual({ inputTokens: 330, outputTokens: 15 });
    expect(trajectory.turns.map((turn) => turn.usage)).toEqual([
      { inputTokens: 100, outputTokens: 5 },
      { inputTokens: 230, outputTokens: 10 },
    ]);
    expect(trajectory.models).toEqual(["claude-sonnet-4-5", "claude-sonnet-4-5-20250929"]);
  });

  it("the AI SDK: each step's usage and model, not the result's total again", () => {
    const step = (input: number) => ({
      content: [{ type: "text", text: "x" }],
      usage: { inputTokens: input, outputTokens: 2, totalTokens: input + 2 },
      response: { modelId: "gpt-5-mini" },
    });
    const trajectory = read("ai-sdk", {
      steps: [step(50), step(70)],
      totalUsage: { inputTokens: 120, outputTokens: 4 },
    });
    expect(trajectory.usage).toEqual({ inputTokens: 120, outputTokens: 4 });
    expect(trajectory.models).toEqual(["gpt-5-mini"]);
  });

  it("Gemini, ADK, Bedrock and LangChain: their usage records", () => {
    expect(
      read("gemini", {
        candidates: [{ content: { role: "model", parts: [{ text: "ok" }] } }],
        usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 3 },
        modelVersion: "gemini-2.5-flash",
      }),
    ).toMatchObject({ usage: { inputTokens: 11, outputTokens: 3 }, models: ["gemini-2.5-flash"] });
    expect(
      read("adk", [
        { author: "user", content: { role: "user", parts: [{ text: "hi" }] } },
        {
          author: "agent",
          content: { role: "model", parts: [{ text: "ok" }] },
          usage_metadata: { prompt_token_count: 9, candidates_token_count: 1 },
        },
        { author: "agent", partial: true, usage_metadata: { prompt_token_count: 9 } },
      ]).usage,
    ).toEqual({ inputTokens: 9, outputTokens: 1 });
    expect(
      read("bedrock", {
        output: { message: { role: "assistant", content: [{ text: "ok" }] } },
        usage: { inputTokens: 40, outputTokens: 6, totalTokens: 46 },
      }).usage,
    ).toEqual({ inputTokens: 40, outputTokens: 6 });
    expect(
      read("langchain", [
        { type: "human", content: "hi" },
        {
          type: "ai",
          content: "ok",
          usage_metadata: { input_tokens: 12, output_tokens: 2, total_tokens: 14 },
          response_metadata: { model_name: "gpt-4o" },
        },
      ]),
    ).toMatchObject({ usage: { inputTokens: 12, outputTokens: 2 }, models: ["gpt-4o"] });
  });

  it("OpenTelemetry spans: the model calls' tokens, not the agent span's sum of them again", () => {
    const span = (id: string, parent: string | undefined, attributes: Record<string, unknown>) => ({
      traceId: "t1",
      spanId: id,
      ...(parent === undefined ? {} : { parentSpanId: parent }),
      name: String(attributes["gen_ai.operation.name"]),
      startTimeUnixNano: "1",
      attributes: Object.entries(attributes).map(([key, value]) => ({
        key,
        value: typeof value === "number" ? { intValue: String(value) } : { stringValue: value },
      })),
    });
    const trajectory = read("otel", {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                span("a", undefined, {
                  "gen_ai.operation.name": "invoke_agent",
                  "gen_ai.usage.input_tokens": 300,
                  "gen_ai.usage.output_tokens": 30,
                }),
                span("c1", "a", {
                  "gen_ai.operation.name": "chat",
                  "gen_ai.request.model": "gpt-4.1",
                  "gen_ai.response.model": "gpt-4.1-2025-04-14",
                  "gen_ai.usage.input_tokens": 100,
                  "gen_ai.usage.output_tokens": 10,
                }),
                span("c2", "a", {
                  "gen_ai.operation.name": "chat",
                  "gen_ai.usage.prompt_tokens": 200,
                  "gen_ai.usage.completion_tokens": 20,
                }),
              ],
            },
          ],
        },
      ],
    });
    expect(trajectory.usage).toEqual({ inputTokens: 300, outputTokens: 30 });
    expect(trajectory.models).toEqual(["gpt-4.1-2025-04-14"]);
  });

  it("OpenInference and the OpenAI Agents SDK's trace: their model spans' tokens", () => {
    const attributes = (values: Record<string, unknown>) =>
      Object.entries(values).map(([key, value]) => ({
        key,
        value: typeof value === "number" ? { intValue: value } : { stringValue: value },
      }));
    expect(
      read("openinference", {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: "t",
                    spanId: "l",
                    name: "llm",
                    attributes: attributes({
                      "openinference.span.kind": "LLM",
                      "llm.model_name": "gpt-4o",
                      "llm.token_count.prompt": 15,
                      "llm.token_count.completion": 5,
                    }),
                  },
                ],
              },
            ],
          },
        ],
      }),
    ).toMatchObject({ usage: { inputTokens: 15, outputTokens: 5 }, models: ["gpt-4o"] });
    expect(
      read("openai-agents", {
        data: [
          {
            object: "trace.span",
            id: "span_1",
            trace_id: "trace_1",
            parent_id: null,
            started_at: "2026-01-01T00:00:00Z",
            span_data: {
              type: "generation",
              model: "gpt-4.1",
              usage: { input_tokens: 60, output_tokens: 6 },
            },
          },
        ],
      }).usage,
    ).toEqual({ inputTokens: 60, outputTokens: 6 });
  });

  it("a usage record whose counts are not numbers is a warning at its path, never a count", () => {
    const trajectory = read("anthropic", [
      { role: "user", content: "hi" },
      { role: "assistant", content: "ok", usage: { input_tokens: "many", output_tokens: 1 } },
    ]);
    expect(trajectory.usage).toBeUndefined();
    expect(trajectory.warnings).toEqual([
      expect.objectContaining({ code: "invalid-usage", path: "$[1].usage" }),
    ]);
  });

  it("a transcript without usage has neither usage nor models", () => {
    const trajectory = read("openai-chat", [{ role: "user", content: "hi" }]);
    expect(trajectory).not.toHaveProperty("usage");
    expect(trajectory).not.toHaveProperty("models");
  });
});
