import type Anthropic from "@anthropic-ai/sdk";
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
} from "@anthropic-ai/sdk/resources/messages/messages";
import { ProviderCallError } from "../core/errors.js";
import type {
  JudgeBatchApi,
  JudgeBatchRequest,
  JudgeBatchResult,
  JudgeBatchStatus,
  JudgeCallOptions,
  JudgeMessage,
  JudgeModel,
  JudgeRequest,
  JudgeResponse,
} from "../core/judge.js";
import { toProviderImage } from "./images.js";
import { boundedFetch } from "./bounded-fetch.js";
import { callTarget } from "./call-target.js";
import { parseJsonAnswer, providerCalls } from "./provider-errors.js";
import { judgeSetup, sdkPackage } from "./sdk-packages.js";

/**
 * How the answer is held to the schema: Claude's native structured outputs
 * (`output_config.format`), or a forced call of a tool whose input schema is the answer's
 * (for models without structured outputs).
 */
export type AnthropicStructuredOutput = "json-schema" | "tool";

export interface AnthropicJudgeOptions {
  /** `claude-sonnet-4-5`, ... */
  model: string;
  /** Default: `ANTHROPIC_API_KEY`, read by the SDK. */
  apiKey?: string;
  /** A proxy or gateway; the SDK appends `/v1/messages`. */
  baseURL?: string;
  /**
   * Each try's deadline in milliseconds, the read of its whole answer included. A call, with its
   * retries and the waits between them, ends within `timeoutMs × (maxRetries + 1)`. Default 60,000.
   */
  timeoutMs?: number;
  /** Retries of 408/409/429/5xx, resets and timeouts, by the SDK (backoff, jitter, Retry-After). Default 3. */
  maxRetries?: number;
  /** Default `"json-schema"`. */
  structuredOutput?: AnthropicStructuredOutput;
  /** Whether messages may carry images. Default true. */
  supportsImages?: boolean;
  headers?: Record<string, string>;
  /**
   * A client of the `@anthropic-ai/sdk` SDK of your own (`new Anthropic(...)`); the options above
   * that configure a client are then ignored.
   */
  client?: AnthropicClient;
}

/**
 * An `@anthropic-ai/sdk` client, as far as toolscore's types need to know it: the SDK is an
 * optional peer dependency, so toolscore's types do not refer to its own.
 */
export interface AnthropicClient {
  readonly messages: { create(...args: never[]): unknown };
}

function toAnthropicMessages(messages: readonly JudgeMessage[]): {
  system: string | undefined;
  messages: MessageParam[];
} {
  const system: string[] = [];
  const converted: MessageParam[] = [];
  messages.forEach((message, m) => {
    const text = (content: JudgeMessage["content"]) =>
      typeof content === "string"
        ? content
        : content.map((part) => (part.type === "text" ? part.text : "")).join("");
    if (message.role === "system") {
      system.push(text(message.content));
      return;
    }
    if (typeof message.content === "string" || message.role === "assistant") {
      converted.push({ role: message.role, content: text(message.content) });
      return;
    }
    const blocks: ContentBlockParam[] = message.content.map((part, p) => {
      if (part.type === "text") return { type: "text", text: part.text };
      const image = toProviderImage(part.source, `messages[${m}].content[${p}]`);
      return image.kind === "url"
        ? { type: "image", source: { type: "url", url: image.url } }
        : {
            type: "image",
            source: {
              type: "base64",
              data: image.data,
              media_type: image.mediaType as "image/png",
            },
          };
    });
    converted.push({ role: "user", content: blocks });
  });
  return { system: system.length > 0 ? system.join("\n\n") : undefined, messages: converted };
}

function toResponse(message: Message, mode: AnthropicStructuredOutput): JudgeResponse {
  const usage = {
    inputTokens:
      message.usage.input_tokens +
      (message.usage.cache_creation_input_tokens ?? 0) +
      (message.usage.cache_read_input_tokens ?? 0),
    outputTokens: message.usage.output_tokens,
  };
  const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  const call = message.content.find((block) => block.type === "tool_use");
  // The forced tool's input is the answer; a proxy that answers with a tool call anyway is read
  // the same way when there is no JSON text.
  const parsed = mode === "tool" ? undefined : parseJsonAnswer(text);
  if (call && parsed === undefined) {
    return {
      output: call.input as JudgeResponse["output"],
      text: JSON.stringify(call.input),
      usage,
      modelId: message.model,
    };
  }
  return {
    output: parsed as JudgeResponse["output"],
    text,
    usage,
    modelId: message.model,
  };
}

