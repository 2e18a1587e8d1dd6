import { toolCallAccuracy } from "../metrics/tool-call-accuracy.js";
import { describe, expect, it } from "vitest";
import { ErrorCode, InvalidOptionError } from "../core/errors.js";
import { measureKeepingDetails, measuresKeepingDetails } from "../core/metric.js";
import type { MetricResult } from "../core/metric-result.js";
import { toToolCall } from "../core/tool-call.js";
import { createDeterministicMetric, deterministicMetrics } from "../metrics/definitions.js";
import { createMetric, metricDefinitions } from "./metric-registry.js";
import { metricCatalog } from "../core/metric-catalog.js";

const call = (name: string, args: Record<string, unknown> = {}) =>
  toToolCall({ name, inputParameters: args });

const swapped = {
  toolsCalled: [call("b", { x: 1 }), call("a")],
  expectedTools: [call("a"), call("b", { x: 2 })],
};

function scoreOf(result: MetricResult): number | undefined {
  return result.status === "scored" ? result.score : undefined;
}

describe("createMetric", () => {
  it("makes the catalog's metrics, in its order, as it describes them", () => {
    const described = metricDefinitions.map((definition) => ({
      id: definition.id,
      description: definition.description,
      judge: definition.judge,
      ...(definition.judge === "optional" ? { when: definition.asksJudge.when } : {}),
    }));
    expect(described).toEqual(metricCatalog);
  });

  it("lists every deterministic metric once, none of them judged", () => {
    const ids = deterministicMetrics.map((definition) => definition.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([
      "tool-call-accuracy",
      "deepeval-tool-correctness",
      "axion-tool-correctness",
      "ragas-tool-call-accuracy",
      "ragas-tool-call-f1",
      "response-contains",
      "recovery",
      "efficiency",
      "tool-safety",
    ]);
    expect(deterministicMetrics.every((definition) => definition.judge === "none")).toBe(true);
  });

  it("names an unknown metric and the known ones", () => {
    expect(() => createMetric({ metric: "tool-correctnes" })).toThrow(
      /unknown metric "tool-correctnes"; known metrics: tool-call-accuracy, deepeval/,
    );
  });

  it("names the metric id the user wrote for a typo, and the missing metric key", () => {
    expect(() => createMetric({ metric: "tool-call-accuracy", ordr: "strict" })).toThrow(
      /^tool-call-accuracy has no option "ordr" \(did you mean "order"\?\)/,
    );
    expect(() => toolCallAccuracy({ ordr: "strict" } as never)).toThrow(
      /^toolCallAccuracy has no option "ordr"/,
    );
    expect(() => createMetric({ order: "any" } as never)).toThrow(
      /^createMetric needs the metric key, the id of the metric to make/,
    );
  });

  it("rejects an option the metric does not take, naming it", () => {
    try {
      createMetric({ metric: "deepeval-tool-correctness", thresold: 0.5 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as InvalidOptionError).code).toBe(ErrorCode.INVALID_OPTION);
      expect((error as Error).message).toMatch(/thresold/);
    }
  });

  it("reads snake_case option names and deepeval's Python spellings", async () => {
    const snake = createMetric({
      metric: "deepeval-tool-correctness",
      should_consider_ordering: true,
      evaluation_params: ["input_parameters"],
    });
    const camel = createMetric({
      metric: "deepeval-tool-correctness",
      shouldConsiderOrdering: true,
      evaluationParams: ["inputParameters"],
    });
    const [a, b] = await Promise.all([snake.measure(swapped), camel.measure(swapped)]);
    expect(scoreOf(a)).toBeDefined();
    expect(scoreOf(a)).toBe(scoreOf(b));
    expect(a.metric).toBe("Tool Correctness");
  });

  it("derives a metric with some options replaced, keeping the id and the others", async () => {
    const loose = createMetric({
      metric: "tool-call-accuracy",
      name: "calls",
      arguments: "ignore",
    });
    const strict = loose.withOptions?.({ order: "strict" });
    expect(strict?.id).toBe("tool-call-accuracy");
    expect(strict?.name).toBe("calls");
    expect(scoreOf(await loose.measure(swapped))).toBe(1);
    const strictResult = await strict?.measure(swapped);
    expect(strictResult && scoreOf(strictResult)).toBe(0);

    // axion leaves parameters unchecked unless asked; snake_case overrides are read too.
    const axion = createMetric({ metric: "axion-tool-correctness" });
    const checking = axion.withOptions?.({ check_parameters: true });
    const checkingResult = await checking?.measure(swapped);
    expect(scoreOf(await axion.measure(swapped))).toBe(1);
    expect(checkingResult && scoreOf(checkingResult)).toBeLessThan(1);
  });

  it("records a case without the lists it needs as that case's error", async () => {
    const metric = createMetric({ metric: "axion-tool-correctness" });
    const result = await metric.measure({ toolsCalled: [call("a")] });
    expect(result).toMatchObject({
      status: "error",
      error: { code: ErrorCode.MISSING_PARAMS },
    });
    expect(result.status === "error" && result.error.message).toMatch(/expectedTools/);
  });
});

describe("createMetric: details a caller does not keep", () => {
  const passing = {
    input: "",
    toolsCalled: [toToolCall({ name: "a", inputParameters: { x: 1 } })],
    expectedTools: [toToolCall({ name: "a", inputParameters: { x: 1 } })],
  };
  const failing = { ...passing, toolsCalled: [toToolCall({ name: "b", inputParameters: {} })] };

  it.each(["tool-call-accuracy", "deepeval-tool-correctness", "axion-tool-correctness"])(
    "%s leaves them out, itself and derived with other options; the rest as measureSync",
    (id) => {
      const base = createMetric({ metric: id });
      const derived = base.withOptions?.({ threshold: 0.9 });
      for (const metric of [base, derived]) {
        if (metric === undefined || !measuresKeepingDetails<typeof passing>(metric)) {
          throw new Error("expected a metric that can leave details out");
        }
        for (const testCase of [passing, failing]) {
          const full = metric.measureSync?.(testCase);
          expect(full).toMatchObject({ status: "scored", details: expect.any(Object) });
          expect(metric[measureKeepingDetails](testCase, "none")).toEqual({
            ...full,
            details: null,
          });
          // Under "failed", a failed result keeps them.
          expect(metric[measureKeepingDetails](testCase, "failed")).toEqual(
            testCase === failing ? full : { ...full, details: null },
          );
        }
      }
    },
  );
});

describe("createDeterministicMetric: what worker threads make", () => {
  const testCase = {
    input: "",
    toolsCalled: [toToolCall({ name: "a", inputParameters: { x: 1 } })],
    expectedTools: [
      toToolCall({ name: "a", inputParameters: { x: 2 } }),
      toToolCall({ name: "b", inputParameters: {} }),
    ],
    expectedOutputContains: ["hi"],
    actualOutput: "hi there",
  };

  it.each(deterministicMetrics.map((definition) => definition.id))(
    "makes %s as createMetric does, with the same name, id and results",
    (id) => {
      const options = { threshold: 0.4 };
      const lean = createDeterministicMetric(id, options);
      const full = createMetric({ metric: id, ...options });
      expect(lean?.id).toBe(id);
      expect(lean?.name).toBe(full.name);
      expect(lean?.measureSync?.(testCase)).toEqual(full.measureSync?.(testCase));
    },
  );

  it("makes no other metric: those come from the whole registry", () => {
    expect(createDeterministicMetric("tool-selection", {})).toBeUndefined();
    expect(createDeterministicMetric("deepeval-trajectory-tool-correctness", {})).toBeUndefined();
  });
});
