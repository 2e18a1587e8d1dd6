import { multimodalFaithfulness } from "../compat/ragas/multimodal.js";
import { InvalidOptionError } from "../core/errors.js";
import type { JudgeModel } from "../core/judge.js";
import type { JsonObject } from "../core/json.js";
import type { MeasureOptions, Metric } from "../core/metric.js";
import { toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import type { Content, TestCase } from "../core/test-case.js";
import { judgeToolSelection } from "../judges/tool-selection.js";
import type { ToolSelectionVerdict } from "../judges/tool-selection.js";
import { deterministicMetrics } from "../metrics/registry.js";
import type { MetricConfig } from "./config.js";

/** What judged metrics need from the run: the judge, and where the dataset's files are. */
export interface MetricContext {
  /** The run's judge; asked for only when a judged metric is configured. */
  readonly judge: () => JudgeModel;
  /** The dataset's folder: relative image paths are read from it, and nothing outside it. */
  readonly datasetDirectory: string;
}

interface CliMetricDefinition {
  readonly id: string;
  readonly description: string;
  readonly judged: boolean;
  create(options: JsonObject, context: MetricContext): Metric;
}

function textOf(content: Content | undefined): string | undefined {
  if (content === undefined) return undefined;
  if (typeof content === "string") return content;
  return content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

function thresholdOf(id: string, options: JsonObject, fallback: number): number {
  const value = options.threshold ?? fallback;
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    throw new InvalidOptionError({
      option: `${id}.threshold`,
      value,
      message: `${id}: threshold must be a number in [0, 1]`,
    });
  }
  return value;
}

function nameOf(id: string, options: JsonObject, fallback: string): string {
  const value = options.name ?? fallback;
  if (typeof value !== "string" || value === "") {
    throw new InvalidOptionError({
      option: `${id}.name`,
      value,
      message: `${id}: name must be a non-empty string`,
    });
  }
  return value;
}

function rejectUnknown(id: string, options: JsonObject, known: readonly string[]) {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new InvalidOptionError({
        option: `${id}.${key}`,
        value: options[key],
        message: `${id} has no option "${key}" (options: ${known.join(", ")})`,
      });
    }
  }
}

const toolSelection: CliMetricDefinition = {
  id: "tool-selection",
  description: "an LLM judge of the tools chosen against the case's availableTools",
  judged: true,
  create(options, context) {
    rejectUnknown("tool-selection", options, ["name", "threshold"]);
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
          const answer = await judgeToolSelection(
            judge,
            {
              input: testCase.input ?? "",
              availableTools: testCase.availableTools,
              toolsCalled: (testCase.toolsCalled ?? []).map((call) => ({
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

const faithfulness: CliMetricDefinition = {
  id: "multimodal-faithfulness",
  description: "a vision-LLM judge of the answer against the case's text and image contexts",
  judged: true,
  create(options, context) {
    rejectUnknown("multimodal-faithfulness", options, ["name", "threshold"]);
    const name = nameOf("multimodal-faithfulness", options, "Multimodal Faithfulness");
    const threshold = thresholdOf("multimodal-faithfulness", options, 0.5);
    const metric = multimodalFaithfulness({
      name,
      threshold,
      llm: context.judge(),
      imageLoading: {
        baseDirectory: context.datasetDirectory,
        allowedRoots: [context.datasetDirectory],
      },
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

/** Every metric the CLI knows, by id: the deterministic ones and the judged ones. */
export const cliMetrics: readonly CliMetricDefinition[] = [
  ...deterministicMetrics.map((definition): CliMetricDefinition => ({
    id: definition.id,
    description: definition.description,
    judged: definition.judged,
    create: (options) => definition.create(options),
  })),
  toolSelection,
  faithfulness,
];

export const defaultMetrics: readonly MetricConfig[] = [
  { metric: "tool-call-accuracy", options: {} },
];

/** Whether any configured metric asks a judge. */
export function needsJudge(metrics: readonly MetricConfig[]): boolean {
  return metrics.some(
    (item) => cliMetrics.find((definition) => definition.id === item.metric)?.judged === true,
  );
}

/** Makes the run's metrics; a global threshold fills in where a metric sets none. */
export function createMetrics(
  metrics: readonly MetricConfig[],
  context: MetricContext,
  threshold?: number,
): Metric[] {
  return metrics.map((item) => {
    const definition = cliMetrics.find((entry) => entry.id === item.metric);
    if (definition === undefined) {
      throw new InvalidOptionError({
        option: "metric",
        value: item.metric,
        message: `unknown metric ${JSON.stringify(item.metric)}; known metrics: ${cliMetrics.map((entry) => entry.id).join(", ")}`,
      });
    }
    const options =
      threshold === undefined || "threshold" in item.options
        ? item.options
        : { ...item.options, threshold };
    return definition.create(options, context);
  });
}
