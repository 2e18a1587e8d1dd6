import { describe, expect, it } from "vitest";
import { DatasetParseError, ErrorCode, InvalidOptionError } from "../core/errors.js";
import type { Metric } from "../core/metric.js";
import type { MetricResult } from "../core/metric-result.js";
import type { TestCase } from "../core/test-case.js";
import { toToolCall } from "../core/tool-call.js";
import { createMetric } from "../registry/metric-registry.js";
import { evaluate } from "./evaluate.js";
import type { RunEvent } from "./evaluate.js";
import type { CaseResult } from "../core/case-result.js";
import { createCaseScorer } from "./score-case.js";

const call = (name: string, args: Record<string, unknown> = {}) =>
  toToolCall({ name, inputParameters: args });

/** A metric that scores `case.score` after `case.delay` ms, so completion order can be shuffled. */
function scripted(
  name = "scripted",
  threshold = 0.5,
): Metric<TestCase & { score?: number; delay?: number; throws?: boolean }> {
  return {
    name,
    async measure(testCase, options = {}): Promise<MetricResult> {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, testCase.delay ?? 0);
        options.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new Error("aborted"));
        });
      });
      if (testCase.throws === true) throw new Error("boom");
      const score = testCase.score ?? 1;
      return {
        status: "scored",
        metric: name,
        score,
        threshold,
        success: score >= threshold,
        details: null,
      };
    },
  };
}

