import type { MeasureOptions, MetricDefinition } from "../core/metric.js";
import { scoredResult, toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import { metricName, metricThreshold, rejectUnknownOptions } from "../core/options.js";
import type { Content, TestCase } from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import { gradedFaithfulness } from "./graded-faithfulness.js";
import { judgeToolSelection } from "./tool-selection.js";
import type { ToolSelectionVerdict } from "./tool-selection.js";

/** The answer's text: a string, or the text parts of its content. */
function responseText(content: Content | undefined): string {
  if (content === undefined || typeof content === "string") return content ?? "";
  return content
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

const toolSelection: MetricDefinition = {
  id: "tool-selection",
  description: "an LLM judge of the tools chosen against the case's availableTools",
  judge: "required",
  caseOptions: [],
  create(options, context) {
    rejectUnknownOptions("tool-selection", options, ["name", "threshold"]);
    const name = metricName("tool-selection", options, "Tool Selection");
    const threshold = metricThreshold("tool-selection", options, 0.5);
    const judge = context.judge();
    return {
      id: "tool-selection",
      name,
      async measure(
        testCase: TestCase,
        measureOptions: MeasureOptions = {},
      ): Promise<MetricResult<ToolSelectionVerdict>> {
        if (testCase.availableTools === undefined || testCase.availableTools.length === 0) {
          return { status: "skipped", metric: name, reason: "the case lists no availableTools" };
        }
        try {
          const called = toToolCalls(testCase.toolsCalled ?? [], { field: "toolsCalled" });
          const answer = await judgeToolSelection(
            judge,
            {
              input: testCase.input ?? "",
              availableTools: testCase.availableTools,
              toolsCalled: called.map((call) => ({
                name: call.name,
                inputParameters: call.inputParameters,
              })),
              output: testCase.actualOutput,
            },
            { signal: measureOptions.signal },
          );
          const { score, reason } = answer.value;
          return scoredResult(name, { score, threshold, reason, details: answer.value });
        } catch (error) {
          if (measureOptions.signal?.aborted === true) throw error;
          return toErroredResult(name, error);
        }
      },
    };
  },
};

const multimodalFaithfulness: MetricDefinition = {
  id: "multimodal-faithfulness",
  description:
    "a vision-LLM judge of each claim of the answer against the case's text and image contexts (graded)",
  judge: "required",
  caseOptions: [],
  create(options, context) {
    rejectUnknownOptions("multimodal-faithfulness", options, ["name", "threshold"]);
    const name = metricName("multimodal-faithfulness", options, "Multimodal Faithfulness");
    const judge = context.judge();
    const metric = gradedFaithfulness({
      name,
      threshold: metricThreshold("multimodal-faithfulness", options, 0.5),
      judge,
      read: (testCase: TestCase) => ({
        response: responseText(testCase.actualOutput),
        contexts: testCase.retrievedContexts ?? [],
      }),
      load: (values, signal) => context.loadContexts(values, { provider: judge.provider, signal }),
    });
    return {
      id: "multimodal-faithfulness",
      name,
      measure(testCase: TestCase, measureOptions?: MeasureOptions): Promise<MetricResult> {
        if (testCase.retrievedContexts === undefined || testCase.retrievedContexts.length === 0) {
          return Promise.resolve({
            status: "skipped",
            metric: name,
            reason: "the case has no retrievedContexts",
          });
        }
        return metric.measure(testCase, measureOptions);
      },
    };
  },
};

/** toolscore's own judged metrics, by id: each asks the run's judge. */
export const judgedMetrics: readonly MetricDefinition[] = [toolSelection, multimodalFaithfulness];
