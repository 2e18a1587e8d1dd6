import { describe, expect, it } from "vitest";
import type { TestCase } from "../core/test-case.js";
import type { JudgeModel } from "../core/judge.js";
import { toToolCall } from "../core/tool-call.js";
import type { RunMetricConfig } from "../metrics/definitions.js";
import { metricEntry } from "../metrics/definitions.js";
import { createDeterministicMetrics } from "./deterministic-metrics.js";
import { createMetricSet, isJudged } from "./metric-set.js";

const testCase: TestCase = {
  input: "weather in Paris, then book",
  toolsCalled: [
    toToolCall({ name: "get_weather", arguments: { city: "Paris" } }),
    toToolCall({ name: "book", arguments: { city: "Paris", nights: 3 } }),
  ],
  expectedTools: [
    toToolCall({ name: "book", arguments: { city: "Paris", nights: 2 } }),
    toToolCall({ name: "get_weather", arguments: { city: "paris" } }),
  ],
  actualOutput: "Booked Paris.",
};

const deterministic: RunMetricConfig[] = [
  { metric: "tool-call-accuracy", options: { order: "strict" } },
  { metric: "deepeval-tool-correctness", options: { evaluation_params: ["input_parameters"] } },
  { metric: "axion-tool-correctness", options: { threshold: 0.4 } },
  { metric: "ragas-tool-call-f1", options: {} },
  { metric: "response-contains", options: { values: ["Paris"] } },
];

describe("createMetricSet", () => {
  it("fills in the run's threshold where a metric sets none, and says what workers can score", () => {
    const set = createMetricSet<TestCase>(deterministic.map(metricEntry), {
      allowEmpty: false,
      threshold: 0.8,
    });
    expect(set.names).toHaveLength(5);
    expect(set.configs.map((config) => config?.options.threshold)).toEqual([
      0.8, 0.8, 0.4, 0.8, 0.8,
    ]);
    expect(set.deterministic).toEqual(set.configs);
    expect(set.recomputable).toEqual(set.names);
  });

  it("keeps a judged metric and a metric object out of what workers and reports recompute", () => {
    // Never asked: making the metrics asks nothing.
    const judge: JudgeModel = {
      specificationVersion: "v1",
      provider: "test",
      modelId: "never-asked",
      supportsImages: false,
      generate: () => Promise.reject(new Error("not asked")),
    };
    const own = { name: "own", measure: () => ({ status: "scored" as const, score: 1 }) };
    const set = createMetricSet<TestCase>(
      [{ metric: "axion-tool-correctness" }, { metric: "tool-selection" }, own],
      { allowEmpty: false, judge },
    );
    expect(set.names).toHaveLength(3);
    expect(set.deterministic).toBeUndefined();
    expect(set.allConfigs).toBeUndefined();
    expect(set.recomputable).toEqual([set.names[0]]);
    expect(isJudged({ metric: "tool-selection", options: {} })).toBe(true);
    expect(isJudged({ metric: "axion-tool-correctness", options: {} })).toBe(false);
  });

  it("refuses an empty list, something that is no metric, and two metrics of one name", () => {
    const make = (given: unknown) => () => createMetricSet(given, { allowEmpty: false });
    expect(make([])).toThrow(/non-empty list of metrics or metric configs/);
    expect(make([{ metric: "tool-call-accuracy" }, 3])).toThrow(/metrics\[1\] is .*not a metric/);
    expect(make([{ metric: "tool-call-accuracy" }, { metric: "tool-call-accuracy" }])).toThrow(
      /two metrics are named "Tool Call Accuracy"/,
    );
    expect(createMetricSet([], { allowEmpty: true }).metrics).toEqual([]);
  });

  it("puts a configured metric's options beside its id, and refuses one named metric", () => {
    expect(metricEntry({ metric: "tool-call-accuracy", options: { order: "strict" } })).toEqual({
      metric: "tool-call-accuracy",
      order: "strict",
    });
    expect(() =>
      metricEntry({ metric: "tool-call-accuracy", options: { metric: "tool-selection" } }),
    ).toThrow(/tool-call-accuracy has no option "metric"/);
  });
});

describe("createDeterministicMetrics", () => {
  it("scores exactly as the run's metric set does (the pack workers and reports load)", async () => {
    const set = createMetricSet<TestCase>(deterministic.map(metricEntry), {
      allowEmpty: false,
      threshold: 0.7,
    });
    const pack = await createDeterministicMetrics(deterministic, 0.7);
    expect(pack.map((metric) => metric.name)).toEqual(set.names);
    for (const [at, metric] of pack.entries()) {
      expect(await metric.measure(testCase), set.names[at]).toEqual(
        await set.metrics[at].measure(testCase),
      );
    }
  });

  it("makes the registry's other deterministic metrics too", async () => {
    const [metric] = await createDeterministicMetrics([
      { metric: "deepeval-trajectory-tool-correctness", options: {} },
    ]);
    expect(metric.name).toMatch(/\w/);
  });
});
