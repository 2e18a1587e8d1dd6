import { InvalidInputError } from "../core/errors.js";
import { describedMetric } from "../core/metric-catalog.js";
import type { JudgeModel } from "../core/judge.js";
import type { MeasureOptions, MetricDefinition } from "../core/metric.js";
import { scoredResult, toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import { caseOptions, metricName, metricThreshold, rejectUnknownOptions } from "../core/options.js";
import { contentText } from "../core/test-case.js";
import type { Content, TestCase } from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import { argumentCorrectnessOutcome, judgeArguments } from "./argument-correctness.js";
import { gradedFaithfulness } from "./graded-faithfulness.js";
import { judgeTaskCompletion, taskVerdictScore } from "./task-completion.js";
import { sampleShare, samplingOptionNames, samplingOptions } from "./samples.js";
import type { SamplingOptions } from "./samples.js";
import { judgeToolSelectionDecision, judgeToolSelectionSampled } from "./tool-selection.js";
import { isDecisionModel, refuseDecisionModel } from "./decisions.js";

/** The answer's text: a string, or the text parts of its content. */
function responseText(content: Content | undefined): string {
  return content === undefined ? "" : contentText(content);
}

const multimodalFaithfulness: MetricDefinition = {
  ...describedMetric("multimodal-faithfulness"),
  caseOptions: [],
  create(options, context) {
    rejectUnknownOptions("multimodal-faithfulness", options, [
      "name",
      "threshold",
      ...samplingOptionNames,
    ]);
    const name = metricName("multimodal-faithfulness", options, "Multimodal Faithfulness");
    const judge = context.judge();
    if (isDecisionModel(judge)) refuseDecisionModel(judge, "multimodal-faithfulness");
    const metric = gradedFaithfulness({
      name,
      threshold: metricThreshold("multimodal-faithfulness", options, 0.5),
      judge,
      sampling: samplingOptions("multimodal-faithfulness", options),
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
  readonly id: "tool-selection" | "argument-correctness" | "task-completion";
  readonly defaultName: string;
  /** Default 1: a gate passes a case only on a full verdict unless told otherwise. */
  readonly defaultThreshold: number;
  /** What a case's `metricOptions` may set. Default `["threshold"]`. */
  readonly caseOptions?: readonly string[];
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
    ...describedMetric(id),
    caseOptions: spec.caseOptions ?? ["threshold"],
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
          definition.create(
            { ...options, ...caseOptions(id, overrides, definition.caseOptions) },
            context,
          ),
      };
    },
  };
  return definition;
}

const toolSelection = sampledJudgeDefinition({
  id: "tool-selection",
  defaultName: "Tool Selection",
  defaultThreshold: 0.5,
  caseOptions: [],
  async judgeCase({ testCase, judge, sampling, threshold, signal }) {
    const availableTools = testCase.availableTools ?? [];
    if (availableTools.length === 0) {
      return { kind: "skipped", reason: "the case lists no availableTools" };
    }
    const called = toToolCalls(testCase.toolsCalled ?? [], { field: "toolsCalled" });
    const input = {
      input: testCase.input ?? "",
      availableTools,
      toolsCalled: called.map(({ name, inputParameters }) => ({ name, inputParameters })),
      output: testCase.actualOutput,
      conversation: testCase.conversation,
    };
    if (isDecisionModel(judge)) {
      const decision = await judgeToolSelectionDecision(judge, input, sampling, threshold, {
        signal,
      });
      const { kind, score, reason } = decision;
      return kind === "scored"
        ? { kind, score, reason, details: decision }
        : { kind, reason, details: decision };
    }
    const answer = await judgeToolSelectionSampled(judge, input, sampling, { signal });
    const { value, agreement, scores } = answer;
    if (agreement < sampling.minAgreement) {
      const reason = `the judge's ${scores.length} scores disagreed (${scores.join(", ")})`;
      return { kind: "not-evaluable", reason, details: { ...value, agreement, scores } };
    }
    // One sample's details are the verdict as it always was.
    const details = scores.length === 1 ? value : { ...value, agreement, scores };
    const reason = `${value.reason}${sampleShare(agreement, scores.length)}`;
    return { kind: "scored", score: value.score, reason, details };
  },
});

const argumentCorrectness = sampledJudgeDefinition({
  id: "argument-correctness",
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
        conversation: testCase.conversation,
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
        conversation: testCase.conversation,
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
      reason: `${answer.verdict.replace("_", " ")}${sampleShare(answer.agreement, answer.samples.length)}: ${answer.reason}${unmet}`,
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
