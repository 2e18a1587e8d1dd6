import { describe, expect, it } from "vitest";
import { ToolCorrectness } from "../src/compat/axion/index.js";
import {
  DeepEvalToolCorrectnessMetric,
  LLMTestCase,
  MultimodalToolCorrectnessMetric,
  ToolCorrectnessMetric,
} from "../src/compat/deepeval/index.js";
import { MultiModalFaithfulness, MultiModalRelevance } from "../src/compat/ragas/index.js";
import { ErrorCode } from "../src/core/errors.js";
import type { JsonObject } from "../src/core/json.js";
import { asksJudge } from "../src/core/metric.js";
import type { TestCase } from "../src/core/test-case.js";
import { metricDefinitions, createMetric } from "../src/registry/metric-registry.js";
import { evaluate } from "../src/evaluate/evaluate.js";
import { useLlmServer } from "./support/judge-fixtures.js";

/**
 * evaluate() takes every metric toolscore exports, the compatible classes included, with the
 * same score, success and reason as their own measure / execute / ascore; anything else is
 * refused when evaluate is called. createMetric makes every metric of the registry, judged ones
 * too.
 */

const everyField = {
  reason: "judged",
  score: 0.75,
  faithful: true,
  relevant: true,
  overSelected: [],
  underSelected: [],
  misSelected: [],
  claims: [{ claim: "Paris is sunny", verdict: "supported", contexts: [1], reason: "context 1" }],
  calls: [{ call: 1, verdict: "right", reason: "Paris, as asked" }],
  verdict: "completed",
  unmet: [],
};

/** The fields the request's schema asks for, out of one answer that has them all. */
const server = useLlmServer({
  answer: ({ schema }) =>
    Object.fromEntries(
      Object.entries(everyField).filter(
        ([key]) => key in ((schema as { properties?: object } | undefined)?.properties ?? {}),
      ),
    ),
});

const judge = () => ({ apiKey: "k", baseURL: server().openaiBaseURL, maxRetries: 0 });

const call = (name: string, inputParameters: JsonObject = {}) => ({
  name,
  inputParameters,
});

/** Calls as users write them (the TestCase type holds them read). */
const cases: TestCase[] = [
  {
    id: "right",
    input: "weather in Paris",
    actualOutput: "It is sunny in Paris.",
    toolsCalled: [call("weather", { city: "Paris" })],
    expectedTools: [call("weather", { city: "Paris" })],
  },
  {
    id: "wrong",
    input: "weather in Paris",
    actualOutput: "It is sunny in Paris.",
    toolsCalled: [call("weather", { city: "Lyon" }), call("news")],
    expectedTools: [call("weather", { city: "Paris" })],
  },
] as never;

describe("evaluate takes the compatible classes as they are", () => {
  it.each([
    [
      "ToolCorrectnessMetric",
      () => new ToolCorrectnessMetric({ evaluationParams: ["inputParameters"], threshold: 0.6 }),
    ],
    [
      "MultimodalToolCorrectnessMetric",
      () =>
        new MultimodalToolCorrectnessMetric({
          evaluationParams: ["inputParameters"],
          threshold: 0.6,
        }),
    ],
  ])("%s: the score, success and reason of its own measure", async (_, make) => {
    const metric = make();
    const testCases = cases.map((testCase) => new LLMTestCase(testCase as never));
    const { results } = await evaluate({ testCases, metrics: [metric] });
    for (const [at, testCase] of testCases.entries()) {
      const own = make();
      const score = await own.measure(testCase);
      const result = results[at].results[0];
      expect(result).toMatchObject({
        status: "scored",
        score,
        success: own.isSuccessful(),
        reason: own.reason,
        threshold: own.threshold,
      });
    }
    expect(results.map((r) => r.status)).toEqual(["passed", "failed"]);
  });

  it("axion's ToolCorrectness: execute's score and explanation", async () => {
    const metric = new ToolCorrectness({ checkParameters: true, threshold: 0.9 });
    const { results } = await evaluate({ testCases: cases, metrics: [metric] });
    for (const [at, testCase] of cases.entries()) {
      const own = await metric.execute(testCase as never);
      expect(results[at].results[0]).toMatchObject({
        status: "scored",
        score: own.score,
        reason: own.explanation,
        success: own.score >= 0.9,
      });
    }
  });

  it("DeepEvalToolCorrectnessMetric: measure's result, on its own case shape", async () => {
    const metric = new DeepEvalToolCorrectnessMetric();
    const input = {
      query: "weather in Paris",
      toolsCalled: [{ name: "weather", args: { city: "Lyon" } }],
      expectedTools: [{ name: "weather", args: { city: "Paris" } }],
    };
    const own = await metric.measure(input);
    const { results } = await evaluate({ testCases: [input], metrics: [metric] });
    expect(results[0].results[0]).toMatchObject({
      status: "scored",
      score: own.score,
      success: own.success,
      reason: own.reason,
    });
  });

  it("ragas' classes: ascore's verdict and reason", async () => {
    const settings = { llm: "openai/gpt-4o", modelSettings: judge() };
    for (const metric of [
      new MultiModalFaithfulness(settings),
      new MultiModalRelevance(settings),
    ]) {
      const testCase = { ...cases[0], retrievedContexts: ["Paris is sunny today."] };
      const own = await metric.ascore({
        userInput: testCase.input,
        response: testCase.actualOutput,
        retrievedContexts: testCase.retrievedContexts,
      });
      const { results } = await evaluate({ testCases: [testCase], metrics: [metric] });
      expect(results[0].results[0]).toMatchObject({
        status: "scored",
        score: own.value,
        reason: own.reason,
        success: true,
      });
    }
  });

  it("refuses what is not a metric, naming it, before any case runs", async () => {
    for (const bad of [{}, { name: "x" }, 42, { measure: () => 1 }]) {
      await expect(
        evaluate({
          testCases: cases,
          metrics: [createMetric({ metric: "tool-call-accuracy" }), bad as never],
        }),
      ).rejects.toMatchObject({ code: ErrorCode.INVALID_OPTION, option: "metrics[1]" });
    }
  });

  it("records a metric whose measure gives no MetricResult as that case's error", async () => {
    const foreign = { name: "foreign", measure: () => Promise.resolve(0.5) };
    const { results } = await evaluate({ testCases: cases, metrics: [foreign as never] });
    expect(results[0]).toMatchObject({
      status: "error",
      results: [{ status: "error", error: { code: ErrorCode.METRIC_FAILED } }],
    });
    expect(results[0].results[0]).toHaveProperty(
      "error.message",
      expect.stringContaining("foreign's measure gave 0.5, not a MetricResult"),
    );
  });
});

