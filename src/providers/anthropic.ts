import type Anthropic from "@anthropic-ai/sdk";
import type * as AnthropicModule from "@anthropic-ai/sdk";
import type { MessageBatchResult } from "@anthropic-ai/sdk/resources/messages/batches";
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
} from "@anthropic-ai/sdk/resources/messages/messages";
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
import { parseJsonAnswer } from "./provider-errors.js";
import { sdkPackage } from "./sdk-packages.js";
import { sdkJudge } from "./sdk-judge.js";
import type { ClientCall } from "./sdk-judge.js";

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
  const mode = options.structuredOutput ?? "json-schema";
  const apiKey = options.apiKey ?? process.env.ANTHROPIC_API_KEY;
  const params = requestParams(options.model, mode);
  return sdkJudge<typeof AnthropicModule, Anthropic, Message>({
    provider: "anthropic",
    model: options.model,
    apiKey,
    keyVariable: "ANTHROPIC_API_KEY",
    options,
    endpoint: options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com",
    credentials: [apiKey],
    sdk: () =>
      sdkPackage("the anthropic judge", "@anthropic-ai/sdk", () => import("@anthropic-ai/sdk")),
    newClient: (module, settings) =>
      new module.Anthropic({
        apiKey,
        ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
        ...settings,
      }),
    // Typed loosely in the options (see AnthropicClient); it is the SDK's client.
    ownClient: (_module, client) => client as Anthropic,
    create: (client, request, signal) => client.messages.create(params(request), { signal }),
    read: (message) => (Array.isArray(message.content) ? toResponse(message, mode) : "content"),
    batch: (call) => batchApi(call, params, mode),
  });
}

function requestParams(
  model: string,
  mode: AnthropicStructuredOutput,
): (request: JudgeRequest) => MessageCreateParamsNonStreaming {
  return (request) => {
    const { system, messages } = toAnthropicMessages(request.messages);
    const body: MessageCreateParamsNonStreaming = {
      model,
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
}

function batchApi(
  call: ClientCall<Anthropic>,
  params: (request: JudgeRequest) => MessageCreateParamsNonStreaming,
  mode: AnthropicStructuredOutput,
): JudgeBatchApi {
  return {
    async submit(requests: readonly JudgeBatchRequest[], callOptions: JudgeCallOptions = {}) {
      return call(callOptions.signal, async (client, signal) => {
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
      return call(callOptions.signal, async (client, signal) => {
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
      return call(callOptions.signal, async (client, signal) => {
        const results: JudgeBatchResult[] = [];
        const decoder = await client.messages.batches.results(batchId, undefined, {
          signal,
        });
        for await (const entry of decoder) {
          results.push(readBatchEntry(entry.custom_id, entry.result, mode));
        }
        return results;
      });
    },
  };
}

function readBatchEntry(
  customId: string,
  result: MessageBatchResult,
  mode: AnthropicStructuredOutput,
): JudgeBatchResult {
  if (result.type === "succeeded") {
    return { customId, status: "succeeded", response: toResponse(result.message, mode) };
  }
  if (result.type === "errored") {
    const type = result.error.error.type;
    return {
      customId,
      status: "failed",
      message: `${type}: ${result.error.error.message}`,
      retryable: ["rate_limit_error", "api_error", "overloaded_error", "timeout_error"].includes(
        type,
      ),
    };
  }
  return {
    customId,
    status: "failed",
    message: `the request was ${result.type} before it ran`,
    retryable: true,
  };
}
