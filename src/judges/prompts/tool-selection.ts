/**
 * The tool-selection judge's instructions and answer schema: data, so that they can be read,
 * reviewed and versioned apart from code. Changing them changes the cache keys, on purpose.
 */
import type { JudgeSchema } from "../../core/judge.js";
import { fencedTextRule } from "../fence.js";

export const toolSelectionPromptVersion = "tool-selection/2";

/** What a right choice of tools is: the part of the instructions both kinds of judge read. */
const selectionRules = `You judge whether an AI agent chose the right tools for a user's request.
You are shown the request, every tool the agent could call (name, description, parameters), and the calls it made, in order.
Judge the choice of tools only: not the exact arguments, not the quality of the final answer.

Look for three faults:
- over-selection: calls the request did not need (irrelevant, redundant, repeated for no reason);
- under-selection: tools the request needed that were never called (also when nothing was called but a tool was needed);
- mis-selection: a call to one tool where another available tool clearly fitted the step better.
A request that needs no tool, answered without calls, is a correct selection.`;

export const toolSelectionInstructions = `${selectionRules}

Score on this scale:
1 - right: every needed tool was called, nothing unnecessary, each the best fit available.
0.75 - right in substance with one minor fault: one harmless extra call, or a slightly less suitable tool for a minor step.
0.5 - partly right: one needed tool missing, a wrong tool for one of several steps, or several unnecessary calls.
0.25 - mostly wrong: the main need was not served by a suitable tool, though something useful was called.
0 - wrong: no needed tool was called, or the calls have nothing to do with the request.

First write the reason (one to three sentences naming the faults, or saying there are none), then list the faulty tools by name under each fault, then give the score.
${fencedTextRule}`;

/** The version of the decision-model form: a calibration of one form does not hold for the other. */
export const toolSelectionDecisionVersion = "tool-selection-decision/1";

/** The instructions a decision model is given: the same rules; its doubt is its probability. */
export const toolSelectionDecisionInstructions = `${selectionRules}
${fencedTextRule}`;

/** The scale a decision model rates on, lowest first, with each level's score. */
export const toolSelectionQuestion = {
  instructions: "How right was the agent's choice of tools for the request?",
  levels: [
    {
      score: 0,
      description:
        "wrong: no needed tool was called, or the calls have nothing to do with the request",
    },
    {
      score: 0.25,
      description:
        "mostly wrong: the main need was not served by a suitable tool, though something useful was called",
    },
    {
      score: 0.5,
      description:
        "partly right: one needed tool missing, a wrong tool for one of several steps, or several unnecessary calls",
    },
    {
      score: 0.75,
      description:
        "right in substance with one minor fault: one harmless extra call, or a slightly less suitable tool for a minor step",
    },
    {
      score: 1,
      description:
        "right: every needed tool was called, nothing unnecessary, each the best fit available",
    },
  ],
} as const;

const names = (description: string) => ({
  type: "array",
  items: { type: "string" },
  description,
});

export const toolSelectionSchema: JudgeSchema = {
  name: "tool_selection_verdict",
  description: "A judgement of the tools an agent chose for a request.",
  schema: {
    type: "object",
    properties: {
      reason: { type: "string", description: "One to three sentences naming the faults, or none." },
      overSelected: names("Tools called that the request did not need."),
      underSelected: names("Available tools the request needed that were not called."),
      misSelected: names("Tools called where another available tool fitted better."),
      score: {
        type: "number",
        description: "0, 0.25, 0.5, 0.75 or 1, by the scale in the instructions.",
      },
    },
    required: ["reason", "overSelected", "underSelected", "misSelected", "score"],
    additionalProperties: false,
  },
};
