import { describe, expect, it } from "vitest";
import {
  MissingParamsError,
  MultimodalToolCorrectnessMetric,
  ToolCallParams,
  ToolCorrectnessMetric,
} from "../src/compat/deepeval/index.js";
import type { ToolCall } from "../src/compat/deepeval/index.js";
import { parityDirectory, readParityCases } from "./parity-files.js";

interface DeepevalCase {
  id: string;
  metric: "tool_correctness" | "multimodal_tool_correctness";
  input: string | string[] | null;
  actual_output: string | string[] | null;
  tools_called: unknown[] | null;
  expected_tools: unknown[] | null;
  evaluation_params: ("input_parameters" | "output")[];
  should_consider_ordering: boolean;
  should_exact_match: boolean;
  strict_mode: boolean;
  threshold: number;
  include_reason?: boolean;
  intended: { score: number; success: boolean; reasonKind: string } | { error: "missing-params" };
  score_tolerance: number;
}

const reasonStart: Record<string, string> = {
  "all-called": "All expected tools ",
  incomplete: "Incomplete tool usage: ",
  "correct-ordering": "Correct ordering: ",
  "incorrect-ordering": "Incorrect tool usage: ",
  "exact-match": "Exact match: ",
  "not-exact-match": "Not an exact match: ",
};

const cases = readParityCases<DeepevalCase>("deepeval.jsonl");

describe(`deepeval parity (${parityDirectory()})`, () => {
  it("has cases to check", () => {
    expect(cases.length).toBeGreaterThan(100);
  });

  for (const c of cases) {
    it(c.id, async () => {
      const options = {
        threshold: c.threshold,
        evaluationParams: c.evaluation_params.map((p) =>
          p === "input_parameters" ? ToolCallParams.INPUT_PARAMETERS : ToolCallParams.OUTPUT,
        ),
        strictMode: c.strict_mode,
        shouldConsiderOrdering: c.should_consider_ordering,
        shouldExactMatch: c.should_exact_match,
        ...(c.include_reason === undefined ? {} : { includeReason: c.include_reason }),
      };
      const metric =
        c.metric === "tool_correctness"
          ? new ToolCorrectnessMetric(options)
          : new MultimodalToolCorrectnessMetric(options);
      // Dataset files use snake_case field names; the test case is a plain object, as users may pass.
      const testCase = {
        input: c.input,
        actualOutput: c.actual_output,
        toolsCalled: c.tools_called as ToolCall[] | null,
        expectedTools: c.expected_tools as ToolCall[] | null,
      };
      const measured = metric.measure(testCase as never);

      if ("error" in c.intended) {
        await expect(measured).rejects.toSatisfy((error) => MissingParamsError.isInstance(error));
        expect(metric.isSuccessful()).toBe(false);
        return;
      }
      const score = await measured;
      expect(score).toBe(metric.score);
      if (c.score_tolerance > 0) {
        expect(Math.abs(score - c.intended.score)).toBeLessThanOrEqual(c.score_tolerance);
      } else {
        expect(score).toBe(c.intended.score);
      }
      expect(metric.success).toBe(c.intended.success);
      expect(metric.isSuccessful()).toBe(c.intended.success);
      if (c.include_reason !== false) {
        expect(metric.reasonKind).toBe(c.intended.reasonKind);
        const toolCallingReason =
          c.metric === "tool_correctness"
            ? (metric.reason ?? "").replace(/^Tool Calling Reason: /, "")
            : (metric.reason ?? "");
        expect(toolCallingReason.startsWith(reasonStart[c.intended.reasonKind])).toBe(true);
      }
    });
  }
});
