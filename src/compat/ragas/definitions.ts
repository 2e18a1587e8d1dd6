import type { MeasureOptions, MetricDefinition } from "../../core/metric.js";
import { toMetric } from "../../core/metric.js";
import { metricName, rejectUnknownOptions } from "../../core/options.js";
import type { TestCase } from "../../core/test-case.js";
import { MultiModalFaithfulness, MultiModalRelevance } from "./multimodal.js";

/** A ragas class as a registry metric: its `ascore` verdict, under the registry's id. */
function ragasMetric(
  id: string,
  description: string,
  Class: typeof MultiModalFaithfulness | typeof MultiModalRelevance,
): MetricDefinition {
  return {
    id,
    description,
    judge: "required",
    caseOptions: [],
    create(options, context) {
      rejectUnknownOptions(id, options, ["name"]);
      const metric = new Class({ llm: context.judge(), imageLoading: context.imageLoading })[
        toMetric
      ]();
      const name = metricName(id, options, metric.name);
      return {
        id,
        name,
        async measure(testCase: TestCase, measureOptions?: MeasureOptions) {
          const result = await metric.measure(testCase, measureOptions);
          return result.metric === name ? result : { ...result, metric: name };
        },
      };
    },
  };
}

/** ragas' multimodal classes by id, judged by the run's judge. */
export const ragasMultimodalMetrics: readonly MetricDefinition[] = [
  ragasMetric(
    "ragas-multimodal-faithfulness",
    "ragas' MultiModalFaithfulness: is every claim supported by the text and image contexts (1 or 0)",
    MultiModalFaithfulness,
  ),
  ragasMetric(
    "ragas-multimodal-relevance",
    "ragas' MultiModalRelevance: does the answer address the input, in line with the contexts (1 or 0)",
    MultiModalRelevance,
  ),
];
