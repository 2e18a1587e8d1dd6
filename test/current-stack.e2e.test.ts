/**
 * The packed toolscore beside the majors current on the registry (test/stacks/current: openai 7,
 * ai 7 with @ai-sdk/openai 4, @anthropic-ai/sdk, vitest 5, TypeScript 7), installed into one
 * consumer project from the loopback registry with an empty npm cache: it installs without a
 * peer conflict, type-checks with TypeScript 7, judges through each SDK against a loopback model
 * server (decision models through openai 7's decisions and ai 7's experimental_decide too), and its vitest matchers run under vitest 5, on Node 22 and 24 (which these majors need).
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { optionalTool } from "./support/optional-tools.js";
import { runProgram, strictTsconfig, usePackedPackage } from "./support/packed-package.js";
import type { Consumer } from "./support/packed-package.js";
import { startLlmServer } from "./support/llm-server.mjs";
import { startDecisionServer } from "./support/decision-server.js";

const packed = usePackedPackage();
const majors = [
  "openai@7",
  "ai@7",
  "@ai-sdk/openai@4",
  "@anthropic-ai/sdk@1",
  "vitest@5",
  "typescript@7",
  "@types/node@22",
];

let consumer: Consumer;
beforeAll(async () => {
  // @ai-sdk/provider's types import json-schema's, which it leaves to the project to install.
  consumer = await packed().project("current", [
    packed().tarball,
    ...majors,
    "@types/json-schema@7",
  ]);
  consumer.write(
    "package.json",
    JSON.stringify({ name: "current", private: true, type: "module" }),
  );
}, 600_000);

const calls = `[
  { name: "search_flights", inputParameters: { from: "CDG", to: "OSL" } },
  { name: "book_flight", inputParameters: { flight: "AF123", seat: "12A" } },
]`;

/** A program that asks one question of each SDK's judge, printing each verdict. */
const judges = (server: { openaiBaseURL: string; anthropicBaseURL: string }) => `
import { createAnthropicJudge, createOpenAIJudge, fromAiSdk } from "toolscore";
import { createOpenAI } from "@ai-sdk/openai";
const schema = { name: "verdict", schema: { type: "object", properties: { reason: { type: "string" }, score: { type: "number" } }, required: ["reason", "score"], additionalProperties: false } };
const request = { messages: [{ role: "user", content: "ok?" }], schema };
const provider = createOpenAI({ apiKey: "k", baseURL: ${JSON.stringify(server.openaiBaseURL)} });
const all = {
  openai: createOpenAIJudge({ model: "gpt-4o-mini", apiKey: "k", baseURL: ${JSON.stringify(server.openaiBaseURL)} }),
  anthropic: createAnthropicJudge({ model: "claude-test", apiKey: "k", baseURL: ${JSON.stringify(server.anthropicBaseURL)} }),
  aiSdk: fromAiSdk(provider.chat("gpt-4o-mini")),
};
for (const [name, judge] of Object.entries(all)) {
  const answer = await judge.generate(request);
  console.log(name, JSON.stringify(answer.output));
}
`;

/** A program that asks a decision question through openai 7's decisions and ai 7's experimental_decide. */
const deciders = (baseURL: string) => `
import { createOpenAIDecisionsJudge, fromAiSdkDecisionModel } from "toolscore";
import { createOpenAI } from "@ai-sdk/openai";
const request = {
  messages: [{ role: "user", content: "The agent refunded 30 EUR as asked." }],
  schema: { name: "decision_answers", schema: {} },
  decision: { questions: [{ type: "yes-no", id: "right", instructions: "Was the refund right?" }] },
};
const all = {
  openaiDecisions: createOpenAIDecisionsJudge({ model: "gpt-6-luna", apiKey: "k", baseURL: ${JSON.stringify(baseURL)} }),
  aiSdkDecide: fromAiSdkDecisionModel(createOpenAI({ apiKey: "k", baseURL: ${JSON.stringify(baseURL)} }).decisionModel("gpt-6-luna")),
};
for (const [name, judge] of Object.entries(all)) {
  const answer = await judge.generate(request);
  console.log(name, JSON.stringify(answer.output));
}
`;

const vitestTest = `import { expect, test } from "vitest";
import "toolscore/vitest";
import { match, toolCallAccuracy } from "toolscore";
const calls = ${calls};
test("matchers", async () => {
  expect(calls).toHaveCalledTool("book_flight", { seat: match.regex(/^12/) });
  expect(calls).not.toHaveCalledTool("cancel");
  expect(calls).toHaveCalledToolsInOrder(["search_flights", "book_flight"]);
  expect({ calls }).toEqual({ calls: expect.toHaveCalledTool("search_flights") });
  await expect({ toolsCalled: calls, expectedTools: calls }).toPassMetric(toolCallAccuracy());
  await expect(Promise.resolve(calls)).resolves.toHaveCalledTool("book_flight");
  expect(() => expect(calls).toHaveCalledTool("book_flight", { seat: "1C" })).toThrow(/expected a call of book_flight/);
});
`;

