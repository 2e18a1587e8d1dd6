import type OpenAI from "openai";
import type * as OpenAIModule from "openai";
import type {
  ChatCompletion,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
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
import { isRetryableStatus, parseJsonAnswer } from "./provider-errors.js";
import { toProviderImage } from "./images.js";
import { sdkPackage } from "./sdk-packages.js";
import { sdkJudge } from "./sdk-judge.js";
import type { ClientCall } from "./sdk-judge.js";
import { newOpenAIClient } from "./openai-client.js";

/**
 * How the answer is held to the schema: the server's native JSON Schema mode (OpenAI, Azure,
 * recent Ollama and vLLM), JSON mode with the schema in the prompt, or the prompt alone.
 */
export type OpenAIStructuredOutput = "json-schema" | "json-object" | "prompt";

export interface OpenAIJudgeOptions {
  /** The model id at the server: `gpt-4.1`, `llama3.2`, an Azure deployment name. */
  model: string;
  /** The provider's name in results and cache keys. Default `"openai"`. */
  provider?: string;
  /** Default: `OPENAI_API_KEY`, read by the SDK. */
  apiKey?: string;
  /** An OpenAI-compatible server (`http://localhost:11434/v1` for Ollama). */
  baseURL?: string;
  organization?: string;
  project?: string;
  /** Azure OpenAI: the resource endpoint and API version; `model` is then the deployment. */
  azure?: { endpoint: string; apiVersion: string };
  /**
   * Each try's deadline in milliseconds, the read of its whole answer included. A call, with its
   * retries and the waits between them, ends within `timeoutMs × (maxRetries + 1)`. Default 60,000.
   */
  timeoutMs?: number;
  /** Retries of 408/409/429/5xx, resets and timeouts, by the SDK (backoff, jitter, Retry-After). Default 3. */
  maxRetries?: number;
  /** Default `"json-schema"`. */
  structuredOutput?: OpenAIStructuredOutput;
  /** Whether messages may carry images. Default true. */
  supportsImages?: boolean;
  /** Extra headers on every request (a gateway's key, say). */
  headers?: Record<string, string>;
  /**
   * A client of the `openai` SDK of your own (`new OpenAI(...)`, `new AzureOpenAI(...)`); the
   * options above that configure a client are then ignored.
   */
  client?: OpenAIClient;
}

/**
 * An `openai` SDK client, as far as toolscore's types need to know it: the SDK is an optional
 * peer dependency, so toolscore's types do not refer to its own.
 */
export interface OpenAIClient {
  readonly chat: { readonly completions: { create(...args: never[]): unknown } };
}

/** An environment variable; providers are where configuration enters. */
function env(name: string): string | undefined {
  return process.env[name];
}

// Reasoning models take no temperature but the default.
const fixedTemperature = /^(o\d|gpt-5)/i;

function schemaInstruction(request: JudgeRequest): string {
  return `Answer with one JSON object that fits this JSON Schema, and nothing else:\n${JSON.stringify(request.schema.schema)}`;
}

function toOpenAIMessages(
  messages: readonly JudgeMessage[],
  extraSystem: string | undefined,
): ChatCompletionMessageParam[] {
  const converted: ChatCompletionMessageParam[] = messages.map((message, m) => {
    if (typeof message.content === "string") {
      return { role: message.role, content: message.content };
    }
    if (message.role !== "user") {
      const text = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      return { role: message.role, content: text };
    }
    const parts: ChatCompletionContentPart[] = message.content.map((part, p) => {
      if (part.type === "text") return { type: "text", text: part.text };
      const image = toProviderImage(part.source, `messages[${m}].content[${p}]`);
      const url = image.kind === "url" ? image.url : `data:${image.mediaType};base64,${image.data}`;
      return { type: "image_url", image_url: { url } };
    });
    return { role: "user", content: parts };
  });
  if (extraSystem !== undefined) converted.unshift({ role: "system", content: extraSystem });
  return converted;
}

function usageOf(completion: ChatCompletion): JudgeResponse["usage"] {
  // Some compatible servers leave usage out.
  const usage = completion.usage;
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
  };
}

function toResponse(completion: ChatCompletion): JudgeResponse {
  const message = completion.choices.at(0)?.message;
  const text = message?.content ?? message?.refusal ?? "";
  const output = message?.content == null ? undefined : parseJsonAnswer(message.content);
  return {
    output: output as JudgeResponse["output"],
    text,
    usage: usageOf(completion),
    modelId: completion.model,
  };
}

/** A judge on an OpenAI or OpenAI-compatible chat completions API, through the `openai` SDK. */
export function createOpenAIJudge(options: OpenAIJudgeOptions): JudgeModel {
  const provider = options.provider ?? (options.azure ? "azure" : "openai");
  const keyVariable = options.azure ? "AZURE_OPENAI_API_KEY" : "OPENAI_API_KEY";
  const apiKey = options.apiKey ?? env(keyVariable);
  const body = requestBody(options, provider);
  return sdkJudge<typeof OpenAIModule, Sdk, ChatCompletion>({
    provider,
    model: options.model,
    apiKey,
    keyVariable,
    options,
    endpoint:
      options.azure?.endpoint ??
      options.baseURL ??
      env("OPENAI_BASE_URL") ??
      "https://api.openai.com/v1",
    credentials: [apiKey, options.organization, options.project],
    sdk: () => sdkPackage(`the ${provider} judge`, "openai", () => import("openai")),
    newClient: (module, settings) => ({
      client: newOpenAIClient(module, options, apiKey, settings),
      toFile: module.toFile,
    }),
    // Typed loosely in the options (see OpenAIClient); it is the SDK's client.
    ownClient: (module, client) => ({ client: client as OpenAI, toFile: module.toFile }),
    create: ({ client }, request, signal) =>
      client.chat.completions.create(body(request), { signal }),
    read: (completion) => (Array.isArray(completion.choices) ? toResponse(completion) : "choices"),
    // OpenAI's Batch API; compatible servers (Ollama, vLLM, ...) have none.
    ...(provider === "openai" ? { batch: (call: ClientCall<Sdk>) => batchApi(call, body) } : {}),
  });
}

