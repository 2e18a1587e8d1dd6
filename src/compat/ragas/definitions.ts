import type { MeasureOptions, MetricDefinition } from "../../core/metric.js";
import { toMetric } from "../../core/metric.js";
import { describedMetric } from "../../core/metric-catalog.js";
import { metricName, rejectUnknownOptions } from "../../core/options.js";
import type { TestCase } from "../../core/test-case.js";
import { MultiModalFaithfulness, MultiModalRelevance } from "./multimodal.js";

/** A ragas class as a registry metric: its `ascore` verdict, under the registry's id. */
function ragasMetric(
  id: "ragas-multimodal-faithfulness" | "ragas-multimodal-relevance",
  Class: typeof MultiModalFaithfulness | typeof MultiModalRelevance,
): MetricDefinition {
  return {
    ...describedMetric(id),
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
  ragasMetric("ragas-multimodal-faithfulness", MultiModalFaithfulness),
  ragasMetric("ragas-multimodal-relevance", MultiModalRelevance),
];
