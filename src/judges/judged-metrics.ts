import { InvalidInputError } from "../core/errors.js";
import type { JudgeModel } from "../core/judge.js";
import type { MeasureOptions, MetricDefinition } from "../core/metric.js";
import { scoredResult, toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import { caseOptions, metricName, metricThreshold, rejectUnknownOptions } from "../core/options.js";
import type { Content, TestCase } from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import { argumentCorrectnessOutcome, judgeArguments } from "./argument-correctness.js";
import { gradedFaithfulness } from "./graded-faithfulness.js";
import { judgeTaskCompletion, taskVerdictScore } from "./task-completion.js";
import { samplingOptionNames, samplingOptions } from "./samples.js";
import type { SamplingOptions } from "./samples.js";
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

/** What a sampled judge made of a case: a score, not evaluable, or nothing to judge. */
export type JudgedOutcome =
  | {
      readonly kind: "scored";
      readonly score: number;
      readonly reason: string;
      readonly details: unknown;
    }
  | { readonly kind: "not-evaluable"; readonly reason: string; readonly details: unknown }
  | { readonly kind: "skipped"; readonly reason: string };

/** A judged metric that samples its judge, as the registry makes it from its options. */
interface SampledJudgeMetric {
  readonly id: string;
  readonly description: string;
  readonly defaultName: string;
  /** Default 1: a gate passes a case only on a full verdict unless told otherwise. */
  readonly defaultThreshold: number;
  /** Judges one case; throws for a case it cannot read (recorded as that case's error). */
  judgeCase(input: {
    readonly testCase: TestCase;
    readonly judge: JudgeModel;
    readonly sampling: SamplingOptions;
    readonly threshold: number;
    readonly signal: AbortSignal | undefined;
  }): Promise<JudgedOutcome>;
}

/**
 * The definition of a sampled judged metric: options `name`, `threshold` (the one a case may set)
 * and the sampling ones; each case's outcome as a result, an error recorded, never a default.
 */
function sampledJudgeDefinition(spec: SampledJudgeMetric): MetricDefinition {
  const { id } = spec;
  const definition: MetricDefinition = {
    id,
    description: spec.description,
    judge: "required",
    caseOptions: ["threshold"],
    create(options, context) {
      rejectUnknownOptions(id, options, ["name", "threshold", ...samplingOptionNames]);
      const name = metricName(id, options, spec.defaultName);
      const threshold = metricThreshold(id, options, spec.defaultThreshold);
      const sampling = samplingOptions(id, options);
      const judge = context.judge();
      return {
        id,
        name,
        async measure(testCase: TestCase, measureOptions: MeasureOptions = {}) {
          const signal = measureOptions.signal;
          try {
            const outcome = await spec.judgeCase({ testCase, judge, sampling, threshold, signal });
            if (outcome.kind === "skipped") {
              return { status: "skipped", metric: name, reason: outcome.reason };
            }
            if (outcome.kind === "not-evaluable") {
              const { reason, details } = outcome;
              return { status: "not-evaluable", metric: name, reason, details };
            }
            return scoredResult(name, { ...outcome, threshold });
          } catch (error) {
            if (signal?.aborted === true) throw error;
            return toErroredResult(name, error);
          }
        },
        withOptions: (overrides) =>
          definition.create({ ...options, ...caseOptions(id, overrides, ["threshold"]) }, context),
      };
    },
  };
  return definition;
}

const argumentCorrectness = sampledJudgeDefinition({
  id: "argument-correctness",
  description:
    "an LLM judge of each call's arguments against the request and the tool outputs before it (share of calls right)",
  defaultName: "Argument Correctness",
  defaultThreshold: 1,
  async judgeCase({ testCase, judge, sampling, threshold, signal }) {
    const calls = toToolCalls(testCase.toolsCalled ?? [], { field: "toolsCalled" });
    if (calls.length === 0) return { kind: "skipped", reason: "the agent made no calls to judge" };
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
    return { ...argumentCorrectnessOutcome(answer.calls, threshold), details };
  },
});

const taskCompletion = sampledJudgeDefinition({
  id: "task-completion",
  description:
    "an LLM judge of the whole run (calls, outputs, replies): did the agent do what the user asked, against expectedOutcome when given",
  defaultName: "Task Completion",
  defaultThreshold: 1,
  async judgeCase({ testCase, judge, sampling, signal }) {
    if (testCase.input === undefined) {
      throw new InvalidInputError({
        field: "input",
        message: "task-completion judges a run against the user's request: the case needs input",
      });
    }
    const answer = await judgeTaskCompletion(
      judge,
      {
        input: testCase.input,
        availableTools: testCase.availableTools ?? [],
        toolsCalled: toToolCalls(testCase.toolsCalled ?? [], { field: "toolsCalled" }),
        replies: testCase.replies ?? [],
        output: testCase.actualOutput,
        expectedOutcome: testCase.expectedOutcome,
      },
      sampling,
      { signal },
    );
    const details = answer;
    if (answer.verdict === "cannot_tell") {
      return { kind: "not-evaluable", reason: `cannot tell: ${answer.reason}`, details };
    }
    const unmet = answer.unmet.length === 0 ? "" : ` Not achieved: ${answer.unmet.join("; ")}.`;
    return {
      kind: "scored",
      score: taskVerdictScore[answer.verdict],
      reason: `${answer.verdict.replace("_", " ")}: ${answer.reason}${unmet}`,
      details,
    };
  },
});

/** toolscore's own judged metrics, by id: each asks the run's judge. */
export const judgedMetrics: readonly MetricDefinition[] = [
  toolSelection,
  multimodalFaithfulness,
  argumentCorrectness,
  taskCompletion,
];
