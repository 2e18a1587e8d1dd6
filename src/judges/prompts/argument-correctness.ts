/**
 * The argument-correctness judge's instructions and answer schema: data, read and reviewed apart
 * from code. Changing them changes the cache keys, on purpose.
 */
import type { JudgeSchema } from "../../core/judge.js";
import { fencedTextRule } from "../fence.js";

// 2: the reason comes before the verdict, so the verdict follows from it.
export const argumentCorrectnessPromptVersion = "argument-correctness/2";

/** What makes arguments right or wrong: the part of the instructions both kinds of judge read. */
const argumentRules = `You judge the arguments an AI agent passed to the tools it called.
You are shown the user's request, every tool the agent could call (name, description, parameters' JSON Schema), and the calls it made, in order, each with what the tool returned.
For each call, decide whether its arguments were right given what the agent knew when it made the call: the request, and the outputs of the calls before it (never the outputs of later calls).
Judge the arguments only, not whether the tool was the right one to call, and not the final answer.

Arguments are right when every value the request or an earlier output settles is passed as settled (amounts, ids, dates, names, units, quantities), required parameters are given, and free-text values (a query, a message body) serve the request faithfully. They are wrong when a value contradicts the request or an earlier output, is invented where the request or an earlier output gives it, or a required value is missing.`;

export const argumentCorrectnessInstructions = `${argumentRules}

Answer "cannot_tell" for a call when the case does not hold what deciding needs: the value depends on an output that is missing or cut off, or on something the request does not say and no earlier output shows. Do not guess: "cannot_tell" is a valid answer, and a wrong "right" or "wrong" is worse than it.

For every call, in order, give its number, then one sentence naming the argument and why (for a wrong one: the argument, what was passed and what was due), then your verdict ("right", "wrong" or "cannot_tell"), which follows from that sentence.
${fencedTextRule}`;

/** The version of the decision-model form: a calibration of one form does not hold for the other. */
export const argumentCorrectnessDecisionVersion = "argument-correctness-decision/1";

/** The instructions a decision model is given: the same rules; its doubt is its probability. */
export const argumentCorrectnessDecisionInstructions = `${argumentRules}

When the case does not hold what deciding a call needs (an output missing or cut off, a value nothing shows), do not lean either way.
${fencedTextRule}`;

/** The yes-no question asked of each call. */
export function argumentCorrectnessQuestion(number: number, name: string): string {
  return `Were the arguments of call ${number} (${name}) right, given the user's request and what the calls before it returned?`;
}

export const argumentCorrectnessSchema: JudgeSchema = {
  name: "argument_correctness_verdicts",
  description: "A verdict on the arguments of each call an agent made.",
  schema: {
    type: "object",
    properties: {
      calls: {
        type: "array",
        items: {
          type: "object",
          properties: {
            call: { type: "integer", description: "The call's number, from 1, as listed." },
            reason: { type: "string", description: "One sentence: the argument and why." },
            verdict: { type: "string", enum: ["right", "wrong", "cannot_tell"] },
          },
          required: ["call", "reason", "verdict"],
          additionalProperties: false,
        },
      },
    },
    required: ["calls"],
    additionalProperties: false,
  },
};
