import type { JudgeModel, JudgeRequest, JudgeUsage } from "../core/judge.js";
import type { JsonObject } from "../core/json.js";
import type {
  ConversationPlace,
  Content,
  ImagePart,
  TextPart,
  ToolSpec,
} from "../core/test-case.js";
import type { ToolCall } from "../core/tool-call.js";
import { conversationSoFar, runSections } from "./argument-correctness.js";
import { shownContent } from "./case-content.js";
import { fenced } from "./fence.js";
import {
  taskCompletionDecisionInstructions,
  taskCompletionInstructions,
  taskCompletionQuestion,
  taskCompletionSchema,
} from "./prompts/task-completion.js";
import {
  bandVerdict,
  decisionRequest,
  isDecisionModel,
  probabilityText,
  readDecisions,
} from "./decisions.js";
import type { DecisionBand } from "./decisions.js";
import { askSamples, majorityVerdict } from "./samples.js";
import type { JudgeCallOptions, SamplingOptions } from "./samples.js";

/** A judge's verdict on a whole run. */
export type TaskVerdict = "completed" | "partially_completed" | "not_completed" | "cannot_tell";

/** What a verdict scores: done 1, partly 0.5, not 0 (`cannot_tell` scores nothing). */
export const taskVerdictScore: Readonly<Record<Exclude<TaskVerdict, "cannot_tell">, number>> = {
  completed: 1,
  partially_completed: 0.5,
  not_completed: 0,
};

/** The whole run, as the judge is shown it. */
export interface TaskCompletionInput {
  readonly input: Content;
  readonly availableTools: readonly ToolSpec[];
  readonly toolsCalled: readonly ToolCall[];
  /** The agent's replies, in order (from its transcript). */
  readonly replies: readonly string[];
  /** The agent's final answer, when the case gives one. */
  readonly output?: Content;
  /** What a completed task looks like, when the case gives it. */
  readonly expectedOutcome?: Content;
  /** Where the case sits in a conversation, when it is one turn of one. */
  readonly conversation?: ConversationPlace | undefined;
  /** The task, as the one evaluating states it (deepeval's `task`), beside the request. */
  readonly task?: string;
}

interface SampleVerdict {
  readonly verdict: TaskVerdict;
  readonly reason: string;
  readonly unmet: readonly string[];
  /** A decision model's probability that the task was completed. */
  readonly probability?: number;
}

/** The judge request for one run; images of the request and answer are sent when it takes them. */
export function taskCompletionRequest(
  input: TaskCompletionInput,
  options: { readonly images: boolean },
): JudgeRequest {
  const { images } = options;
  const content: (TextPart | ImagePart)[] = [
    ...conversationSoFar(input.conversation),
    ...shownContent("## The user's request", input.input, { images, what: "request" }),
  ];
  if (input.task !== undefined) {
    content.push(
      ...shownContent("## The task, as the evaluator states it", input.task, {
        images,
        what: "task",
      }),
    );
  }
  if (input.expectedOutcome !== undefined) {
    content.push(
      ...shownContent("## The expected outcome", input.expectedOutcome, {
        images,
        what: "expected outcome",
      }),
    );
  }
  content.push({
    type: "text",
    text: [
      ...runSections(input.availableTools, input.toolsCalled),
      "## What the agent said, in order",
      input.replies.length === 0
        ? "(nothing)"
        : input.replies.map((reply) => fenced(reply)).join("\n"),
    ].join("\n"),
  });
  if (input.output !== undefined) {
    content.push(
      ...shownContent("## The agent's final answer", input.output, { images, what: "answer" }),
    );
  }
  return {
    messages: [
      { role: "system", content: taskCompletionInstructions },
      { role: "user", content },
    ],
    schema: taskCompletionSchema,
  };
}

function readTaskVerdict(output: JsonObject): SampleVerdict {
  return {
    verdict: output.verdict as TaskVerdict,
    reason: (output.reason as string).trim(),
    unmet: (output.unmet as string[]).map((item) => item.trim()).filter((item) => item !== ""),
  };
}

/** The decision form of the request: one choice among the verdicts. */
export function taskCompletionDecisionRequest(
  input: TaskCompletionInput,
  options: { readonly images: boolean },
): JudgeRequest {
  return decisionRequest(
    taskCompletionRequest(input, options),
    taskCompletionDecisionInstructions,
    [{ type: "choice", id: "task", ...taskCompletionQuestion }],
  );
}

/**
 * Reads a decision model's answer: completed when P(completed) reaches the band's top, the likelier
 * of the other two when it is at or under its bottom, cannot tell in between.
 */
export function readTaskDecision(band: DecisionBand) {
  return (output: JsonObject): SampleVerdict | string => {
    const answers = readDecisions(output);
    if (typeof answers === "string") return answers;
    const distribution = answers.task;
    if (distribution === null) {
      return { verdict: "cannot_tell", reason: "the decision model declined to answer", unmet: [] };
    }
    const probability = distribution.completed;
    const side = bandVerdict(probability, band);
    const partly = distribution.partially_completed;
    const verdict: TaskVerdict =
      side === "pass"
        ? "completed"
        : side === "cannot_tell"
          ? "cannot_tell"
          : partly >= distribution.not_completed
            ? "partially_completed"
            : "not_completed";
    const shares = taskCompletionQuestion.choices
      .map((choice) => `${choice.value} ${probabilityText(distribution[choice.value])}`)
      .join(", ");
    return {
      verdict,
      reason: `P(${shares}), band [${band.low}, ${band.high}] on completed`,
      unmet: [],
      probability,
    };
  };
}

/** The run's verdict over every sample, and what asking cost. */
export interface TaskCompletionAnswer {
  /** The majority; `cannot_tell` also when samples agreed less than `minAgreement`. */
  readonly verdict: TaskVerdict;
  readonly reason: string;
  readonly unmet: readonly string[];
  readonly agreement: number;
  readonly samples: readonly TaskVerdict[];
  readonly usage: JudgeUsage;
  readonly attempts: number;
  readonly cached: boolean;
  readonly costUsd?: number;
  /** A decision model's probability that the task was completed (the first sample's). */
  readonly probability?: number;
}

/**
 * Asks a judge, `sampling.samples` times, whether the run did what the user asked (against the
 * expected outcome when given); the majority verdict stands when samples agree enough.
 */
export async function judgeTaskCompletion(
  model: JudgeModel,
  input: TaskCompletionInput,
  sampling: SamplingOptions,
  options: JudgeCallOptions = {},
): Promise<TaskCompletionAnswer> {
  const decides = isDecisionModel(model);
  const request = (decides ? taskCompletionDecisionRequest : taskCompletionRequest)(input, {
    images: model.supportsImages,
  });
  const answers = await askSamples(model, request, sampling, {
    read: decides ? readTaskDecision(sampling.band) : readTaskVerdict,
    ...options,
  });
  const probability = answers.values[0]?.probability;
  const { verdict, reason, chosen, agreement, verdicts } = majorityVerdict(answers.values, {
    order: ["completed", "partially_completed", "not_completed", "cannot_tell"],
    undecided: "cannot_tell",
    minAgreement: sampling.minAgreement,
  });
  return {
    verdict,
    reason,
    unmet: chosen?.unmet ?? [],
    agreement,
    samples: verdicts,
    usage: answers.usage,
    attempts: answers.attempts,
    cached: answers.cached,
    costUsd: answers.costUsd,
    ...(probability === undefined ? {} : { probability }),
  };
}