interface Sdk {
  readonly client: OpenAI;
  readonly toFile: typeof OpenAIModule.toFile;
}

function requestBody(
  options: OpenAIJudgeOptions,
  provider: string,
): (request: JudgeRequest) => ChatCompletionCreateParamsNonStreaming {
  const structured = options.structuredOutput ?? "json-schema";
  return (request) => {
    const instruction = structured === "json-schema" ? undefined : schemaInstruction(request);
    const params: ChatCompletionCreateParamsNonStreaming = {
      model: options.model,
      messages: toOpenAIMessages(request.messages, instruction),
    };
    if (!fixedTemperature.test(options.model)) params.temperature = request.temperature ?? 0;
    const maxTokens = request.maxOutputTokens ?? 1024;
    // OpenAI's own API wants max_completion_tokens; compatible servers know max_tokens.
    if (provider === "openai" || provider === "azure") params.max_completion_tokens = maxTokens;
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the one compatible servers know
    else params.max_tokens = maxTokens;
    if (structured === "json-schema") {
      params.response_format = {
        type: "json_schema",
        json_schema: {
          name: request.schema.name,
          schema: request.schema.schema,
          strict: true,
          ...(request.schema.description === undefined
            ? {}
            : { description: request.schema.description }),
        },
      };
    } else if (structured === "json-object") {
      params.response_format = { type: "json_object" };
    }
    return params;
  };
}

function batchApi(
  call: ClientCall<Sdk>,
  body: (request: JudgeRequest) => ChatCompletionCreateParamsNonStreaming,
): JudgeBatchApi {
  return {
    async submit(requests: readonly JudgeBatchRequest[], callOptions: JudgeCallOptions = {}) {
      const lines = requests.map((entry) =>
        JSON.stringify({
          custom_id: entry.customId,
          method: "POST",
          url: "/v1/chat/completions",
          body: body(entry.request),
        }),
      );
      return call(callOptions.signal, async ({ client, toFile }, signal) => {
        const file = await client.files.create(
          {
            file: await toFile(Buffer.from(`${lines.join("\n")}\n`), "toolscore-batch.jsonl"),
            purpose: "batch",
          },
          { signal },
        );
        const created = await client.batches.create(
          {
            input_file_id: file.id,
            endpoint: "/v1/chat/completions",
            completion_window: "24h",
            metadata: { source: "toolscore" },
          },
          { signal },
        );
        return created.id;
      });
    },

    async status(batchId: string, callOptions: JudgeCallOptions = {}): Promise<JudgeBatchStatus> {
      return call(callOptions.signal, async ({ client }, signal) => {
        const current = await client.batches.retrieve(batchId, { signal });
        const counts = {
          total: current.request_counts?.total ?? 0,
          succeeded: current.request_counts?.completed ?? 0,
          failed: current.request_counts?.failed ?? 0,
        };
        switch (current.status) {
          case "completed":
          case "expired":
          case "cancelled":
            // Results are readable; what did not run is reported per request.
            return { id: batchId, state: "ended", counts };
          case "failed":
            return {
              id: batchId,
              state: "failed",
              counts,
              message: current.errors?.data?.map((e) => e.message).join("; ") || "the batch failed",
            };
          default:
            return { id: batchId, state: "in_progress", counts };
        }
      });
    },

    async results(
      batchId: string,
      callOptions: JudgeCallOptions = {},
    ): Promise<JudgeBatchResult[]> {
      return call(callOptions.signal, async ({ client }, signal) => {
        const current = await client.batches.retrieve(batchId, { signal });
        const results: JudgeBatchResult[] = [];
        for (const fileId of [current.output_file_id, current.error_file_id]) {
          if (fileId == null) continue;
          const text = await (await client.files.content(fileId, { signal })).text();
          for (const line of text.split("\n")) {
            if (line.trim() === "") continue;
            results.push(readBatchLine(JSON.parse(line) as BatchLine));
          }
        }
        return results;
      });
    },
  };
}

interface BatchLine {
  custom_id: string;
  response?: { status_code: number; body: unknown } | null;
  error?: { code?: string; message?: string } | null;
}

function readBatchLine(line: BatchLine): JudgeBatchResult {
  const response = line.response;
  if (response && response.status_code === 200) {
    return {
      customId: line.custom_id,
      status: "succeeded",
      response: toResponse(response.body as ChatCompletion),
    };
  }
  const status = response?.status_code;
  const bodyError = (response?.body as { error?: { message?: string } } | undefined)?.error;
  const message = bodyError?.message ?? line.error?.message ?? "the request failed in the batch";
  return {
    customId: line.custom_id,
    status: "failed",
    message: status === undefined ? message : `${status}: ${message}`,
    retryable: isRetryableStatus(status),
  };
}
