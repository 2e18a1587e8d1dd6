import { InvalidInputError, MissingParamsError } from "../../core/errors.js";
import { toMetric } from "../../core/metric.js";
import type { ConvertsToMetric, SyncMetric } from "../../core/metric.js";
import { scoredResult, toErroredResult } from "../../core/metric-result.js";
import type { MetricResult } from "../../core/metric-result.js";
import type { TestCase } from "../../core/test-case.js";
import { toToolCalls } from "../../core/tool-call.js";
import {
  resolveAxionToolCorrectnessOptions,
  scoreAxionToolCorrectness,
} from "../../metrics/axion-tool-correctness.js";
import type {
  AxionToolCorrectnessDetails,
  AxionToolCorrectnessOptions,
  ResolvedAxionToolCorrectnessOptions,
} from "../../metrics/axion-tool-correctness.js";
import { optionsObject, rejectUnknownOptions } from "../../core/options.js";
import type { DatasetItem, ToolCallLike } from "./dataset-item.js";

export type ToolCorrectnessOptions = AxionToolCorrectnessOptions;

/** What `execute` returns: axion's score and explanation, and toolscore's details. */
export interface MetricEvaluationResult {
  readonly score: number;
  readonly explanation: string;
  readonly details: AxionToolCorrectnessDetails;
}

const knownOptions = [
  "checkParameters",
  "strictOrder",
  "parameterMatchingStrategy",
  "fuzzyThreshold",
  "scoring",
  "threshold",
  "limits",
];

/**
 * axion's `ToolCorrectness`: were the expected tools called, with exact, subset or fuzzy argument
 * matching, in any order or strictly in order. An unknown strategy or scoring is refused here, at
 * construction, with an `InvalidOptionError`.
 *
 * @example
 * const metric = new ToolCorrectness({ checkParameters: true, parameterMatchingStrategy: "fuzzy" });
 * const { score, explanation } = await metric.execute({ toolsCalled, expectedTools });
 */
export class ToolCorrectness implements ConvertsToMetric {
  readonly name = "Tool Correctness";
  readonly options: ResolvedAxionToolCorrectnessOptions;

  constructor(options?: ToolCorrectnessOptions) {
    const given = optionsObject("ToolCorrectness", options);
    rejectUnknownOptions("ToolCorrectness", given, knownOptions);
    this.options = resolveAxionToolCorrectnessOptions(given);
  }

  get threshold(): number {
    return this.options.threshold;
  }

  /** Scores one item. Rejects with a typed error when the item is not usable. */
  execute(
    item:
      DatasetItem | { toolsCalled?: ToolCallLike[] | null; expectedTools?: ToolCallLike[] | null },
  ): Promise<MetricEvaluationResult> {
    try {
      return Promise.resolve(this.executeNow(item));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * toolscore's metric for this class, for `evaluate` and the CLI: `execute`'s score, its
   * explanation as the reason, and success when the score reaches the threshold.
   */
  [toMetric](): SyncMetric<TestCase, AxionToolCorrectnessDetails> {
    const name = this.name;
    const measureSync = (testCase: TestCase): MetricResult<AxionToolCorrectnessDetails> => {
      try {
        const { score, explanation, details } = this.executeNow(testCase);
        return scoredResult(name, {
          score,
          threshold: this.threshold,
          reason: explanation,
          details,
        });
      } catch (error) {
        return toErroredResult(name, error);
      }
    };
    return {
      name,
      measureSync,
      measure: (testCase, options = {}) =>
        options.signal?.aborted === true
          ? Promise.reject(options.signal.reason as Error)
          : Promise.resolve(measureSync(testCase)),
    };
  }

  private executeNow(item: unknown): MetricEvaluationResult {
    if (typeof item !== "object" || item === null) {
      throw new InvalidInputError({
        field: "item",
        message: `ToolCorrectness.execute takes an item object, got ${item === null ? "null" : typeof item}`,
      });
    }
    const record = item as Record<string, unknown>;
    const missing = ["toolsCalled", "expectedTools"].filter(
      (field) => record[field] === undefined || record[field] === null,
    );
    if (missing.length > 0) {
      throw new MissingParamsError({
        fields: missing,
        message: `ToolCorrectness needs ${missing.join(" and ")} on the item (an empty list means no tool calls)`,
      });
    }
    const called = toToolCalls(record.toolsCalled, { field: "toolsCalled" });
    const expected = toToolCalls(record.expectedTools, { field: "expectedTools" });
    return scoreAxionToolCorrectness({ expected, called }, this.options);
  }
}