describe("evaluate", () => {
  it("returns results in input order whatever the completion order, and sums up", async () => {
    const cases = [
      { id: "slow", score: 1, delay: 30 },
      { id: "fast", score: 0.2, delay: 0 },
      { id: "mid", score: 0.75, delay: 10 },
    ];
    const finished: string[] = [];
    const { results, summary } = await evaluate({
      testCases: cases,
      metrics: [scripted()],
      concurrency: 3,
      onEvent: (event) => {
        if (event.type === "case-end") finished.push(event.result.id);
      },
    });
    expect(results.map((result) => result.id)).toEqual(["slow", "fast", "mid"]);
    expect(results.map((result) => result.index)).toEqual([0, 1, 2]);
    expect(finished).toEqual(["fast", "mid", "slow"]);
    expect(results.map((result) => result.status)).toEqual(["passed", "failed", "passed"]);
    expect(summary).toMatchObject({ cases: 3, passed: 2, failed: 1, errors: 0, aborted: false });
    expect(summary.passRate).toBeCloseTo(2 / 3);
    const [metric] = summary.metrics;
    expect(metric.mean).toBeCloseTo((1 + 0.2 + 0.75) / 3);
    expect(metric).toMatchObject({
      scored: 3,
      passed: 2,
      failed: 1,
      min: 0.2,
      max: 1,
      failedIds: ["fast"],
    });
    expect(metric.histogram).toEqual([0, 0, 1, 0, 0, 0, 0, 1, 0, 1]);
  });

  it("groups repeated runs by run number, or by groupBy, into pass@k and pass^k", async () => {
    const cases = [
      { id: "a", run: 0, score: 1, metadata: { task: "t1" } },
      { id: "a", run: 1, score: 0, metadata: { task: "t1" } },
      { id: "b", run: 0, score: 1, metadata: { task: "t1" } },
      { id: "c", score: 1, metadata: { task: "t2" } },
    ];
    const byRun = await evaluate({ testCases: cases, metrics: [scripted()] });
    expect(byRun.results.map((result) => [result.run, result.group])).toEqual([
      [0, "a"],
      [1, "a"],
      [0, "b"],
      [undefined, undefined],
    ]);
    expect(byRun.summary.repeats).toMatchObject({
      cases: 2,
      runs: 3,
      ungrouped: 1,
      passAtK: 1,
      passHatK: 0.5,
      flaky: 1,
      flakyCases: [{ key: "a", runs: 2, passed: 1 }],
    });
    const byTask = await evaluate({
      testCases: cases,
      metrics: [scripted()],
      groupBy: "metadata.task",
    });
    expect(byTask.summary.repeats).toMatchObject({ by: "metadata.task", cases: 2, runs: 4 });
    expect(byTask.summary.repeats?.listed).toEqual([
      { key: "t1", runs: 3, passed: 2 },
      { key: "t2", runs: 1, passed: 1 },
    ]);
    const plain = await evaluate({ testCases: [{ id: "x", score: 1 }], metrics: [scripted()] });
    expect(plain.summary.repeats).toBeUndefined();
    await expect(
      evaluate({ testCases: cases, metrics: [scripted()], groupBy: "task" as "id" }),
    ).rejects.toThrow(InvalidOptionError);
  });

  it("never has more cases in flight than the concurrency", async () => {
    let inFlight = 0;
    let most = 0;
    const metric: Metric = {
      name: "counting",
      async measure() {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight--;
        return { status: "skipped", metric: "counting", reason: "counting only" };
      },
    };
    const { summary } = await evaluate({
      testCases: Array.from({ length: 40 }, (_, index) => ({ id: String(index) })),
      metrics: [metric],
      concurrency: 4,
    });
    expect(most).toBe(4);
    expect(summary).toMatchObject({ cases: 40, passed: 40 });
    expect(summary.metrics[0]).toMatchObject({
      skipped: 40,
      scored: 0,
      mean: null,
      passRate: null,
    });
  });

  it("records a case that throws, and a case that could not be read, and goes on", async () => {
    async function* stream() {
      await Promise.resolve();
      yield { id: "ok", score: 1 };
      yield new DatasetParseError({ message: "line 2: not JSON", line: 2, item: 1 });
      yield { id: "bad", throws: true };
      yield { id: "after", score: 0.9 };
    }
    const { results, summary } = await evaluate({ testCases: stream(), metrics: [scripted()] });
    expect(results.map((result) => result.status)).toEqual(["passed", "error", "error", "passed"]);
    expect(results[1]).toMatchObject({
      id: "case-2",
      results: [],
      error: { code: ErrorCode.DATASET_PARSE, message: "line 2: not JSON" },
    });
    expect(results[2].results[0]).toMatchObject({
      status: "error",
      error: { code: ErrorCode.METRIC_FAILED, message: "boom" },
    });
    expect(summary).toMatchObject({ cases: 4, passed: 2, errors: 2 });
    expect(summary.metrics[0]).toMatchObject({ cases: 3, errors: 1, scored: 2 });
  });

  it("applies a case's own metric options, by id or by name, and rejects unknown ones", async () => {
    const metric = createMetric({ metric: "tool-call-accuracy" });
    const toolsCalled = [call("b"), call("a")];
    const expectedTools = [call("a"), call("b")];
    const { results } = await evaluate({
      testCases: [
        { id: "any", toolsCalled, expectedTools },
        {
          id: "by-id",
          toolsCalled,
          expectedTools,
          metricOptions: { "tool-call-accuracy": { order: "strict" } },
        },
        {
          id: "by-name",
          toolsCalled,
          expectedTools,
          metricOptions: { "Tool Call Accuracy": { order: "strict" } },
        },
        {
          id: "typo",
          toolsCalled,
          expectedTools,
          metricOptions: { "tool-call-acuracy": { order: "strict" } },
        },
        {
          id: "bad-option",
          toolsCalled,
          expectedTools,
          metricOptions: { "tool-call-accuracy": { order: "sideways" } },
        },
      ],
      metrics: [metric],
    });
    const scores = results.map(
      (result) => (result.results[0] as { score?: number } | undefined)?.score,
    );
    expect(scores.slice(0, 3)).toEqual([1, 0, 0]);
    expect(results[3]).toMatchObject({
      status: "error",
      error: { field: "metricOptions.tool-call-acuracy" },
    });
    expect(results[4].results[0]).toMatchObject({
      status: "error",
      metric: "Tool Call Accuracy",
      error: { code: ErrorCode.INVALID_OPTION },
    });
  });

  it("stops on abort, keeping the cases that finished", async () => {
    const controller = new AbortController();
    const events: RunEvent["type"][] = [];
    const cases = Array.from({ length: 20 }, (_, index) => ({
      id: `c${index}`,
      delay: index < 3 ? 0 : 200,
    }));
    setTimeout(() => {
      controller.abort();
    }, 50);
    const { results, summary } = await evaluate({
      testCases: cases,
      metrics: [scripted()],
      concurrency: 4,
      signal: controller.signal,
      onEvent: (event) => events.push(event.type),
    });
    expect(results.map((result) => result.id)).toEqual(["c0", "c1", "c2"]);
    expect(summary).toMatchObject({ cases: 3, aborted: true });
    expect(events.at(0)).toBe("run-start");
    expect(events.at(-1)).toBe("run-end");
  });

  it("reports the judge session's figures", async () => {
    const judge = {
      summary: () => ({
        calls: 3,
        batchedRequests: 0,
        cacheHits: 1,
        cacheMisses: 3,
        failures: 0,
        inputTokens: 300,
        outputTokens: 30,
        estimatedCostUsd: 0.001,
        unpricedModels: [],
      }),
    };
    const { summary } = await evaluate({ testCases: [{}], metrics: [scripted()], judge });
    expect(summary.judge).toMatchObject({ calls: 3, cacheHits: 1, estimatedCostUsd: 0.001 });
  });

  it("rethrows a failing dataset after the cases in flight finish", async () => {
    const seen: string[] = [];
    async function* stream() {
      await Promise.resolve();
      yield { id: "first", delay: 20 };
      throw new Error("disk gone");
    }
    await expect(
      evaluate({
        testCases: stream(),
        metrics: [scripted()],
        onEvent: (event) => {
          if (event.type === "case-end") seen.push(event.result.id);
        },
      }),
    ).rejects.toThrow("disk gone");
    expect(seen).toEqual(["first"]);
  });

  it("refuses bad options by name", async () => {
    await expect(evaluate({ testCases: [], metrics: [] })).rejects.toThrow(InvalidOptionError);
    await expect(
      evaluate({ testCases: [], metrics: [scripted("x"), scripted("x")] }),
    ).rejects.toThrow(/two metrics are named "x"/);
    await expect(
      evaluate({ testCases: [], metrics: [scripted()], concurrency: 0 }),
    ).rejects.toThrow(/concurrency/);
    await expect(evaluate({ testCases: 5 as never, metrics: [scripted()] })).rejects.toThrow(
      /testCases/,
    );
  });

  it("keeps no results when asked, but still sums up", async () => {
    const { results, summary } = await evaluate({
      testCases: [{ score: 0 }, { score: 1 }],
      metrics: [scripted()],
      keepResults: false,
    });
    expect(results).toEqual([]);
    expect(summary).toMatchObject({ cases: 2, passed: 1, failed: 1 });
  });

  it("scores with scoreCase, adding the metrics it names, and skips finished positions", async () => {
    const scored: number[] = [];
    const result = (metric: string, score: number): MetricResult => ({
      status: "scored",
      metric,
      score,
      threshold: 0.5,
      success: score >= 0.5,
      details: null,
    });
    const { results, summary } = await evaluate<{ n: number }>({
      testCases: [{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }],
      metrics: [],
      skip: (position) => position === 1,
      scoreCase: async (item, { position }) => {
        await Promise.resolve();
        scored.push(position.index);
        if (item.n === 3) throw new Error("the app broke");
        if (item.n === 4) throw new InvalidOptionError({ option: "x", value: 1, message: "bad x" });
        return item.n === 0
          ? [result("end", 1)]
          : [result("end", 1), result(`component › m`, item.n === 2 ? 0 : 1)];
      },
    });
    expect(scored.sort()).toEqual([0, 2, 3, 4]);
    expect(results.map((case_) => [case_.index, case_.status, case_.error?.code])).toEqual([
      [0, "passed", undefined],
      [2, "failed", undefined],
      [3, "error", ErrorCode.CALLBACK_FAILED],
      [4, "error", ErrorCode.INVALID_OPTION],
    ]);
    expect(results[2].error?.message).toBe("the app broke");
    expect(summary).toMatchObject({ cases: 4, passed: 1, failed: 1, errors: 2, unscored: 2 });
    expect(summary.metrics.map((metric) => [metric.name, metric.cases])).toEqual([
      ["end", 2],
      ["component › m", 1],
    ]);
  });
});

