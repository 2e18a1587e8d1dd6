import type { PreparedContext } from "../core/context.js";
import { InvalidInputError } from "../core/errors.js";
import type { JudgeModel, JudgeRequest, JudgeSchema } from "../core/judge.js";
import type { JsonObject } from "../core/json.js";
import type { ImagePart, TextPart } from "../core/test-case.js";
import { askJudge } from "./ask-judge.js";
import { fenced } from "./fence.js";
import type { JudgeAnswer } from "./ask-judge.js";
import {
  claimsInstructions,
  claimsSchema,
  faithfulnessInstructions,
  faithfulnessSchema,
  relevanceInstructions,
  relevanceSchema,
} from "./prompts/faithfulness.js";

/** A context a verdict points at: its place in the list (0-based) and its kind. */
export interface ContextReference {
  readonly index: number;
  readonly kind: "text" | "image";
}

/** One claim of a response, judged against the contexts. */
export interface ClaimVerdict {
  readonly claim: string;
  readonly verdict: "supported" | "contradicted" | "unsupported";
  /** The contexts that support or contradict the claim. */
  readonly contexts: readonly ContextReference[];
  readonly reason: string;
}

export interface BinaryVerdict {
  readonly verdict: boolean;
  readonly reason: string;
}

/** What keeps contexts from being judged: images that failed to load (never sent as text). */
export function unjudgeableContexts(contexts: readonly PreparedContext[]): PreparedContext[] {
  return contexts.filter((context) => context.kind === "image" && context.status === "failed");
}

/**
 * The contexts as judge content, in order: texts as `Context n (text): …`, images as a label
 * followed by the image itself. Throws if an image did not load: it must never reach a judge as
 * its name.
 */
export function contextParts(contexts: readonly PreparedContext[]): (TextPart | ImagePart)[] {
  const parts: (TextPart | ImagePart)[] = [];
  contexts.forEach((context, position) => {
    const number = position + 1;
    if (context.kind === "text") {
      parts.push({ type: "text", text: `Context ${number} (text):\n${fenced(context.text)}` });
      return;
    }
    if (context.status !== "loaded") {
      throw new InvalidInputError({
        field: `contexts[${position}]`,
        message: `context ${number} (${context.origin}) is an image that did not load; it cannot be judged, and is never sent as text`,
      });
    }
    parts.push({ type: "text", text: `Context ${number} (image):` });
    parts.push({
      type: "image",
      source: { kind: "base64", data: context.image.base64, mimeType: context.image.mediaType },
    });
  });
  return parts;
}

function checkInputs(response: string, contexts: readonly PreparedContext[]): void {
  if (typeof response !== "string" || response.trim() === "") {
    throw new InvalidInputError({ field: "response", message: "the response to judge is empty" });
  }
  if (contexts.length === 0) {
    throw new InvalidInputError({
      field: "retrievedContexts",
      message: "there are no contexts to judge the response against",
    });
  }
}

function request(
  instructions: string,
  schema: JudgeSchema,
  lead: readonly string[],
  contexts: readonly PreparedContext[],
  question: string,
): JudgeRequest {
  return {
    messages: [
      { role: "system", content: instructions },
      {
        role: "user",
        content: [
          { type: "text", text: lead.join("\n") },
          { type: "text", text: "## Contexts" },
          ...contextParts(contexts),
          { type: "text", text: question },
        ],
      },
    ],
    schema,
  };
}

/** The request for ragas' yes/no faithfulness judgement. */
export function faithfulnessRequest(
  response: string,
  contexts: readonly PreparedContext[],
): JudgeRequest {
  checkInputs(response, contexts);
  return request(
    faithfulnessInstructions,
    faithfulnessSchema,
    ["## Response", fenced(response)],
    contexts,
    "Can every claim of the response be inferred from these contexts?",
  );
}

