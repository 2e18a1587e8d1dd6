import { ProviderConfigError } from "../core/errors.js";
import type {
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
