import { createOpenAI } from "@ai-sdk/openai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MediaLoadError } from "../../core/errors.js";
import { fromAiSdk } from "../../providers/ai-sdk.js";
import { useLlmServer } from "../../../test/support/judge-fixtures.js";
import { makeImage } from "../../../test/support/images.js";
import {
  MultiModalFaithfulness,
  MultiModalRelevance,
  SingleTurnSample,
  gradedMultimodalFaithfulness,
} from "./index.js";

let verdict: unknown = { reason: "The image shows a Model X.", faithful: true };
const server = useLlmServer({ answer: () => verdict });

let root: string;
let imageServer: Server;
let imageBase: string;
let png: Buffer;
let jpeg: Buffer;
let gif: Buffer;
beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "toolscore-ragas-"));
  png = await makeImage("png", 4, 4);
  jpeg = await makeImage("jpeg", 5, 3);
  gif = await makeImage("gif", 2, 2);
  writeFileSync(path.join(root, "tesla.jpg"), jpeg);
  writeFileSync(path.join(root, "old.bmp"), await makeImage("bmp", 3, 3));
  writeFileSync(path.join(root, "fake.png"), "<html>not an image</html>");
  imageServer = createServer((request, response) => {
    if (request.url === "/chart.gif")
      response.writeHead(200, { "content-type": "image/gif" }).end(gif);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => imageServer.listen(0, "127.0.0.1", resolve));
  imageBase = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  imageServer.closeAllConnections();
  await new Promise((resolve) => imageServer.close(resolve));
});

const loading = () => ({ baseDirectory: root, allowAddresses: ["127.0.0.1/32"] });
const openai = () => ({
  llm: "openai/gpt-4o",
  modelSettings: { apiKey: "k", baseURL: server().openaiBaseURL, maxRetries: 0 },
});
const contexts = () => [
  "Tesla manufactures electric vehicles.",
  `data:image/png;base64,${png.toString("base64")}`,
  "tesla.jpg",
  `${imageBase}/chart.gif`,
  "old.bmp",
];

