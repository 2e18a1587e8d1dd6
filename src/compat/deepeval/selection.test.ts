import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JudgeResponseError, MediaLoadError } from "../../core/errors.js";
import { createJudgeSession } from "../../providers/judge-session.js";
import { createOpenAIJudge } from "../../providers/openai.js";
import { makeImage } from "../../../test/support/images.js";
import { useLlmServer } from "../../../test/support/judge-fixtures.js";
import {
  LLMTestCase,
  MLLMImage,
  MLLMTestCase,
  MultimodalToolCorrectnessMetric,
  ToolCall,
  ToolCallParams,
  ToolCorrectnessMetric,
} from "./index.js";

let judged = 0.5;
const server = useLlmServer({
  answer: () => ({
    reason: "refund_order was never called.",
    overSelected: [],
    underSelected: ["refund_order"],
    misSelected: [],
    score: judged,
  }),
});

const availableTools = [
  new ToolCall({
    name: "lookup_order",
    description: "Finds an order by id.",
    inputParameters: { type: "object", properties: { order_id: { type: "integer" } } },
  }),
  new ToolCall({ name: "refund_order", description: "Refunds an order." }),
  new ToolCall({ name: "send_email", description: "Sends an email." }),
];

const testCase = () =>
  new LLMTestCase({
    input: "Order 1182 arrived broken; I want my money back.",
    actualOutput: "I found your order.",
    toolsCalled: [new ToolCall({ name: "lookup_order", inputParameters: { order_id: 1182 } })],
    expectedTools: [
      new ToolCall({ name: "lookup_order", inputParameters: { order_id: 1182 } }),
      new ToolCall({ name: "refund_order", inputParameters: { order_id: 1182 } }),
    ],
  });

const settings = () => ({ apiKey: "k", baseURL: server().openaiBaseURL, maxRetries: 0 });

describe("ToolCorrectnessMetric with availableTools", () => {
  it("asks the judge about selection and keeps the lower score", async () => {
    judged = 0.25;
    const metric = new ToolCorrectnessMetric({
      availableTools,
      model: "openai/gpt-4.1",
      modelSettings: settings(),
    });
    // Deterministic: 1 of the 2 expected calls made (0.5); judged 0.25: the final score is 0.25.
    expect(await metric.measure(testCase())).toBe(0.25);
    expect(metric.success).toBe(false);
    expect(metric.reason).toBe(
      'Tool Calling Reason: Incomplete tool usage: missing tools ["refund_order"]; expected ["lookup_order","refund_order"], called ["lookup_order"].\n' +
        "Tool Selection Reason: refund_order was never called.",
    );
    expect(metric.reason).toContain("Tool Selection Reason: refund_order was never called.");
    expect(metric.selection).toMatchObject({
      score: 0.25,
      underSelected: ["refund_order"],
      attempts: 1,
      modelId: "gpt-4.1",
    });
    const prompt = JSON.stringify(server().modelCalls.at(0)?.body.messages);
    expect(prompt).toContain("Order 1182 arrived broken");
    expect(prompt).toContain("- refund_order: Refunds an order.");
    expect(prompt).toContain('1. lookup_order({\\"order_id\\":1182})');
  });

  it("keeps the deterministic score when it is the lower one, then applies strict mode", async () => {
    judged = 1;
    const lenient = new ToolCorrectnessMetric({
      availableTools,
      evaluationParams: [ToolCallParams.INPUT_PARAMETERS],
      modelSettings: settings(),
    });
    const wrongArguments = testCase();
    wrongArguments.toolsCalled = [
      new ToolCall({ name: "lookup_order", inputParameters: { order_id: 99 } }),
    ];
    expect(await lenient.measure(wrongArguments)).toBe(0);
    const strict = new ToolCorrectnessMetric({
      availableTools,
      strictMode: true,
      modelSettings: settings(),
    });
    judged = 0.75;
    expect(await strict.measure(testCase())).toBe(0);
    expect(strict.threshold).toBe(1);
  });

  it("rejects, recording the error, when the judge never answers usably", async () => {
    judged = 7;
    const metric = new ToolCorrectnessMetric({ availableTools, modelSettings: settings() });
    await expect(metric.measure(testCase())).rejects.toSatisfy((e: unknown) =>
      JudgeResponseError.isInstance(e),
    );
    expect(metric.error).toMatch(/score 7 is outside \[0, 1\]/);
    expect(metric.isSuccessful()).toBe(false);
    expect(server().modelCalls).toHaveLength(3);
  });

  it("takes a judge session's model: limits, cache and cost shared across metrics", async () => {
    judged = 0.5;
    const session = createJudgeSession(createOpenAIJudge({ model: "gpt-4.1", ...settings() }), {
      concurrency: 2,
    });
    const metric = new ToolCorrectnessMetric({ availableTools, model: session.model });
    await metric.measure(testCase());
    expect(session.summary()).toMatchObject({ calls: 1 });
    expect(metric.selection?.costUsd).toBeGreaterThan(0);
  });
});

