import type { MeasureOptions, Metric, MetricDefinition } from "../core/metric.js";
import { scoredResult, toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import { caseOptions, metricName, metricThreshold, rejectUnknownOptions } from "../core/options.js";
import type { Content, TestCase } from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import { argumentCorrectnessOutcome, judgeArguments } from "./argument-correctness.js";
import { gradedFaithfulness } from "./graded-faithfulness.js";
import { samplingOptionNames, samplingOptions } from "./samples.js";
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

const argumentCorrectness: MetricDefinition = {
  id: "argument-correctness",
  description:
    "an LLM judge of each call's arguments against the request and the tool outputs before it (share of calls right)",
  judge: "required",
  caseOptions: ["threshold"],
  create(options, context) {
    const id = "argument-correctness";
    rejectUnknownOptions(id, options, ["name", "threshold", ...samplingOptionNames]);
    const name = metricName(id, options, "Argument Correctness");
    const threshold = metricThreshold(id, options, 1);
    const sampling = samplingOptions(id, options);
    const judge = context.judge();
    const metric: Metric = {
      id,
      name,
      async measure(testCase: TestCase, measureOptions: MeasureOptions = {}) {
        const signal = measureOptions.signal;
        try {
          const calls = toToolCalls(testCase.toolsCalled ?? [], { field: "toolsCalled" });
          if (calls.length === 0) {
            return { status: "skipped", metric: name, reason: "the agent made no calls to judge" };
          }
          const answer = await judgeArguments(
            judge,
            {
              input: testCase.input ?? "",
              availableTools: testCase.availableTools ?? [],
              toolsCalled: calls,
            },
            sampling,
            { signal },
          );
          const details = { ...answer, samples: sampling.samples };
          const outcome = argumentCorrectnessOutcome(answer.calls, threshold);
          if (outcome.kind === "not-evaluable") {
            return { status: "not-evaluable", metric: name, reason: outcome.reason, details };
          }
          return scoredResult(name, { ...outcome, threshold, details });
        } catch (error) {
          if (signal?.aborted === true) throw error;
          return toErroredResult(name, error);
        }
      },
      withOptions: (overrides) =>
        argumentCorrectness.create(
          { ...options, ...caseOptions(id, overrides, ["threshold"]) },
          context,
        ),
    };
    return metric;
  },
};

/** toolscore's own judged metrics, by id: each asks the run's judge. */
export const judgedMetrics: readonly MetricDefinition[] = [
  toolSelection,
  multimodalFaithfulness,
  argumentCorrectness,
];
