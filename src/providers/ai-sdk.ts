import { ProviderConfigError } from "../core/errors.js";
import {
  decisionQuestionsOf,
  decisionResponse,
  decisionStateText,
  distributionOf,
} from "../core/decision.js";
import type {
  DecisionQuestion,
  JudgeCallOptions,
  JudgeMessage,
  JudgeModel,
  JudgeRequest,
  JudgeResponse,
} from "../core/judge.js";
import type { JsonValue } from "../core/json.js";
import { toProviderImage } from "./images.js";
import { parseJsonAnswer, toProviderCallError } from "./provider-errors.js";
import { sdkPackage } from "./sdk-packages.js";

/**
 * A Vercel AI SDK language model (`openai("gpt-4.1")`, `anthropic(...)`, `ollama(...)`, any
 * provider package), as far as toolscore needs to know it. The `ai` package (6 or later) must be
 * installed next to toolscore; it is loaded only when the judge is first used.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
}

export interface AiSdkJudgeOptions {
  /** The provider's name in results and cache keys. Default: the model's own. */
  provider?: string;
  /** Retries of retryable API errors by the AI SDK. Default 3. */
  maxRetries?: number;
  /** Per-call timeout in milliseconds. Default 60,000. */
  timeoutMs?: number;
  /** Whether messages may carry images. Default true. */
  supportsImages?: boolean;
}

interface AiModule {
  generateText: (options: Record<string, unknown>) => Promise<{
    output: unknown;
    text: string;
    usage: { inputTokens: number | undefined; outputTokens: number | undefined };
    response?: { modelId?: string };
  }>;
  Output: { object: (options: Record<string, unknown>) => unknown };
  jsonSchema: (schema: unknown) => unknown;
  NoObjectGeneratedError: { isInstance(error: unknown): boolean };
  RetryError: { isInstance(error: unknown): boolean };
  /** Only in ai 7 and later. */
  experimental_decide?: AiSdkDecide;
}

/** The `ai` package, checked now and loaded on the judge's first call. */
function loadAi(): () => Promise<AiModule> {
  // A variable specifier keeps bundlers from requiring `ai` of everyone.
  const specifier = "ai";
  return sdkPackage(
    "a judge on an AI SDK model (fromAiSdk)",
    "ai",
    () => import(specifier) as Promise<AiModule>,
  );
}

function toAiMessages(messages: readonly JudgeMessage[]): unknown[] {
  return messages.map((message, m) => {
    if (typeof message.content === "string" || message.role !== "user") {
      const text =
        typeof message.content === "string"
          ? message.content
          : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      return { role: message.role, content: text };
    }
    return {
      role: "user",
      content: message.content.map((part, p) => {
        if (part.type === "text") return { type: "text", text: part.text };
        const image = toProviderImage(part.source, `messages[${m}].content[${p}]`);
        return image.kind === "url"
          ? { type: "image", image: new URL(image.url) }
          : { type: "image", image: image.data, mediaType: image.mediaType };
      }),
    };
  });
}

/**
 * A judge on any Vercel AI SDK language model: structured output through `generateText` with an
 * object output, so the provider package decides how (native JSON Schema, tool calls, JSON mode).
 */
export function fromAiSdk(model: AiSdkLanguageModel, options: AiSdkJudgeOptions = {}): JudgeModel {
  if (typeof model !== "object" || typeof model.modelId !== "string") {
    throw new ProviderConfigError({
      provider: "ai-sdk",
      message: "fromAiSdk takes an AI SDK language model, such as openai('gpt-4.1')",
    });
  }
  const provider = options.provider ?? (model.provider.split(".").at(0) || "ai-sdk");
  const loadSdk = loadAi();
  return {
    specificationVersion: "v1",
    provider,
    modelId: model.modelId,
    supportsImages: options.supportsImages ?? true,
    async generate(request: JudgeRequest, callOptions: JudgeCallOptions = {}) {
      const ai = await loadSdk();
      const signals = [AbortSignal.timeout(options.timeoutMs ?? 60_000)];
      if (callOptions.signal) signals.push(callOptions.signal);
      try {
        const result = await ai.generateText({
          model,
          messages: toAiMessages(request.messages),
          output: ai.Output.object({
            schema: ai.jsonSchema(request.schema.schema),
            name: request.schema.name,
            ...(request.schema.description === undefined
              ? {}
              : { description: request.schema.description }),
          }),
          temperature: request.temperature ?? 0,
          maxOutputTokens: request.maxOutputTokens ?? 1024,
          maxRetries: options.maxRetries ?? 3,
          abortSignal: AbortSignal.any(signals),
        });
        return {
          output: result.output as JsonValue,
          text: result.text,
          usage: {
            inputTokens: result.usage.inputTokens ?? 0,
            outputTokens: result.usage.outputTokens ?? 0,
          },
          modelId: result.response?.modelId ?? model.modelId,
        } satisfies JudgeResponse;
      } catch (error) {
        if (ai.NoObjectGeneratedError.isInstance(error)) {
          // An answer that does not parse or fit: the judge decides whether to ask again.
          const failed = error as {
            text?: string;
            usage?: { inputTokens?: number; outputTokens?: number };
          };
          const text = failed.text ?? "";
          return {
            output: parseJsonAnswer(text) as JsonValue | undefined,
            text,
            usage: {
              inputTokens: failed.usage?.inputTokens ?? 0,
              outputTokens: failed.usage?.outputTokens ?? 0,
            },
            modelId: model.modelId,
          };
        }
        const last = ai.RetryError.isInstance(error)
          ? (error as { lastError: unknown }).lastError
          : error;
        throw toProviderCallError(provider, last, callOptions.signal);
      }
    },
  };
}

