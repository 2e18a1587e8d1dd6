import type OpenAI from "openai";
import type * as OpenAIModule from "openai";
import { decisionQuestionsOf, decisionResponse, distributionOf } from "../core/decision.js";
import type {
  DecisionQuestion,
  JudgeMessage,
  JudgeModel,
  JudgeRequest,
  JudgeResponse,
} from "../core/judge.js";
import { toProviderImage } from "./images.js";
import { newOpenAIClient } from "./openai-client.js";
import type { OpenAIJudgeOptions } from "./openai.js";
import { sdkPackage } from "./sdk-packages.js";
import { sdkJudge } from "./sdk-judge.js";

/**
 * The Decisions API's request and answer, as far as toolscore uses them: the `openai` SDK 7's
 * `DecisionCreateParams` and `Decision` (toolscore builds against an SDK that may lack them).
 */
interface DecisionBody {
  readonly model: string;
  readonly input: readonly {
    readonly role: "system" | "user" | "assistant";
    readonly content:
      | string
      | readonly (
          | { readonly type: "input_text"; readonly text: string }
          | { readonly type: "input_image"; readonly image_url: string }
        )[];
  }[];
  readonly questions: readonly (
    | { readonly type: "predicate"; readonly name: string; readonly instructions: string }
    | {
        readonly type: "choice";
        readonly name: string;
        readonly instructions: string;
        readonly choices: readonly { readonly value: string; readonly description: string }[];
      }
    | {
        readonly type: "score";
        readonly name: string;
        readonly instructions: string;
        readonly levels: readonly { readonly label: string; readonly description: string }[];
      }
  )[];
}

type DecisionAnswer =
  | { readonly type: "predicate"; readonly name: string | null; readonly probability: number }
  | {
      readonly type: "choice";
      readonly name: string | null;
      readonly probabilities: readonly {
        readonly value: string | boolean;
        readonly probability: number;
      }[];
    }
  | {
      readonly type: "score";
      readonly name: string | null;
      readonly probabilities: readonly { readonly value: number; readonly probability: number }[];
    }
  | { readonly type: "refusal"; readonly name: string | null };

interface Decision {
  readonly answers: readonly DecisionAnswer[];
  readonly model: string;
  readonly usage?: { readonly input_tokens?: number; readonly output_tokens?: number };
}

/** A client of the `openai` SDK: 7 has `decisions.create`; 6 reaches the same path through `post`. */
type DecisionsClient = OpenAI & {
  readonly decisions?: {
    create(body: DecisionBody, options: { signal?: AbortSignal }): Promise<Decision>;
  };
};

export type OpenAIDecisionsJudgeOptions = Omit<OpenAIJudgeOptions, "structuredOutput" | "azure">;

function toInput(messages: readonly JudgeMessage[]): DecisionBody["input"] {
  return messages.map((message, m) => {
    if (typeof message.content === "string")
      return { role: message.role, content: message.content };
    return {
      role: message.role,
      content: message.content.map((part, p) => {
        if (part.type === "text") return { type: "input_text" as const, text: part.text };
        const image = toProviderImage(part.source, `messages[${m}].content[${p}]`);
        const url =
          image.kind === "url" ? image.url : `data:${image.mediaType};base64,${image.data}`;
        return { type: "input_image" as const, image_url: url };
      }),
    };
  });
}

function toQuestion(question: DecisionQuestion): DecisionBody["questions"][number] {
  const { id: name, instructions } = question;
  if (question.type === "yes-no") return { type: "predicate", name, instructions };
  if (question.type === "choice")
    return { type: "choice", name, instructions, choices: question.choices };
  // Levels are labelled by their index: the answer's values are indices.
  const levels = question.levels.map((description, index) => ({
    label: String(index),
    description,
  }));
  return { type: "score", name, instructions, levels };
}

/** The body of a decision request: the case as input, one question per typed question. */
function decisionBody(model: string, request: JudgeRequest, provider: string): DecisionBody {
  const questions = decisionQuestionsOf(request, provider);
  return { model, input: toInput(request.messages), questions: questions.map(toQuestion) };
}

/** The answers read back into distributions by question id; what is missing, when something is. */
function readDecision(request: JudgeRequest, decision: Decision): JudgeResponse | string {
  const given: unknown = decision.answers;
  if (!Array.isArray(given)) return "answers";
  const questions = request.decision?.questions ?? [];
  const answers: Record<string, Record<string, number> | null> = {};
  for (const [index, question] of questions.entries()) {
    // Answers come in question order, each with its question's name.
    const answer =
      decision.answers.find((entry) => entry.name === question.id) ?? decision.answers[index];
    if ((answer as DecisionAnswer | undefined) === undefined) return `an answer to ${question.id}`;
    answers[question.id] =
      answer.type === "refusal"
        ? null
        : answer.type === "predicate"
          ? distributionOf(question, { probability: answer.probability })
          : distributionOf(question, {
              probabilities: Object.fromEntries(
                answer.probabilities.map((entry: { value: unknown; probability: number }) => [
                  String(entry.value),
                  entry.probability,
                ]),
              ),
            });
  }
  return decisionResponse(
    answers,
    {
      inputTokens: decision.usage?.input_tokens ?? 0,
      outputTokens: decision.usage?.output_tokens ?? 0,
    },
    decision.model,
  );
}

/**
 * A judge on OpenAI's Decisions API (`POST /v1/decisions`), through the `openai` SDK: it answers
 * judged metrics' typed questions with probabilities (see `DecisionBand`). With `openai` 7 it
 * calls `client.decisions.create`; with 6, the same path through the client's `post`, so its
 * retries and deadlines hold either way.
 */
export function createOpenAIDecisionsJudge(options: OpenAIDecisionsJudgeOptions): JudgeModel {
  const provider = options.provider ?? "openai-decisions";
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  return sdkJudge<typeof OpenAIModule, DecisionsClient, Decision>({
    provider,
    model: options.model,
    apiKey,
    keyVariable: "OPENAI_API_KEY",
    options,
    endpoint: options.baseURL ?? process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
    credentials: [apiKey, options.organization, options.project],
    sdk: () => sdkPackage(`the ${provider} judge`, "openai", () => import("openai")),
    newClient: (module, settings) => newOpenAIClient(module, options, apiKey, settings),
    // Typed loosely in the options (see OpenAIClient); it is the SDK's client.
    ownClient: (_module, client) => client as DecisionsClient,
    create: (client, request, signal) => {
      const body = decisionBody(options.model, request, `${provider}/${options.model}`);
      return client.decisions !== undefined
        ? client.decisions.create(body, { signal })
        : client.post<Decision>("/decisions", { body, signal });
    },
    read: (decision, request) => readDecision(request, decision),
    answers: "decisions",
  });
}