/** The request for ragas' yes/no relevance judgement. */
export function relevanceRequest(
  question: string,
  response: string,
  contexts: readonly PreparedContext[],
): JudgeRequest {
  checkInputs(response, contexts);
  return request(
    relevanceInstructions,
    relevanceSchema,
    ["## Question", fenced(question), "## Response", fenced(response)],
    contexts,
    "Is the response relevant to the question, in line with these contexts?",
  );
}

/** The request for the claim-by-claim judgement. */
export function claimsRequest(
  response: string,
  contexts: readonly PreparedContext[],
): JudgeRequest {
  checkInputs(response, contexts);
  return request(
    claimsInstructions,
    claimsSchema,
    ["## Response", fenced(response)],
    contexts,
    "List the response's claims and judge each against the contexts.",
  );
}

const readBinary =
  (field: "faithful" | "relevant") =>
  (output: JsonObject): BinaryVerdict | string =>
    typeof output[field] === "boolean"
      ? {
          verdict: output[field],
          reason: typeof output.reason === "string" ? output.reason.trim() : "",
        }
      : `${field} must be true or false`;

/** Reads claim verdicts, refusing context numbers that do not exist or missing citations. */
export function readClaims(contexts: readonly PreparedContext[]) {
  return (output: JsonObject): ClaimVerdict[] | string => {
    const claims = output.claims;
    if (!Array.isArray(claims)) return "claims must be a list";
    const verdicts: ClaimVerdict[] = [];
    for (const [position, item] of claims.entries()) {
      const claim = item as {
        claim: string;
        verdict: ClaimVerdict["verdict"];
        contexts: number[];
        reason: string;
      };
      const references: ContextReference[] = [];
      for (const number of claim.contexts) {
        const context = contexts.at(number - 1);
        if (!Number.isInteger(number) || number < 1 || context === undefined) {
          return `claim ${position + 1} cites context ${number}, but the contexts are numbered 1 to ${contexts.length}`;
        }
        references.push({ index: number - 1, kind: context.kind });
      }
      if (claim.verdict !== "unsupported" && references.length === 0) {
        return `claim ${position + 1} is ${claim.verdict} but cites no context`;
      }
      verdicts.push({
        claim: claim.claim,
        verdict: claim.verdict,
        contexts: references,
        reason: claim.reason,
      });
    }
    return verdicts;
  };
}

/** ragas' faithfulness: can every claim of the response be inferred from the contexts? */
export function judgeFaithfulness(
  model: JudgeModel,
  input: { response: string; contexts: readonly PreparedContext[] },
  options: { signal?: AbortSignal } = {},
): Promise<JudgeAnswer<BinaryVerdict>> {
  return askJudge(model, faithfulnessRequest(input.response, input.contexts), {
    read: readBinary("faithful"),
    ...options,
  });
}

/** ragas' relevance: does the response address the question, in line with the contexts? */
export function judgeRelevance(
  model: JudgeModel,
  input: { question: string; response: string; contexts: readonly PreparedContext[] },
  options: { signal?: AbortSignal } = {},
): Promise<JudgeAnswer<BinaryVerdict>> {
  return askJudge(model, relevanceRequest(input.question, input.response, input.contexts), {
    read: readBinary("relevant"),
    ...options,
  });
}

/** Each claim of the response, judged against the contexts, with the contexts it rests on. */
export function judgeClaims(
  model: JudgeModel,
  input: { response: string; contexts: readonly PreparedContext[] },
  options: { signal?: AbortSignal } = {},
): Promise<JudgeAnswer<ClaimVerdict[]>> {
  return askJudge(model, claimsRequest(input.response, input.contexts), {
    read: readClaims(input.contexts),
    ...options,
  });
}

/** Supported claims over all claims; 1 when the response claims nothing. */
export function claimsScore(claims: readonly ClaimVerdict[]): number {
  if (claims.length === 0) return 1;
  return claims.filter((claim) => claim.verdict === "supported").length / claims.length;
}