/** A judge on Anthropic's Messages API, through `@anthropic-ai/sdk`. */
export function createAnthropicJudge(options: AnthropicJudgeOptions): JudgeModel {
  const provider = "anthropic";
  const mode = options.structuredOutput ?? "json-schema";
  // The SDK loads on the first call, so that importing toolscore stays quick; a missing SDK or
  // key is still a configuration error now.
  const apiKey = options.apiKey ?? process.env.ANTHROPIC_API_KEY;
  const loadSdk = judgeSetup({
    provider,
    sdk: () =>
      sdkPackage("the anthropic judge", "@anthropic-ai/sdk", () => import("@anthropic-ai/sdk")),
    keyProblem:
      options.client === undefined && (apiKey === undefined || apiKey === "")
        ? "no API key; set ANTHROPIC_API_KEY or pass apiKey"
        : undefined,
  });
  const timeout = options.timeoutMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 3;
  const endpoint = options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com";
  const call = providerCalls({
    provider,
    secrets: [apiKey, ...Object.values(options.headers ?? {})],
    timeoutMs: timeout,
    maxRetries,
    ownClient: options.client !== undefined,
    endpoint,
  });
  let loaded: Promise<Anthropic> | undefined;
  const sdk = (): Promise<Anthropic> => {
    loaded ??= loadSdk().then(
      (module) =>
        // Typed loosely in the options (see AnthropicClient); it is the SDK's client.
        (options.client as Anthropic | undefined) ??
        new module.Anthropic({
          apiKey,
          ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
          timeout,
          maxRetries,
          fetch: boundedFetch({ provider, maxWaitMs: timeout }),
          ...(options.headers ? { defaultHeaders: options.headers } : {}),
        }),
    );
    return loaded;
  };

  const params = (request: JudgeRequest): MessageCreateParamsNonStreaming => {
    const { system, messages } = toAnthropicMessages(request.messages);
    const body: MessageCreateParamsNonStreaming = {
      model: options.model,
      max_tokens: request.maxOutputTokens ?? 1024,
      messages,
      // The Messages API no longer takes sampling parameters: the temperature is the model's.
    };
    if (system !== undefined) body.system = system;
    if (mode === "json-schema") {
      body.output_config = { format: { type: "json_schema", schema: request.schema.schema } };
    } else {
      body.tools = [
        {
          name: request.schema.name,
          description: request.schema.description ?? "Record the judgement.",
          input_schema: request.schema.schema as { type: "object" },
        },
      ];
      body.tool_choice = { type: "tool", name: request.schema.name };
    }
    return body;
  };

  const batch: JudgeBatchApi = {
    async submit(requests: readonly JudgeBatchRequest[], callOptions: JudgeCallOptions = {}) {
      return call(callOptions.signal, async (signal) => {
        const client = await sdk();
        const created = await client.messages.batches.create(
          {
            requests: requests.map((entry) => ({
              custom_id: entry.customId,
              params: params(entry.request),
            })),
          },
          { signal },
        );
        return created.id;
      });
    },

    async status(batchId: string, callOptions: JudgeCallOptions = {}): Promise<JudgeBatchStatus> {
      return call(callOptions.signal, async (signal) => {
        const client = await sdk();
        const current = await client.messages.batches.retrieve(batchId, undefined, {
          signal,
        });
        const counts = current.request_counts;
        return {
          id: batchId,
          state: current.processing_status === "ended" ? "ended" : "in_progress",
          counts: {
            total:
              counts.processing +
              counts.succeeded +
              counts.errored +
              counts.canceled +
              counts.expired,
            succeeded: counts.succeeded,
            failed: counts.errored + counts.canceled + counts.expired,
          },
        };
      });
    },

    async results(
      batchId: string,
      callOptions: JudgeCallOptions = {},
    ): Promise<JudgeBatchResult[]> {
      return call(callOptions.signal, async (signal) => {
        const results: JudgeBatchResult[] = [];
        const client = await sdk();
        const decoder = await client.messages.batches.results(batchId, undefined, {
          signal,
        });
        for await (const entry of decoder) {
          const result = entry.result;
          if (result.type === "succeeded") {
            results.push({
              customId: entry.custom_id,
              status: "succeeded",
              response: toResponse(result.message, mode),
            });
          } else if (result.type === "errored") {
            const type = result.error.error.type;
            results.push({
              customId: entry.custom_id,
              status: "failed",
              message: `${type}: ${result.error.error.message}`,
              retryable: [
                "rate_limit_error",
                "api_error",
                "overloaded_error",
                "timeout_error",
              ].includes(type),
            });
          } else {
            results.push({
              customId: entry.custom_id,
              status: "failed",
              message: `the request was ${result.type} before it ran`,
              retryable: true,
            });
          }
        }
        return results;
      });
    },
  };

  return {
    specificationVersion: "v1",
    provider,
    modelId: options.model,
    supportsImages: options.supportsImages ?? true,
    ...callTarget({
      client: options.client,
      endpoint,
      credentials: [apiKey],
      headers: options.headers,
    }),
    async generate(request: JudgeRequest, callOptions: JudgeCallOptions = {}) {
      const message: Message = await call(callOptions.signal, async (signal) => {
        const client = await sdk();
        return client.messages.create(params(request), { signal });
      });
      if (!Array.isArray(message.content)) {
        throw new ProviderCallError({
          provider,
          retryable: true,
          message: `${provider}: the model API answered without content`,
        });
      }
      return toResponse(message, mode);
    },
    batch,
  };
}
