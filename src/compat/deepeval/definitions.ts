import { textOf } from "../../adapters/read.js";
import { InvalidOptionError, JudgeRequiredError } from "../../core/errors.js";
import type { JsonObject } from "../../core/json.js";
import { toMetric } from "../../core/metric.js";
import { describedMetric, judgeWhen } from "../../core/metric-catalog.js";
import type {
  MeasureOptions,
  Metric,
  MetricDefinition,
  ResolvedMetricContext,
} from "../../core/metric.js";
import { toErroredResult } from "../../core/metric-result.js";
import type { MetricResult } from "../../core/metric-result.js";
import { camelKeys, caseOptions, metricName } from "../../core/options.js";
import type { TestCase } from "../../core/test-case.js";
import { deepevalCaseOptions } from "../../metrics/definitions.js";
import { MultimodalToolCorrectnessMetric } from "./tool-correctness-metric.js";
import { DeepEvalToolCorrectnessMetric } from "./trajectory-metric.js";
import type { DeepEvalToolCorrectnessMetricOptions } from "./trajectory-metric.js";

/** Options of deepeval's classes that a run sets instead: its judge and where images are read. */
const runSettings = ["model", "modelSettings", "modelCredentials", "modelConfig", "imageLoading"];

/** Refuses the options a run sets itself (see `runSettings`), naming where they belong. */
export function refuseRunSettings(id: string, options: JsonObject): void {
  const given = runSettings.find((key) => key in options);
  if (given === undefined) return;
  throw new InvalidOptionError({
    option: `${id}.${given}`,
    value: "(not shown)",
    message: `${id} takes the run's judge (--judge, judge: in the config, or createMetric's context) and reads images from the dataset's folder (the context's baseDirectory); leave ${given} out`,
  });
}

/** Whether options list tools whose selection a judge weighs. */
function listsTools(options: JsonObject): boolean {
  return Array.isArray(options.availableTools) && options.availableTools.length > 0;
}

/** A result under the name the metric is shown with. */
const renamed = (result: MetricResult, shown: string): MetricResult =>
  result.metric === shown ? result : { ...result, metric: shown };

/**
 * deepeval's multimodal metric by id: the class validates its options (deepeval's names, in
 * camelCase or snake_case) and scores as its own `measure` does. With `availableTools`, tool
 * selection is judged by the run's judge, images read as the run's other judged metrics read them.
 */
function multimodalToolCorrectness(options: JsonObject, context: ResolvedMetricContext): Metric {
  const id = "deepeval-multimodal-tool-correctness";
  const { name, ...rest } = camelKeys(options);
  refuseRunSettings(id, rest);
  const metric = new MultimodalToolCorrectnessMetric({
    ...rest,
    ...(listsTools(rest) ? { model: context.judge(), imageLoading: context.imageLoading } : {}),
  })[toMetric]();
  const shown = metricName(id, { name: name ?? metric.name }, metric.name);
  const made: Metric = {
    id,
    name: shown,
    measure: async (testCase, measureOptions) =>
      renamed(await metric.measure(testCase, measureOptions), shown),
    withOptions: (overrides) =>
      multimodalToolCorrectness(
        { ...options, ...caseOptions(id, overrides, deepevalCaseOptions) },
        context,
      ),
  };
  if (metric.measureSync === undefined) return made;
  return {
    ...made,
    measureSync: (testCase) => renamed(metric.measureSync?.(testCase) as MetricResult, shown),
  };
}

/** What a case may set of the trajectory metric's options: deepeval's, and name normalization. */
const trajectoryCaseOptions = [...deepevalCaseOptions, "normalizeNames"];

/**
 * deepeval's trajectory metric (`DeepEvalToolCorrectnessMetric`) by id, on dataset cases: the
 * case's input as the query, its calls (or transcripts, read by the dataset) and its answer; a
 * case with `availableTools` has its tool selection judged, which needs the run's judge (without
 * one, that case is a `JUDGE_REQUIRED` error, never scored without its judgement).
 */
function trajectoryToolCorrectness(options: JsonObject, context: ResolvedMetricContext): Metric {
  const id = "deepeval-trajectory-tool-correctness";
  const { name, ...rest } = camelKeys(options);
  refuseRunSettings(id, rest);
  const metric = new DeepEvalToolCorrectnessMetric({
    ...(rest as DeepEvalToolCorrectnessMetricOptions),
    // Tools listed in the options are judged for every case: that needs the run's judge.
    ...(context.hasJudge || listsTools(rest) ? { model: context.judge() } : {}),
  })[toMetric]();
  const shown = metricName(id, { name: name ?? metric.name }, metric.name);
  return {
    id,
    name: shown,
    async measure(testCase: TestCase, measureOptions?: MeasureOptions): Promise<MetricResult> {
      const tools = testCase.availableTools ?? [];
      if (tools.length > 0 && !context.hasJudge) {
        return toErroredResult(
          shown,
          new JudgeRequiredError({
            option: "judge",
            message: `the case lists availableTools, whose selection ${id} judges with an LLM: give a judge (--judge provider/model)`,
          }),
        );
      }
      const input = {
        query: textOf(testCase.input) ?? "",
        ...(testCase.actualOutput === undefined
          ? {}
          : { generatedResponse: textOf(testCase.actualOutput) ?? "" }),
        toolsCalled: testCase.toolsCalled as never,
        expectedTools: testCase.expectedTools as never,
        ...(tools.length === 0 ? {} : { availableTools: tools as never }),
      };
      return renamed(await metric.measure(input, measureOptions), shown);
    },
    withOptions: (overrides) =>
      trajectoryToolCorrectness(
        { ...options, ...caseOptions(id, overrides, trajectoryCaseOptions) },
        context,
      ),
  };
}

/** deepeval's tool-correctness classes by id, with the run's judge where they ask one. */
export const deepevalMetrics: readonly MetricDefinition[] = [
  {
    ...describedMetric("deepeval-multimodal-tool-correctness"),
    caseOptions: deepevalCaseOptions,
    asksJudge: {
      when: judgeWhen("deepeval-multimodal-tool-correctness"),
      asks: (options) => listsTools(camelKeys(options)),
    },
    create: (options, context) => multimodalToolCorrectness(options, context),
  },
  {
    ...describedMetric("deepeval-trajectory-tool-correctness"),
    caseOptions: trajectoryCaseOptions,
    asksJudge: {
      when: judgeWhen("deepeval-trajectory-tool-correctness"),
      asks: (options, judgeGiven) => judgeGiven || listsTools(camelKeys(options)),
    },
    create: (options, context) => trajectoryToolCorrectness(options, context),
  },
];
