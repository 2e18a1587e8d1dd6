import { describe, expect, it } from "vitest";
import { ErrorCode } from "../../core/errors.js";
import {
  AssertionError,
  LLMTestCase,
  ToolCall,
  ToolCorrectnessMetric,
  assertTest,
  evaluate,
} from "./index.js";

const testCase = (name: string, called: string[]) =>
  new LLMTestCase({
    input: "book a flight",
    actualOutput: "booked",
    toolsCalled: called.map((tool) => new ToolCall({ name: tool })),
    expectedTools: [new ToolCall({ name: "search" }), new ToolCall({ name: "book" })],
    name,
  });

describe("evaluate (deepeval's shapes)", () => {
  it("gives deepeval's test results, with the metric's own score and reason", async () => {
    const metric = new ToolCorrectnessMetric({ threshold: 0.8 });
    const cases = [testCase("both", ["search", "book"]), testCase("half", ["search"])];
    const { testResults, summary } = await evaluate({ testCases: cases, metrics: [metric] });
    const own = new ToolCorrectnessMetric({ threshold: 0.8 });
    await own.measure(cases[1]);
    expect(testResults).toMatchObject([
      { name: "both", success: true, input: "book a flight", metricsData: [{ score: 1 }] },
      {
        name: "half",
        success: false,
        metricsData: [
          {
            name: "Tool Correctness",
            score: own.score,
            reason: own.reason,
            threshold: 0.8,
            success: false,
            strictMode: false,
          },
        ],
      },
    ]);
    expect(summary.metrics[0].passRate).toBe(0.5);
  });

  it("records a case a metric cannot score as that metric's error", async () => {
    const { testResults } = await evaluate({
      testCases: [{ input: "x", toolsCalled: [] }],
      metrics: [new ToolCorrectnessMetric()],
    });
    expect(testResults[0]).toMatchObject({
      name: "test_case_0",
      success: false,
      metricsData: [{ success: false, error: expect.stringContaining("expectedTools") as string }],
    });
  });

  it("refuses what is not a metric when called", async () => {
    await expect(
      evaluate({ testCases: [testCase("a", [])], metrics: [{ score: 1 } as never] }),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_OPTION });
  });
});

describe("assertTest", () => {
  it("passes quietly, and throws naming every failed metric with its score and reason", async () => {
    await assertTest(testCase("ok", ["search", "book"]), [new ToolCorrectnessMetric()]);
    const failure = await assertTest(testCase("bad", []), [
      new ToolCorrectnessMetric({ threshold: 0.9 }),
    ]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AssertionError);
    expect((failure as AssertionError).message).toMatch(
      /^Metrics: Tool Correctness \(score: 0, threshold: 0\.9, strict: false, error: none, reason: .+\) failed\.$/s,
    );
  });
});
