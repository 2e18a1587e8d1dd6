import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode, ProviderConfigError } from "../core/errors.js";
import type { JudgeModel } from "../core/judge.js";
import type { TestCase } from "../core/test-case.js";
import { createMetric } from "../registry/metric-registry.js";
import { startDecisionServer } from "../../test/support/decision-server.js";
import { currentMajor } from "../../test/support/current-stack.js";
import type { Answer, DecisionServer } from "../../test/support/decision-server.js";
import { createOpenAIDecisionsJudge } from "./openai-decisions.js";
import { resolveJudgeModel } from "./judge-models.js";
import { fromAiSdkDecisionModel } from "./ai-sdk.js";
import type { AiSdkDecisionModel } from "./ai-sdk.js";

const refund: TestCase = {
  input: "Refund 30 EUR on order 4521.",
  availableTools: [{ name: "refund_order", description: "Refunds an amount on an order." }],
  toolsCalled: [
    { name: "get_order", arguments: { order: "4521" }, output: { total: 120 } },
    { name: "refund_order", arguments: { order: "4521", amount: 300 }, output: "ok" },
  ] as never,
  actualOutput: "Refunded.",
};

/** The first call's arguments are right, the second's (300 for 30) wrong; the task not done. */
const knowing: Answer = (question): number | Record<string, number> => {
  if (question.type === "yes-no") return question.instructions.includes("call 1") ? 0.94 : 0.03;
  if (question.type === "choice") {
    return { completed: 0.05, partially_completed: 0.15, not_completed: 0.8 };
  }
  return { "0": 0.05, "1": 0.05, "2": 0.1, "3": 0.2, "4": 0.6 };
};

let server: DecisionServer;
beforeAll(async () => {
  server = await startDecisionServer(knowing);
});
afterAll(() => server.close());

const measure = (metric: string, judge: JudgeModel) =>
  createMetric({ metric }, { judge }).measure(refund);

describe("OpenAI's Decisions API", () => {
  const judge = () =>
    resolveJudgeModel("openai-decisions/gpt-6-luna", {
      apiKey: "sk-test",
      baseURL: `${server.url}/v1`,
      maxRetries: 2,
    });

  it("asks typed questions about the case and reads the probabilities into verdicts", async () => {
    server.requests.length = 0;
    const result = await measure("argument-correctness", judge());
    expect(result).toMatchObject({ status: "scored", score: 0.5 });
    const [request] = server.requests;
    expect(request.path).toBe("/v1/decisions");
    expect(request.headers.authorization).toBe("Bearer sk-test");
    const body = request.body as {
      model: string;
      input: { role: string; content: unknown }[];
      questions: { type: string; name: string; instructions: string }[];
    };
    expect(body.model).toBe("gpt-6-luna");
    expect(body.input.map((message) => message.role)).toEqual(["system", "user"]);
    expect(JSON.stringify(body.input[1].content)).toContain("input_text");
    expect(JSON.stringify(body.input[1].content)).toContain("Call 2: refund_order");
    expect(body.questions.map((q) => [q.type, q.name])).toEqual([
      ["predicate", "call_1"],
      ["predicate", "call_2"],
    ]);
    if (result.status === "scored") expect(result.reason).toContain("P(right) 0.03");
  });

  it("asks a choice for task-completion and a scale for tool-selection", async () => {
    server.requests.length = 0;
    expect(await measure("task-completion", judge())).toMatchObject({ status: "scored", score: 0 });
    expect(await measure("tool-selection", judge())).toMatchObject({ status: "scored" });
    const [choice, score] = server.requests.map(
      (request) => (request.body as { questions: Record<string, unknown>[] }).questions[0],
    );
    expect(choice).toMatchObject({ type: "choice", name: "task" });
    expect((choice.choices as { value: string }[]).map((c) => c.value)).toEqual([
      "completed",
      "partially_completed",
      "not_completed",
    ]);
    expect(score).toMatchObject({ type: "score", name: "selection" });
    expect(score.levels).toHaveLength(5);
  });

  it("retries what the SDK retries, and says what the API answered when it gives up", async () => {
    server.failures.push(429);
    expect(await measure("argument-correctness", judge())).toMatchObject({ status: "scored" });
    server.failures.push(401);
    const failed = await measure("argument-correctness", judge());
    expect(failed.status).toBe("error");
    if (failed.status === "error") {
      expect(failed.error.code).toBe(ErrorCode.PROVIDER_CALL);
      expect(failed.error.message).toContain("answered 401");
    }
  });

  it("goes through openai 7's client.decisions.create when given that client", async () => {
    const { default: OpenAI } =
      (await import("../../test/stacks/current/node_modules/openai/index.mjs")) as {
        default: new (options: Record<string, unknown>) => unknown;
      };
    const client = new OpenAI({ apiKey: "sk-7", baseURL: `${server.url}/v1` });
    expect(typeof (client as { decisions?: { create?: unknown } }).decisions?.create).toBe(
      "function",
    );
    server.requests.length = 0;
    const judge7 = createOpenAIDecisionsJudge({ model: "gpt-6-luna", client: client as never });
    expect(await measure("argument-correctness", judge7)).toMatchObject({
      status: "scored",
      score: 0.5,
    });
    expect(server.requests[0].headers.authorization).toBe("Bearer sk-7");
  });

  it("refuses settings that do not apply, and a metric that wants free text", () => {
    expect(() =>
      resolveJudgeModel("openai-decisions/gpt-6-luna", { apiKey: "k", structuredOutput: "prompt" }),
    ).toThrow(/structuredOutput does not apply: a decision model answers with probabilities/);
    expect(() => resolveJudgeModel("openai-decisions/gpt-6-luna", { env: {} })).toThrow(
      ProviderConfigError,
    );
    expect(() => createMetric({ metric: "multimodal-faithfulness" }, { judge: judge() })).toThrow(
      /openai-decisions\/gpt-6-luna is a decision model/,
    );
  });
});

