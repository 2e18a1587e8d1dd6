/**
 * The multimodal faithfulness and relevance judges' instructions and answer schemas, as data.
 * Changing them changes the cache keys, on purpose.
 */
import type { JudgeSchema } from "../../core/judge.js";
import { fencedTextRule } from "../fence.js";

export const faithfulnessPromptVersion = "multimodal-faithfulness/2";

export const faithfulnessInstructions = `You check whether a response is faithful to the contexts it was given.
The contexts are numbered; each is a text or an image. The response is faithful when every claim in it can be inferred from the contexts (what the images show, what the texts say), with nothing contradicting them and no facts they do not support.
Give a short reason first, then faithful: true or false.
${fencedTextRule}`;

export const relevanceInstructions = `You check whether a response is relevant to the user's question, given the contexts the answer was to draw on.
The contexts are numbered; each is a text or an image. The response is relevant when it addresses the question and is in line with what the contexts show or say.
Give a short reason first, then relevant: true or false.
${fencedTextRule}`;

export const claimsInstructions = `You check a response, claim by claim, against the contexts it was given.
The contexts are numbered; each is a text or an image.
List every factual claim the response makes, as short self-contained statements. For each claim, decide:
- supported: the contexts show or say it;
- contradicted: a context shows or says otherwise;
- unsupported: no context bears on it.
For supported and contradicted claims, give the numbers of the contexts that support or contradict them; for unsupported ones, give none. Add a one-sentence reason per claim. A response with no factual claims has an empty list.
${fencedTextRule}`;

export const faithfulnessSchema: JudgeSchema = {
  name: "faithfulness_verdict",
  schema: {
    type: "object",
    properties: { reason: { type: "string" }, faithful: { type: "boolean" } },
    required: ["reason", "faithful"],
    additionalProperties: false,
  },
};

export const relevanceSchema: JudgeSchema = {
  name: "relevance_verdict",
  schema: {
    type: "object",
    properties: { reason: { type: "string" }, relevant: { type: "boolean" } },
    required: ["reason", "relevant"],
    additionalProperties: false,
  },
};

export const claimsSchema: JudgeSchema = {
  name: "claim_verdicts",
  schema: {
    type: "object",
    properties: {
      claims: {
        type: "array",
        items: {
          type: "object",
          properties: {
            claim: { type: "string" },
            verdict: { type: "string", enum: ["supported", "contradicted", "unsupported"] },
            contexts: { type: "array", items: { type: "integer" } },
            reason: { type: "string" },
          },
          required: ["claim", "verdict", "contexts", "reason"],
          additionalProperties: false,
        },
      },
    },
    required: ["claims"],
    additionalProperties: false,
  },
};