/** An AI SDK 7 decision model (`openai.decisionModel("gpt-6-luna")`, a provider's own). */
export interface AiSdkDecisionModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
}

/** The AI SDK's `experimental_decide`, as far as toolscore calls it. */
export type AiSdkDecide = (options: {
  model: AiSdkDecisionModel;
  state: string;
  questions: Record<string, unknown>;
  maxRetries: number;
  abortSignal: AbortSignal;
}) => Promise<{
  answers: Record<
    string,
    | { type: "boolean"; probability: number }
    | { type: "choice"; choice: string; probabilities?: Record<string, number> }
    | { type: "score"; score: number; probabilities?: Record<string, number> }
    | { type: string }
  >;
  usage: { inputTokens: number | undefined; outputTokens: number | undefined };
  response?: { modelId?: string };
}>;

export interface AiSdkDecisionJudgeOptions extends Omit<AiSdkJudgeOptions, "supportsImages"> {
  /**
   * The `experimental_decide` to call (typed loosely: the `ai` package is optional). Default: the
   * one of the `ai` package installed (7 or later).
   */
  decide?: (...args: never[]) => unknown;
}

function toAiQuestion(question: DecisionQuestion): unknown {
  const { instructions } = question;
  if (question.type === "yes-no") return { type: "boolean", instructions };
  if (question.type === "choice") {
    const criteria = Object.fromEntries(question.choices.map((c) => [c.value, c.description]));
    return { type: "choice", instructions, criteria };
  }
  return { type: "score", instructions, criteria: question.levels };
}

/**
 * A judge on any AI SDK 7 decision model, through `experimental_decide`: the case is the state
 * (as text), the judged metric's questions typed. A model that gives only its top answer counts
 * it as certain, so the band then acts on that answer alone.
 */
export function fromAiSdkDecisionModel(
  model: AiSdkDecisionModel,
  options: AiSdkDecisionJudgeOptions = {},
): JudgeModel {
  if (typeof model !== "object" || typeof model.modelId !== "string") {
    throw new ProviderConfigError({
      provider: "ai-sdk",
      message:
        "fromAiSdkDecisionModel takes an AI SDK decision model, such as openai.decisionModel('gpt-6-luna')",
    });
  }
  const provider = options.provider ?? (model.provider.split(".").at(0) || "ai-sdk");
  const loadDecide =
    options.decide === undefined
      ? (() => {
          const loadSdk = loadAi();
          return async (): Promise<AiSdkDecide> => {
            const decide = (await loadSdk()).experimental_decide;
            if (decide === undefined) {
              throw new ProviderConfigError({
                provider,
                message: `${provider}: the installed ai package has no experimental_decide; decision models need ai 7 or later (npm install ai@7)`,
              });
            }
            return decide;
          };
        })()
      : () => Promise.resolve(options.decide as unknown as AiSdkDecide);
  return {
    specificationVersion: "v1",
    provider,
    modelId: model.modelId,
    supportsImages: false,
    answers: "decisions",
    async generate(request: JudgeRequest, callOptions: JudgeCallOptions = {}) {
      const questions = decisionQuestionsOf(request, `${provider}/${model.modelId}`);
      const decide = await loadDecide();
      const signals = [AbortSignal.timeout(options.timeoutMs ?? 60_000)];
      if (callOptions.signal) signals.push(callOptions.signal);
      let result: Awaited<ReturnType<AiSdkDecide>>;
      try {
        result = await decide({
          model,
          state: decisionStateText(request),
          questions: Object.fromEntries(questions.map((q) => [q.id, toAiQuestion(q)])),
          maxRetries: options.maxRetries ?? 3,
          abortSignal: AbortSignal.any(signals),
        });
      } catch (error) {
        const last =
          typeof error === "object" && error !== null && "lastError" in error
            ? error.lastError
            : error;
        throw toProviderCallError(provider, last, callOptions.signal);
      }
      const answers: Record<string, Record<string, number> | null> = {};
      for (const question of questions) {
        const answer = result.answers[question.id] as
          Awaited<ReturnType<AiSdkDecide>>["answers"][string] | undefined;
        answers[question.id] =
          answer === undefined
            ? null
            : "probability" in answer
              ? distributionOf(question, { probability: answer.probability })
              : "probabilities" in answer && answer.probabilities !== undefined
                ? distributionOf(question, { probabilities: answer.probabilities })
                : "choice" in answer
                  ? distributionOf(question, { top: answer.choice })
                  : "score" in answer
                    ? distributionOf(question, { top: String(Math.round(answer.score)) })
                    : null;
      }
      return decisionResponse(
        answers,
        {
          inputTokens: result.usage.inputTokens ?? 0,
          outputTokens: result.usage.outputTokens ?? 0,
        },
        result.response?.modelId ?? model.modelId,
      );
    },
  };
}
