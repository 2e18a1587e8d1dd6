import {
  MultiModalFaithfulness,
  MultiModalRelevance,
  gradedMultimodalFaithfulness,
} from "../compat/ragas/multimodal.js";
import { textOf } from "../adapters/read.js";
import { MultimodalToolCorrectnessMetric } from "../compat/deepeval/tool-correctness-metric.js";
import { DeepEvalToolCorrectnessMetric } from "../compat/deepeval/trajectory-metric.js";
import type { DeepEvalToolCorrectnessMetricOptions } from "../compat/deepeval/trajectory-metric.js";
import { InvalidOptionError, JudgeRequiredError } from "../core/errors.js";
import type { JudgeModel } from "../core/judge.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import { toMetric } from "../core/metric.js";
import type {
  MeasureOptions,
  Metric,
  MetricDefinition,
  ResolvedMetricContext,
} from "../core/metric.js";
import { toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import type { TestCase } from "../core/test-case.js";
import { didYouMean } from "../core/suggest.js";
import { toToolCalls } from "../core/tool-call.js";
import { judgeToolSelection } from "../judges/tool-selection.js";
import type { ToolSelectionVerdict } from "../judges/tool-selection.js";
import {
  camelKeys,
  caseOptions,
  nameOption,
  rejectUnknownOptions,
  thresholdOption,
} from "../core/options.js";
import { deepevalCaseOptions, deterministicMetrics } from "../metrics/registry.js";
import { resolveJudgeModel } from "../providers/registry.js";
import type { JudgeModelSettings } from "../providers/registry.js";

/** What a metric may need from where it runs: the judge, and where a dataset's files are. */
export interface MetricContext {
  /**
   * The judge of judged metrics: a model string (`"openai/gpt-4o-mini"`), a `JudgeModel`, or a
   * function giving one (asked only when a judged metric is made). Not needed otherwise.
   */
  readonly judge?: string | JudgeModel | (() => JudgeModel);
  /** Key, base URL and timeouts of a judge named by a model string. */
  readonly modelSettings?: JudgeModelSettings;
  /**
   * The folder relative image paths are read from, and the only one they may be read from.
   * Default: the current directory.
   */
  readonly baseDirectory?: string;
}

/** A definition's threshold option: in [0, 1], `fallback` when not given. */
const thresholdOf = (id: string, options: JsonObject, fallback: number): number =>
  thresholdOption(id, options.threshold, fallback, `${id}.threshold`);

/** A definition's name option: a non-empty string, `fallback` when not given. */
const nameOf = (id: string, options: JsonObject, fallback: string): string =>
  nameOption(id, options.name, fallback, `${id}.name`);

const toolSelection: MetricDefinition = {
  id: "tool-selection",
  description: "an LLM judge of the tools chosen against the case's availableTools",
  judge: "required",
  caseOptions: [],
  create(options, context) {
    rejectUnknownOptions("tool-selection", options, ["name", "threshold"]);
    const name = nameOf("tool-selection", options, "Tool Selection");
    const threshold = thresholdOf("tool-selection", options, 0.5);
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
              ...(testCase.actualOutput === undefined ? {} : { output: testCase.actualOutput }),
            },
            measureOptions.signal === undefined ? {} : { signal: measureOptions.signal },
          );
          return {
            status: "scored",
            metric: name,
            score: answer.value.score,
            threshold,
            success: answer.value.score >= threshold,
            reason: answer.value.reason,
            details: answer.value,
          };
        } catch (error) {
          if (measureOptions.signal?.aborted === true) throw error;
          return toErroredResult(name, error);
        }
      },
    };
  },
};

/** Image loading for a run: files under the base directory only. */
function imageLoading(context: ResolvedMetricContext) {
  return { baseDirectory: context.baseDirectory, allowedRoots: [context.baseDirectory] };
}

const gradedFaithfulness: MetricDefinition = {
  id: "multimodal-faithfulness",
  description:
    "a vision-LLM judge of each claim of the answer against the case's text and image contexts (graded)",
  judge: "required",
  caseOptions: [],
  create(options, context) {
    rejectUnknownOptions("multimodal-faithfulness", options, ["name", "threshold"]);
    const name = nameOf("multimodal-faithfulness", options, "Multimodal Faithfulness");
    const threshold = thresholdOf("multimodal-faithfulness", options, 0.5);
    const metric = gradedMultimodalFaithfulness({
      name,
      threshold,
      llm: context.judge(),
      imageLoading: imageLoading(context),
    });
    return {
      id: "multimodal-faithfulness",
      name,
      async measure(testCase: TestCase, measureOptions?: MeasureOptions): Promise<MetricResult> {
        const response = textOf(testCase.actualOutput);
        if (testCase.retrievedContexts === undefined || testCase.retrievedContexts.length === 0) {
          return { status: "skipped", metric: name, reason: "the case has no retrievedContexts" };
        }
        return metric.measure(
          { response: response ?? "", retrievedContexts: testCase.retrievedContexts },
          measureOptions,
        );
      },
    };
  },
};