describe("MultiModalFaithfulness", () => {
  it("interleaves labelled texts and images, in order, in OpenAI's image parts", async () => {
    verdict = { reason: "The image shows a Model X.", faithful: true };
    const metric = new MultiModalFaithfulness({ ...openai(), imageLoading: loading() });
    const result = await metric.ascore({
      response: "The Tesla Model X is an electric SUV.",
      retrievedContexts: contexts(),
    });
    expect(result).toMatchObject({
      value: 1,
      reason: "The image shows a Model X.",
      judgeable: true,
    });
    expect(
      result.contexts.map((c) =>
        c.kind === "text" ? "text" : c.status === "loaded" ? `loaded ${c.mediaType}` : "failed",
      ),
    ).toEqual([
      "text",
      "loaded image/png",
      "loaded image/jpeg",
      "loaded image/gif",
      "loaded image/png",
    ]);
    const content = server().modelCalls.at(0)?.body.messages[1].content;
    const shape = content.map(
      (part: { type: string; text?: string; image_url?: { url: string } }) =>
        part.type === "text" ? part.text : part.image_url?.url.slice(0, 22),
    );
    expect(shape).toEqual([
      "## Response\n```\nThe Tesla Model X is an electric SUV.\n```",
      "## Contexts",
      "Context 1 (text):\n```\nTesla manufactures electric vehicles.\n```",
      "Context 2 (image):",
      "data:image/png;base64,",
      "Context 3 (image):",
      "data:image/jpeg;base64",
      "Context 4 (image):",
      "data:image/gif;base64,",
      "Context 5 (image):",
      "data:image/png;base64,",
      "Can every claim of the response be inferred from these contexts?",
    ]);
    // The bytes sent are the file's own.
    expect(content[6].image_url.url).toBe(`data:image/jpeg;base64,${jpeg.toString("base64")}`);
    expect(server().modelCalls.at(0)?.body.response_format.json_schema.schema.required).toEqual([
      "reason",
      "faithful",
    ]);
  });

  it("sends Anthropic base64 image blocks", async () => {
    verdict = { reason: "Cats are not in the contexts.", faithful: false };
    const metric = new MultiModalFaithfulness({
      llm: "anthropic/claude-sonnet-4-5",
      modelSettings: { apiKey: "k", baseURL: server().anthropicBaseURL, maxRetries: 0 },
      imageLoading: loading(),
    });
    const result = await metric.ascore({
      response: "Cats are cute.",
      retrievedContexts: ["tesla.jpg", "A text."],
    });
    expect(result.value).toBe(0);
    const content = server().modelCalls.at(0)?.body.messages[0].content;
    expect(content[3]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/jpeg", data: jpeg.toString("base64") },
    });
    expect(content[4]).toEqual({ type: "text", text: "Context 2 (text):\n```\nA text.\n```" });
  });

  it("sends AI SDK image parts through any AI SDK model", async () => {
    verdict = { reason: "ok", faithful: true };
    const model = createOpenAI({ apiKey: "k", baseURL: server().openaiBaseURL }).chat("gpt-4o");
    const metric = new MultiModalFaithfulness({
      llm: fromAiSdk(model, { maxRetries: 0 }),
      imageLoading: loading(),
    });
    expect(
      (await metric.ascore({ response: "An EV.", retrievedContexts: ["tesla.jpg"] })).value,
    ).toBe(1);
    const serialized = JSON.stringify(server().modelCalls.at(0)?.body.messages);
    expect(serialized).toContain(`data:image/jpeg;base64,${jpeg.toString("base64")}`);
  });

  it("never sends an image that failed to load, as text or at all", async () => {
    const metric = new MultiModalFaithfulness({ ...openai(), imageLoading: loading() });
    for (const [bad, why] of [
      ["missing.png", /no such file/],
      ["fake.png", /not an image/],
      // Only 127.0.0.1 was allowed: the same server over IPv6 loopback stays refused.
      [`${imageBase.replace("127.0.0.1", "[::1]")}/chart.gif`, /loopback range/],
      ["../../etc/passwd.png", /outside the allowed folders/],
      ["http://169.254.169.254/latest/meta-data/x.png", /linkLocal range/],
    ] as const) {
      server().reset();
      const result = await metric.ascore({
        response: "An EV.",
        retrievedContexts: ["Tesla makes EVs.", bad],
      });
      expect(result).toMatchObject({ judgeable: false });
      expect(result.value).toBeNaN();
      expect(result.reason).toMatch(why);
      expect(result.reason).toContain(`context 2 (${bad})`);
      expect(result.contexts[1]).toMatchObject({ kind: "image", status: "failed", origin: bad });
      expect(server().modelCalls).toHaveLength(0);
    }
    const strict = new MultiModalFaithfulness({
      ...openai(),
      imageLoading: loading(),
      onImageError: "fail",
    });
    await expect(
      strict.ascore({ response: "x", retrievedContexts: ["missing.png"] }),
    ).rejects.toSatisfy((e: unknown) => MediaLoadError.isInstance(e));
  });

  it("refuses an empty response or no contexts", async () => {
    const metric = new MultiModalFaithfulness(openai());
    await expect(metric.ascore({ response: " ", retrievedContexts: ["a"] })).rejects.toThrow(
      /response must be a non-empty string/,
    );
    await expect(metric.ascore({ response: "a", retrievedContexts: [] })).rejects.toThrow(
      /non-empty list/,
    );
  });

  it("keeps ragas' legacy API", async () => {
    verdict = { reason: "fine", faithful: true };
    const metric = new MultiModalFaithfulness({ ...openai(), imageLoading: loading() });
    const sample = new SingleTurnSample({
      userInput: "What about the Model X?",
      response: "It is an EV.",
      retrievedContexts: ["tesla.jpg"],
    });
    expect(await metric.singleTurnAscore(sample)).toBe(1);
    expect(
      await metric.ascore({ response: "It is an EV.", retrieved_contexts: ["Teslas are EVs."] }),
    ).toMatchObject({ value: 1 });
    expect(metric.name).toBe("multi_modal_faithfulness");
  });
});