describe("createCaseScorer", () => {
  it("scores synchronously when every metric can, with the same results as measure", async () => {
    const metric = createMetric({ metric: "tool-call-accuracy" });
    const asyncOnly: Metric = { name: metric.name, measure: (c) => metric.measure(c) };
    const testCase = {
      id: "x",
      toolsCalled: [call("a", { q: 1 })],
      expectedTools: [call("a", { q: 2 })],
    };
    const sync = createCaseScorer({ metrics: [metric] }).score(testCase, 0);
    expect(sync).not.toBeInstanceOf(Promise);
    const viaPromise = createCaseScorer({ metrics: [asyncOnly] }).score(testCase, 0);
    expect(viaPromise).toBeInstanceOf(Promise);
    const { durationMs: _a, ...left } = sync as CaseResult;
    const { durationMs: _b, ...right } = await viaPromise;
    expect(left).toEqual(right);
  });

  it("records a metric whose measureSync throws as that metric's error", () => {
    const throwing: Metric = {
      name: "boom",
      measure: () => Promise.reject(new Error("never called")),
      measureSync: () => {
        throw new Error("sync boom");
      },
    };
    const result = createCaseScorer({ metrics: [throwing] }).score({ id: "a" }, 0) as CaseResult;
    expect(result).toMatchObject({
      status: "error",
      results: [
        { status: "error", error: { code: ErrorCode.METRIC_FAILED, message: "sync boom" } },
      ],
    });
  });
});