/** A ragas class as a registry metric: its `ascore` verdict, under the registry's id. */
function ragasMetric(
  id: string,
  description: string,
  make: (options: ConstructorParameters<typeof MultiModalFaithfulness>[0]) => {
    [toMetric](): Metric;
  },
): MetricDefinition {
  return {
    id,
    description,
    judge: "required",
    caseOptions: [],
    create(options, context) {
      rejectUnknownOptions(id, options, ["name"]);
      const metric = make({ llm: context.judge(), imageLoading: imageLoading(context) })[
        toMetric
      ]();
      const name = nameOf(id, options, metric.name);
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

/** Options of deepeval's classes that a run sets instead: its judge and where images are read. */
const runSettings = ["model", "modelSettings", "modelCredentials", "modelConfig", "imageLoading"];

/** Refuses the options a run sets itself (see `runSettings`), naming where they belong. */
function refuseRunSettings(id: string, options: JsonObject): void {
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
    ...(listsTools(rest) ? { model: context.judge(), imageLoading: imageLoading(context) } : {}),
  })[toMetric]();
  const shown = nameOf(id, { name: name ?? metric.name }, metric.name);
  const renamed = (result: MetricResult): MetricResult =>
    result.metric === shown ? result : { ...result, metric: shown };
  const made: Metric = {
    id,
    name: shown,
    measure: async (testCase, measureOptions) =>
      renamed(await metric.measure(testCase, measureOptions)),
    withOptions: (overrides) =>
      multimodalToolCorrectness(
        { ...options, ...caseOptions(id, overrides, deepevalCaseOptions) },
        context,
      ),
  };
  if (metric.measureSync === undefined) return made;
  return {
    ...made,
    measureSync: (testCase) => renamed(metric.measureSync?.(testCase) as MetricResult),
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
  const shown = nameOf(id, { name: name ?? metric.name }, metric.name);
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
        ...(testCase.toolsCalled === undefined
          ? {}
          : { toolsCalled: testCase.toolsCalled as never }),
        ...(testCase.expectedTools === undefined
          ? {}
          : { expectedTools: testCase.expectedTools as never }),
        ...(tools.length === 0 ? {} : { availableTools: tools as never }),
      };
      const result = await metric.measure(input, measureOptions);
      return result.metric === shown ? result : { ...result, metric: shown };
    },
    withOptions: (overrides) =>
      trajectoryToolCorrectness(
        { ...options, ...caseOptions(id, overrides, trajectoryCaseOptions) },
        context,
      ),
  };
}

/** Every metric toolscore makes by id, deterministic and judged: the one registry. */
export const metricDefinitions: readonly MetricDefinition[] = [
  ...deterministicMetrics,
  {
    id: "deepeval-multimodal-tool-correctness",
    description:
      "deepeval's MultimodalToolCorrectnessMetric: the deepeval metric for cases that need an actualOutput",
    judge: "optional",
    caseOptions: deepevalCaseOptions,
    asksJudge: {
      when: "when its availableTools option is set (of every case's tool selection)",
      asks: (options) => listsTools(camelKeys(options)),
    },
    create: (options, context) => multimodalToolCorrectness(options, context),
  },
  {
    id: "deepeval-trajectory-tool-correctness",
    description:
      "deepeval's DeepEvalToolCorrectnessMetric: names, input parameters and output, names normalized; a judge of selection for cases with availableTools",
    judge: "optional",
    caseOptions: trajectoryCaseOptions,
    asksJudge: {
      when: "for cases with availableTools, given --judge (every case: its availableTools option)",
      asks: (options, judgeGiven) => judgeGiven || listsTools(camelKeys(options)),
    },
    create: (options, context) => trajectoryToolCorrectness(options, context),
  },
  toolSelection,
  gradedFaithfulness,
  ragasMetric(
    "ragas-multimodal-faithfulness",
    "ragas' MultiModalFaithfulness: is every claim supported by the text and image contexts (1 or 0)",
    (options) => new MultiModalFaithfulness(options),
  ),
  ragasMetric(
    "ragas-multimodal-relevance",
    "ragas' MultiModalRelevance: does the answer address the input, in line with the contexts (1 or 0)",
    (options) => new MultiModalRelevance(options),
  ),
];