/** Type tests: each line must type-check, and each `@ts-expect-error` must be an error. */
const typedProgram = `import "toolscore/vitest";
import { expect } from "vitest";
import {
  createOpenAIDecisionsJudge,
  createOpenAIJudge,
  fromAiSdk,
  fromAiSdkDecisionModel,
  toolCallAccuracy,
} from "toolscore";
import { createOpenAI } from "@ai-sdk/openai";

const calls = [{ name: "get_weather", inputParameters: { city: "Paris" } }];
export async function typed(): Promise<void> {
  expect(calls).toHaveCalledTool("get_weather", { city: "Paris" });
  expect(calls).not.toHaveCalledToolsInOrder(["a", { name: "b", arguments: { x: 1 } }]);
  expect(calls).toMatchToolCalls([{ name: "get_weather" }], { order: "all-expected" });
  await expect({ toolsCalled: calls, expectedTools: calls }).toPassMetric(toolCallAccuracy(), 0.8);
  await expect(Promise.resolve(calls)).resolves.toHaveCalledTool("get_weather");
  expect({ calls }).toEqual({ calls: expect.toHaveCalledTool("get_weather") });
  // @ts-expect-error the tool's name is a string
  expect(calls).toHaveCalledTool(42);
  // @ts-expect-error no such order mode
  expect(calls).toMatchToolCalls([], { order: "sideways" });
  fromAiSdk(createOpenAI({ apiKey: "k" }).chat("gpt-4o-mini"));
  createOpenAIJudge({ model: "gpt-4o-mini", apiKey: "k" });
  fromAiSdkDecisionModel(createOpenAI({ apiKey: "k" }).decisionModel("gpt-6-luna"));
  createOpenAIDecisionsJudge({ model: "gpt-6-luna", apiKey: "k" });
}
`;

describe("beside today's majors", () => {
  it("installs with no peer conflict, and npm finds every peer satisfied", async () => {
    expect(consumer.install.stderr).not.toMatch(/ERESOLVE|invalid|conflict/i);
    const listed = await consumer.npm(["ls", "--depth=0"]);
    expect(listed.stderr).toBe("");
    for (const major of majors) expect(listed.stdout).toContain(major.replace(/@(\d+)$/, "@$1."));
  });

  it("type-checks toolscore and toolscore/vitest with TypeScript 7 and vitest 5's types", async () => {
    consumer.write("types/typed.ts", typedProgram);
    consumer.write("tsconfig.json", strictTsconfig(["node"]));
    const tsc = path.join(consumer.directory, "node_modules", ".bin", "tsc");
    const version = await runProgram(tsc, ["--version"], { cwd: consumer.directory });
    expect(version.stdout).toMatch(/^Version 7\./);
    const typed = await runProgram(tsc, ["-p", "tsconfig.json"], { cwd: consumer.directory });
    expect(typed.stdout + typed.stderr).toBe("");
    expect(typed.code).toBe(0);
  });

  for (const major of ["22", "24"] as const) {
    const node = optionalTool(`node-${major}`);
    (node.runs ? describe : describe.skip)(
      `on Node ${major}${node.runs ? "" : ` [skipped: ${node.missing}]`}`,
      () => {
        it("judges through openai 7, @anthropic-ai/sdk and ai 7, scores on the command line, and runs the matchers under vitest 5", async () => {
          expect(node.present, node.missing).toBe(true);
          const server = await startLlmServer({ answer: () => ({ reason: "fine", score: 1 }) });
          try {
            consumer.write(`judges-${major}.mjs`, judges(server));
            const asked = await runProgram(node.path, [`judges-${major}.mjs`], {
              cwd: consumer.directory,
            });
            expect(asked.stderr).toBe("");
            expect(asked.stdout.trim().split("\n")).toEqual([
              'openai {"reason":"fine","score":1}',
              'anthropic {"reason":"fine","score":1}',
              'aiSdk {"reason":"fine","score":1}',
            ]);
            expect(server.modelCalls.map((call) => call.provider)).toEqual([
              "openai",
              "anthropic",
              "openai",
            ]);
          } finally {
            await server.close();
          }
          // Decision models through the SDKs' own paths: openai 7's decisions.create, and ai 7's
          // experimental_decide over @ai-sdk/openai 4's decision model.
          const decisions = await startDecisionServer(() => 0.9);
          try {
            consumer.write(`deciders-${major}.mjs`, deciders(`${decisions.url}/v1`));
            const decided = await runProgram(node.path, [`deciders-${major}.mjs`], {
              cwd: consumer.directory,
            });
            expect(decided.stderr).toBe("");
            expect(decided.stdout.trim().split("\n")).toEqual([
              'openaiDecisions {"answers":{"right":{"yes":0.9,"no":0.09999999999999998}}}',
              'aiSdkDecide {"answers":{"right":{"yes":0.9,"no":0.09999999999999998}}}',
            ]);
            expect(decisions.requests.map((request) => request.path)).toEqual([
              "/v1/decisions",
              "/v1/decisions",
            ]);
          } finally {
            await decisions.close();
          }
          consumer.write(
            `cases-${major}.jsonl`,
            `${JSON.stringify({ id: "ok", toolsCalled: [{ name: "a" }], expectedTools: [{ name: "a" }] })}\n`,
          );
          const bin = path.join(
            consumer.directory,
            "node_modules",
            "toolscore",
            "dist",
            "cli",
            "bin.js",
          );
          const cli = await runProgram(
            node.path,
            [bin, "eval", `cases-${major}.jsonl`, "--out", `results-${major}.jsonl`],
            { cwd: consumer.directory },
          );
          expect(cli.stdout).toContain("1 case: 1 passed");
          expect(cli.code).toBe(0);
          consumer.write(`tests-${major}/tools.test.ts`, vitestTest);
          const vitest = path.join(consumer.directory, "node_modules", "vitest", "vitest.mjs");
          const ran = await runProgram(node.path, [vitest, "run", `tests-${major}`], {
            cwd: consumer.directory,
            env: { ...process.env, CI: "1", NO_COLOR: "1", FORCE_COLOR: "0" },
          });
          expect(ran.stdout).toMatch(/Tests\s+1 passed/);
          expect(ran.code).toBe(0);
        });
      },
    );
  }
});