describe("createMetric makes every metric of the registry", () => {
  const testCase = {
    ...cases[0],
    availableTools: [{ name: "weather" }],
    retrievedContexts: ["Paris is sunny today."],
  };

  it.each(
    metricDefinitions.map(
      (definition) => [definition.id, asksJudge(definition, {}, true)] as const,
    ),
  )("%s (judged: %s), carrying its id", async (id, judged) => {
    const metric = createMetric(
      { metric: id },
      judged ? { judge: "openai/gpt-4o-mini", modelSettings: judge() } : {},
    );
    expect(metric.id).toBe(id);
    const result = await metric.measure(testCase);
    expect(result, JSON.stringify(result)).toMatchObject({ status: "scored" });
  });

  it("deepeval-multimodal-tool-correctness scores as MultimodalToolCorrectnessMetric does", async () => {
    const metric = createMetric({
      metric: "deepeval-multimodal-tool-correctness",
      evaluation_params: ["input_parameters"],
      threshold: 0.6,
    });
    for (const testCase of cases) {
      const own = new MultimodalToolCorrectnessMetric({
        evaluationParams: ["inputParameters"],
        threshold: 0.6,
      });
      const score = await own.measure(new LLMTestCase(testCase as never));
      expect(await metric.measure(testCase)).toMatchObject({
        score,
        success: own.isSuccessful(),
        reason: own.reason,
      });
    }
  });

  it("deepeval-trajectory-tool-correctness scores as DeepEvalToolCorrectnessMetric does", async () => {
    const metric = createMetric({ metric: "deepeval-trajectory-tool-correctness" });
    for (const testCase of cases) {
      const own = await new DeepEvalToolCorrectnessMetric().measure({
        query: testCase.input as string,
        toolsCalled: testCase.toolsCalled as never,
        expectedTools: testCase.expectedTools as never,
      });
      expect(await metric.measure(testCase)).toMatchObject({
        score: own.score,
        success: own.success,
        reason: own.reason,
      });
    }
    // A case whose selection it would judge, without a judge: an error, not a score without it.
    expect(
      await metric.measure({ ...cases[0], availableTools: [{ name: "weather" }] }),
    ).toMatchObject({ status: "error", error: { code: ErrorCode.JUDGE_REQUIRED } });
  });

  it("takes a JudgeModel or a model string, and says what is missing", () => {
    expect(() => createMetric({ metric: "tool-selection" })).toThrow(
      expect.objectContaining({ code: ErrorCode.JUDGE_REQUIRED }),
    );
    expect(() =>
      createMetric(
        { metric: "tool-selection" },
        { judge: "openai/gpt-4o-mini", modelSettings: { env: {} } },
      ),
    ).toThrow(expect.objectContaining({ code: ErrorCode.PROVIDER_CONFIG }));
    expect(() => createMetric({ metric: "tool-selecton" })).toThrow(
      /unknown metric "tool-selecton" \(did you mean "tool-selection"\?\); known metrics: tool-call-accuracy, .*multimodal-faithfulness/,
    );
    expect(() =>
      createMetric(
        { metric: "tool-selection", treshold: 0.5 },
        { judge: "openai/x", modelSettings: judge() },
      ),
    ).toThrow(/did you mean "threshold"/);
  });

  it("reads options beside the id, and names options put under an options key", async () => {
    const strict = createMetric({ metric: "tool-call-accuracy", order: "strict" });
    const swapped = {
      toolsCalled: [call("b"), call("a")],
      expectedTools: [call("a"), call("b")],
    } as never;
    expect(await strict.measure(swapped)).toMatchObject({ success: false });
    expect(() =>
      createMetric({ metric: "tool-call-accuracy", options: { order: "strict" } }),
    ).toThrow(/tool-call-accuracy has no option "options"/);
  });
});