describe("MultiModalRelevance", () => {
  it("puts the question before the response and the contexts", async () => {
    verdict = { reason: "It answers the question.", relevant: true };
    const metric = new MultiModalRelevance({ ...openai(), imageLoading: loading() });
    const result = await metric.ascore({
      userInput: "What car is this?",
      response: "A Model X.",
      retrievedContexts: ["tesla.jpg"],
    });
    expect(result).toMatchObject({ value: 1, reason: "It answers the question." });
    const content = server().modelCalls.at(0)?.body.messages[1].content;
    expect(content[0].text).toBe(
      "## Question\n```\nWhat car is this?\n```\n## Response\n```\nA Model X.\n```",
    );
    await expect(metric.ascore({ response: "x", retrievedContexts: ["a"] })).rejects.toThrow(
      /userInput/,
    );
  });
});

describe("gradedMultimodalFaithfulness (graded)", () => {
  it("scores supported claims over all claims, each verdict pointing at its contexts", async () => {
    verdict = {
      claims: [
        {
          claim: "The Model X is an SUV.",
          verdict: "supported",
          contexts: [2],
          reason: "The photo shows an SUV.",
        },
        {
          claim: "Tesla makes EVs.",
          verdict: "supported",
          contexts: [1],
          reason: "Context 1 says so.",
        },
        { claim: "The car is red.", verdict: "contradicted", contexts: [2], reason: "It is blue." },
        {
          claim: "It costs $80,000.",
          verdict: "unsupported",
          contexts: [],
          reason: "No context gives a price.",
        },
      ],
    };
    const metric = gradedMultimodalFaithfulness({ ...openai(), imageLoading: loading() });
    const result = await metric.measure({
      response: "The Model X is a red SUV that costs $80,000; Tesla makes EVs.",
      retrievedContexts: ["Tesla makes EVs.", "tesla.jpg"],
    });
    if (result.status !== "scored")
      throw new Error(`expected a score, got ${JSON.stringify(result)}`);
    expect(result.score).toBe(0.5);
    expect(result.details.claims.map((c) => [c.verdict, c.contexts])).toEqual([
      ["supported", [{ index: 1, kind: "image" }]],
      ["supported", [{ index: 0, kind: "text" }]],
      ["contradicted", [{ index: 1, kind: "image" }]],
      ["unsupported", []],
    ]);
    expect(result.reason).toBe(
      '2 of 4 claims supported by the contexts. Contradicted: "The car is red." (context 2, image). Unsupported: "It costs $80,000.".',
    );
  });

  it("asks again when a verdict cites a context that does not exist, then records the error", async () => {
    verdict = { claims: [{ claim: "x", verdict: "supported", contexts: [9], reason: "r" }] };
    const result = await gradedMultimodalFaithfulness(openai()).measure({
      response: "x",
      retrievedContexts: ["a"],
    });
    expect(result).toMatchObject({ status: "error", error: { code: "JUDGE_RESPONSE" } });
    expect(server().modelCalls).toHaveLength(3);
    expect(JSON.stringify(server().modelCalls.at(1)?.body.messages)).toContain(
      "cites context 9, but the contexts are numbered 1 to 1",
    );
  });

  it("skips a case whose image did not load, saying why", async () => {
    const result = await gradedMultimodalFaithfulness({
      ...openai(),
      imageLoading: loading(),
    }).measure({
      response: "x",
      retrievedContexts: ["missing.png"],
    });
    expect(result).toMatchObject({
      status: "skipped",
      reason: expect.stringContaining("did not load") as unknown,
    });
    expect(server().modelCalls).toHaveLength(0);
  });
});