/** The definition of `id`; an `InvalidOptionError` naming the known ids (and the closest) if none. */
export function metricDefinition(id: unknown): MetricDefinition {
  const definition = metricDefinitions.find((entry) => entry.id === id);
  if (definition !== undefined) return definition;
  const ids = metricDefinitions.map((entry) => entry.id);
  throw new InvalidOptionError({
    option: "metric",
    value: id,
    message: `unknown metric ${JSON.stringify(id)}${typeof id === "string" ? didYouMean(id, ids) : ""}; known metrics: ${ids.join(", ")}`,
  });
}

/**
 * A metric config's id and options: `{ metric, ...options }`, or the older spelling
 * `{ metric, options: {...} }`.
 */
export function splitMetricConfig(config: MetricConfigInput): {
  metric: unknown;
  options: Record<string, unknown>;
} {
  const { metric, ...rest } = config as Record<string, unknown>;
  if (Object.keys(rest).length !== 1 || rest.options === undefined)
    return { metric, options: rest };
  if (!isJsonObject(rest.options)) {
    throw new InvalidOptionError({
      option: "options",
      value: rest.options,
      message: `the options of ${String(metric)} must be an object`,
    });
  }
  return { metric, options: rest.options };
}

/** A metric as a config names it: its id, and its options beside it (or under `options`). */
export type MetricConfigInput = { readonly metric: string } & Readonly<Record<string, unknown>>;

function resolveContext(context: MetricContext, id: string): ResolvedMetricContext {
  let judge: JudgeModel | undefined;
  return {
    baseDirectory: context.baseDirectory ?? process.cwd(),
    hasJudge: context.judge !== undefined,
    judge: () => {
      if (judge !== undefined) return judge;
      const given = context.judge;
      if (given === undefined) {
        throw new JudgeRequiredError({
          option: "judge",
          message: `${id} asks an LLM judge: pass { judge: "provider/model" } (or a JudgeModel) as createMetric's second argument, or --judge on the command line`,
        });
      }
      judge =
        typeof given === "function"
          ? given()
          : resolveJudgeModel(given, context.modelSettings ?? {});
      return judge;
    },
  };
}

/**
 * Makes any metric toolscore has, by id, exactly as `toolscore eval` makes it from a config:
 * deterministic ones from their options alone, judged ones (`tool-selection`,
 * `multimodal-faithfulness`, `ragas-multimodal-faithfulness`, `ragas-multimodal-relevance`) with
 * a judge. An unknown id or option is an `InvalidOptionError`; a judge whose key is missing a
 * `ProviderConfigError`; a judged metric without a judge a `JudgeRequiredError`.
 *
 * @example
 * const accuracy = createMetric({ metric: "tool-call-accuracy", order: "in-order" });
 * const selection = createMetric({ metric: "tool-selection", threshold: 0.7 }, { judge: "openai/gpt-4o-mini" });
 */
export function createMetric(config: MetricConfigInput, context: MetricContext = {}): Metric {
  if (!isJsonObject(config)) {
    throw new InvalidOptionError({
      option: "metric",
      value: config,
      message: 'createMetric takes { metric: "<id>", ...options }',
    });
  }
  const id = (config as { metric?: unknown }).metric;
  if (id === undefined) {
    const ids = metricDefinitions.map((entry) => entry.id);
    throw new InvalidOptionError({
      option: "metric",
      value: config,
      message: `createMetric needs the metric key, the id of the metric to make: { metric: "tool-call-accuracy", ...options } (known metrics: ${ids.join(", ")})`,
    });
  }
  // An unknown id is named before anything else.
  const definition = metricDefinition(id);
  const { options } = splitMetricConfig(config);
  if (typeof context !== "object" || (context as unknown) === null) {
    throw new InvalidOptionError({
      option: "context",
      value: context,
      message: "createMetric's second argument is { judge?, modelSettings?, baseDirectory? }",
    });
  }
  rejectUnknownOptions("createMetric's context", context, [
    "judge",
    "modelSettings",
    "baseDirectory",
  ]);
  const metric = definition.create(options as JsonObject, resolveContext(context, definition.id));
  return metric.id === definition.id ? metric : { ...metric, id: definition.id };
}