describe("the System One wire format", () => {
  const judge = () =>
    resolveJudgeModel("systemone/jev-latest", { env: { SYSTEMONE_BASE_URL: server.url } });

  it("sends the case as the state, with noul, choice and score questions keyed by id", async () => {
    server.requests.length = 0;
    expect(await measure("argument-correctness", judge())).toMatchObject({
      status: "scored",
      score: 0.5,
    });
    expect(await measure("task-completion", judge())).toMatchObject({ status: "scored", score: 0 });
    expect(await measure("tool-selection", judge())).toMatchObject({ status: "scored" });
    const bodies = server.requests.map(
      (request) =>
        request.body as {
          model: string;
          state: string;
          questions: Record<string, { type: string; criteria?: unknown }>;
        },
    );
    expect(server.requests.every((request) => request.path === "/v1/systemone")).toBe(true);
    expect(bodies[0].model).toBe("jev-latest");
    expect(bodies[0].state).toContain("Call 2: refund_order");
    // The instructions travel in the state: the format has no system message.
    expect(bodies[0].state).toContain("You judge the arguments");
    expect(Object.entries(bodies[0].questions).map(([id, q]) => [id, q.type])).toEqual([
      ["call_1", "noul"],
      ["call_2", "noul"],
    ]);
    expect(Object.keys(bodies[1].questions.task.criteria as object)).toEqual([
      "completed",
      "partially_completed",
      "not_completed",
    ]);
    expect(bodies[2].questions.selection.criteria).toHaveLength(5);
    // A local server takes any key; the SDK sends one.
    expect(server.requests[0].headers.authorization).toBe("Bearer not-needed");
  });

  it("counts a question a server leaves unanswered as cannot tell, never as an answer", async () => {
    server.answer = (question, state) =>
      question.id === "call_2" ? undefined : knowing(question, state);
    try {
      const result = await measure("argument-correctness", judge());
      expect(result.status).toBe("not-evaluable");
      if (result.status === "not-evaluable") expect(result.reason).toContain("declined to answer");
    } finally {
      server.answer = knowing;
    }
  });

  it("needs the server's address", () => {
    expect(() => resolveJudgeModel("systemone/jev-latest", { env: {} })).toThrow(
      /systemone: no server address; set SYSTEMONE_BASE_URL/,
    );
  });
});

describe("AI SDK 7 decision models", () => {
  /** ai 7's own experimental_decide and mock decision model, from the current-majors workspace. */
  async function ai7() {
    const ai = (await currentMajor("ai")) as { experimental_decide: (...args: never[]) => unknown };
    const test = (await currentMajor("ai/test")) as {
      Experimental_DecisionMockModelV4: new (options: {
        doDecide: (options: {
          state: unknown;
          questions: Record<string, { type: string; instructions?: unknown }>;
        }) => Promise<unknown>;
      }) => AiSdkDecisionModel;
    };
    return { decide: ai.experimental_decide, Mock: test.Experimental_DecisionMockModelV4 };
  }

  it("asks through experimental_decide and reads its answers", async () => {
    const { decide, Mock } = await ai7();
    const seen: { state: unknown; questions: Record<string, { type: string }> }[] = [];
    const model = new Mock({
      doDecide: (options) => {
        seen.push(options);
        const answers = Object.fromEntries(
          Object.entries(options.questions).map(([id, question]) => [
            id,
            question.type === "boolean"
              ? { type: "boolean", probability: id === "call_1" ? 0.9 : 0.1 }
              : {
                  type: "choice",
                  choice: "completed",
                  probabilities: { completed: 0.9, partially_completed: 0.05, not_completed: 0.05 },
                },
          ]),
        );
        return Promise.resolve({
          answers,
          warnings: [],
          usage: { inputTokens: 40, outputTokens: 0 },
        });
      },
    });
    const judge = fromAiSdkDecisionModel(model, { decide });
    expect(judge.answers).toBe("decisions");
    expect(await measure("argument-correctness", judge)).toMatchObject({
      status: "scored",
      score: 0.5,
    });
    expect(await measure("task-completion", judge)).toMatchObject({ status: "scored", score: 1 });
    expect(Object.values(seen[0].questions).map((q) => q.type)).toEqual(["boolean", "boolean"]);
    expect(JSON.stringify(seen[0].state)).toContain("Call 2: refund_order");
  });

  it("says which ai package a decision model needs when the installed one has no experimental_decide", async () => {
    const judge = fromAiSdkDecisionModel({
      specificationVersion: "v4",
      provider: "mock",
      modelId: "m",
    });
    const result = await measure("argument-correctness", judge);
    expect(result.status).toBe("error");
    if (result.status === "error") expect(result.error.message).toContain("need ai 7 or later");
  });
});
