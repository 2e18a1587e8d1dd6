/**
 * The judged-value judge's instructions and answer schema (`match.judged`): data, read and
 * reviewed apart from code. Changing them changes the cache keys, on purpose.
 */
import type { JudgeSchema } from "../../core/judge.js";
import { fencedTextRule } from "../fence.js";

export const judgedValuePromptVersion = "judged-value/2";

/** What meeting a criterion is: the part of the instructions both kinds of judge read. */
const valueRules = `You judge one value of a tool call (an argument an AI agent passed, or what the tool returned) against a criterion a person wrote for it.
You are shown the user's request, the tool (name, description, parameters' JSON Schema) when the value belongs to one, where the value sits in the call ($ is the arguments, output what the tool returned), the criterion, and the value.
Decide whether the value meets the criterion, reading the criterion as written: every part of it must hold. Judge this value only, not the rest of the call.`;

export const judgedValueInstructions = `${valueRules}

Answer "meets" or "fails", or "cannot_tell" when deciding needs something the case does not show (a fact the request does not state, a reference that was not given). Do not guess: "cannot_tell" is a valid answer, and a wrong verdict is worse than it.

First write the reason (one sentence: for "fails", what the value lacks or gets wrong), then the verdict.
${fencedTextRule}`;

/** The version of the decision-model form: a calibration of one form does not hold for the other. */
export const judgedValueDecisionVersion = "judged-value-decision/1";

/** The instructions a decision model is given: the same rules; its doubt is its probability. */
export const judgedValueDecisionInstructions = `${valueRules}

When deciding needs something the case does not show (a fact the request does not state, a reference that was not given), do not lean either way.
${fencedTextRule}`;

/** The yes-no question a decision model is asked of the value. */
export const judgedValueQuestion = "Does the value meet the criterion?";

export const judgedValueSchema: JudgeSchema = {
  name: "judged_value_verdict",
  description: "Whether a tool argument meets a criterion.",
  schema: {
    type: "object",
    properties: {
      reason: { type: "string", description: "One sentence." },
      verdict: { type: "string", enum: ["meets", "fails", "cannot_tell"] },
    },
    required: ["reason", "verdict"],
    additionalProperties: false,
  },
};