describe("MultimodalToolCorrectnessMetric with availableTools", () => {
  let root: string;
  let png: Buffer;
  let gif: Buffer;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "toolscore-mm-"));
    png = await makeImage("png", 3, 3);
    gif = await makeImage("gif", 2, 2);
    writeFileSync(path.join(root, "receipt.png"), png);
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  const multimodal = (receipt = "receipt.png") =>
    new MLLMTestCase({
      input: ["Is this receipt eligible for a refund?", new MLLMImage({ url: receipt })],
      actualOutput: [
        "Yes; here is the refund slip.",
        new MLLMImage({ url: `data:image/gif;base64,${gif.toString("base64")}` }),
      ],
      toolsCalled: [new ToolCall({ name: "lookup_order" })],
      expectedTools: [new ToolCall({ name: "lookup_order" })],
    });

  it("loads the input's and the answer's images and shows them to a judge that takes images", async () => {
    judged = 1;
    const metric = new MultimodalToolCorrectnessMetric({
      availableTools,
      modelSettings: settings(),
      imageLoading: { baseDirectory: root },
    });
    expect(await metric.measure(multimodal())).toBe(1);
    const content = server().modelCalls.at(0)?.body.messages[1].content;
    expect(content).toContainEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${png.toString("base64")}` },
    });
    const answer: number = content.findIndex(
      (part: { text?: string }) => part.text === "## The agent's answer",
    );
    expect(answer).toBeGreaterThan(0);
    expect(content[answer + 1]).toEqual({
      type: "text",
      text: "```\nYes; here is the refund slip.\n```",
    });
    expect(content[answer + 2]).toEqual({
      type: "image_url",
      image_url: { url: `data:image/gif;base64,${gif.toString("base64")}` },
    });
  });

  it("sends Anthropic image blocks to a Claude judge", async () => {
    judged = 1;
    const metric = new MultimodalToolCorrectnessMetric({
      availableTools,
      model: "anthropic/claude-sonnet-4-5",
      modelSettings: { apiKey: "k", baseURL: server().anthropicBaseURL, maxRetries: 0 },
      imageLoading: { baseDirectory: root },
    });
    await metric.measure(multimodal());
    const content = server().modelCalls.at(0)?.body.messages[0].content;
    expect(content).toContainEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: png.toString("base64") },
    });
  });

  it("tells a judge without vision that it cannot see them", async () => {
    judged = 1;
    const metric = new MultimodalToolCorrectnessMetric({
      availableTools,
      modelSettings: { ...settings(), supportsImages: false },
      imageLoading: { baseDirectory: root },
    });
    await metric.measure(multimodal());
    const content = JSON.stringify(server().modelCalls.at(0)?.body.messages[1].content);
    expect(content).not.toContain("image_url");
    expect(content).toContain("holds 1 image that you cannot see");
    expect(content).toContain("The answer also holds 1 image that you cannot see");
  });

  it("takes images as bytes too", async () => {
    judged = 1;
    const image = new MLLMImage({ bytes: png });
    expect(image.toImagePart()).toEqual({
      type: "image",
      source: { kind: "base64", data: png.toString("base64") },
    });
    const metric = new MultimodalToolCorrectnessMetric({
      availableTools,
      modelSettings: settings(),
    });
    const testCase = multimodal();
    testCase.input = ["What is this?", image];
    await metric.measure(testCase);
    expect(JSON.stringify(server().modelCalls.at(0)?.body.messages)).toContain(
      `data:image/png;base64,${png.toString("base64")}`,
    );
  });

  it("refuses an image outside the allowed folders, without asking the judge", async () => {
    const metric = new MultimodalToolCorrectnessMetric({
      availableTools,
      modelSettings: settings(),
      imageLoading: { baseDirectory: root },
    });
    await expect(metric.measure(multimodal("../elsewhere/receipt.png"))).rejects.toSatisfy(
      (e: unknown) => MediaLoadError.isInstance(e) && e.reason === "refused-path",
    );
    expect(server().modelCalls).toHaveLength(0);
  });
});
