/**
 * The judged-value judge's instructions and answer schema (`match.judged`): data, read and
 * reviewed apart from code. Changing them changes the cache keys, on purpose.
 */
import type { JudgeSchema } from "../../core/judge.js";
import { fencedTextRule } from "../fence.js";

export const judgedValuePromptVersion = "judged-value/2";

export const judgedValueInstructions = `You judge one value of a tool call (an argument an AI agent passed, or what the tool returned) against a criterion a person wrote for it.
You are shown the user's request, the tool (name, description, parameters' JSON Schema) when the value belongs to one, where the value sits in the call ($ is the arguments, output what the tool returned), the criterion, and the value.
Decide whether the value meets the criterion, reading the criterion as written: every part of it must hold. Judge this value only, not the rest of the call.

Answer "meets" or "fails", or "cannot_tell" when deciding needs something the case does not show (a fact the request does not state, a reference that was not given). Do not guess: "cannot_tell" is a valid answer, and a wrong verdict is worse than it.

First write the reason (one sentence: for "fails", what the value lacks or gets wrong), then the verdict.
${fencedTextRule}`;

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
