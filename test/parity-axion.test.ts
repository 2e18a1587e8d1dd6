import { describe, expect, it } from "vitest";
import { InvalidOptionError, ToolCorrectness } from "../src/compat/axion/index.js";
import type { ToolCallLike, ToolCorrectnessOptions } from "../src/compat/axion/index.js";
import { parityDirectory, readParityCases } from "./parity-files.js";

interface AxionCase {
  id: string;
  config: {
    check_parameters: boolean;
    strict_order: boolean;
    parameter_matching_strategy: string;
    fuzzy_threshold: number;
    scoring: string;
  };
  tools_called: ToolCallLike[];
  expected_tools: ToolCallLike[];
  intended: { score: number; explanation: string } | { error: "invalid-option" };
  score_tolerance: number;
}

const cases = readParityCases<AxionCase>("axion.jsonl");

describe(`axion parity (${parityDirectory()})`, () => {
  it("has cases to check", () => {
    expect(cases.length).toBeGreaterThan(100);
  });

  for (const c of cases) {
    it(c.id, async () => {
      const options = {
        checkParameters: c.config.check_parameters,
        strictOrder: c.config.strict_order,
        parameterMatchingStrategy: c.config.parameter_matching_strategy,
        fuzzyThreshold: c.config.fuzzy_threshold,
        scoring: c.config.scoring,
      } as ToolCorrectnessOptions;
      if ("error" in c.intended) {
        expect(() => new ToolCorrectness(options)).toThrow(
          expect.toSatisfy((error) => InvalidOptionError.isInstance(error)) as Error,
        );
        return;
      }
      const result = await new ToolCorrectness(options).execute({
        toolsCalled: c.tools_called,
        expectedTools: c.expected_tools,
      });
      if (c.score_tolerance > 0) {
        expect(Math.abs(result.score - c.intended.score)).toBeLessThanOrEqual(c.score_tolerance);
      } else {
        expect(result.score).toBe(c.intended.score);
      }
      expect(result.explanation).toBe(c.intended.explanation);
    });
  }
});
