/**
 * The task-completion judge's instructions and answer schema: data, read and reviewed apart from
 * code. Changing them changes the cache keys, on purpose.
 */
import type { JudgeSchema } from "../../core/judge.js";
import { fencedTextRule } from "../fence.js";

export const taskCompletionPromptVersion = "task-completion/1";

/** What a completed task is: the part of the instructions both kinds of judge read. */
const taskRules = `You judge whether an AI agent did what the user asked, from a record of its whole run.
You are shown the user's request, the tools the agent could call, every call it made in order with what the tool returned, and what the agent said. You may also be shown the expected outcome: a reference, written by a person, of what a completed task looks like.

Judge the outcome, not the style: did the run achieve what the request asked, as the tool outputs show it? A claim in the agent's answer that no tool output supports (a refund it says it made, a booking that failed) does not count as done. With an expected outcome, the run must achieve it; without one, judge against the request alone.`;

export const taskCompletionInstructions = `${taskRules}

Verdicts:
- "completed": every part of the request was achieved (and the expected outcome, when given);
- "partially_completed": some parts were achieved and others were not;
- "not_completed": the main thing asked was not achieved (or was done wrongly);
- "cannot_tell": the record does not hold what deciding needs (an output missing or cut off, a request that cannot be read). Do not guess: "cannot_tell" is a valid answer, and a wrong verdict is worse than it.

First write the reason (one to three sentences: what was achieved, what was not, and the evidence), then list the parts of the request that were not achieved, then give the verdict.
${fencedTextRule}`;

/** The version of the decision-model form: a calibration of one form does not hold for the other. */
export const taskCompletionDecisionVersion = "task-completion-decision/1";

/** The instructions a decision model is given: the same rules; its doubt is its probability. */
export const taskCompletionDecisionInstructions = `${taskRules}

When the record does not hold what deciding needs (an output missing or cut off), do not lean either way.
${fencedTextRule}`;

/** The choice a decision model is asked, with what each answer means. */
export const taskCompletionQuestion = {
  instructions: "Did the agent's run do what the user asked?",
  choices: [
    {
      value: "completed",
      description: "every part of the request was achieved (and the expected outcome, when given)",
    },
    { value: "partially_completed", description: "some parts were achieved and others were not" },
    {
      value: "not_completed",
      description: "the main thing asked was not achieved, or was done wrongly",
    },
  ],
} as const;

export const taskCompletionSchema: JudgeSchema = {
  name: "task_completion_verdict",
  description: "A judgement of whether an agent's run did what the user asked.",
  schema: {
    type: "object",
    properties: {
      reason: { type: "string", description: "One to three sentences with the evidence." },
      unmet: {
        type: "array",
        items: { type: "string" },
        description: "Parts of the request (or the expected outcome) that were not achieved.",
      },
      verdict: {
        type: "string",
        enum: ["completed", "partially_completed", "not_completed", "cannot_tell"],
      },
    },
    required: ["reason", "unmet", "verdict"],
    additionalProperties: false,
  },
};
