/**
 * A loopback HTTP server that speaks enough of the OpenAI and Anthropic wire protocols for
 * toolscore's judges: chat completions and messages (structured output), files and batches
 * (both providers), with every request recorded and faults on demand. Tests and the benchmark
 * start it on an ephemeral port and point the official SDKs at it by base URL.
 *
 * Plain JavaScript so that both the TypeScript tests and `bench/run.mjs` (which runs on dist/)
 * can use it; types are in llm-server.d.mts.
 */
import { createServer } from "node:http";

const tokens = (text) => Math.max(1, Math.ceil(text.length / 4));

/** The text of a request's messages, flattened (what a judge would read). */
function promptText(provider, body) {
  const parts = [];
  const add = (content) => {
    if (typeof content === "string") parts.push(content);
    else if (Array.isArray(content))
      for (const part of content) if (typeof part.text === "string") parts.push(part.text);
  };
  if (provider === "anthropic") {
    if (typeof body.system === "string") parts.push(body.system);
    else add(body.system);
  }
  for (const message of body.messages ?? []) add(message.content);
  return parts.join("\n");
}

function images(provider, body) {
  const found = [];
  for (const message of body.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (provider === "openai" && part.type === "image_url") found.push(part.image_url.url);
      if (provider === "anthropic" && part.type === "image") {
        found.push(
          part.source.type === "url"
            ? part.source.url
            : `data:${part.source.media_type};base64,${part.source.data}`,
        );
      }
    }
  }
  return found;
}

function schemaOf(provider, body) {
  if (provider === "openai") return body.response_format?.json_schema?.schema;
  if (body.output_config?.format?.schema) return body.output_config.format.schema;
  const forced = body.tools?.find((tool) => tool.name === body.tool_choice?.name);
  return forced?.input_schema;
}

function chatCompletion(body, text, prompt) {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2, 10)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: text, refusal: null },
        finish_reason: "stop",
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: tokens(prompt),
      completion_tokens: tokens(text),
      total_tokens: tokens(prompt) + tokens(text),
    },
  };
}

function anthropicMessage(body, text, prompt) {
  const forced = body.tool_choice?.type === "tool" ? body.tool_choice.name : undefined;
  let content = [{ type: "text", text }];
  if (forced !== undefined) {
    let input;
    try {
      input = JSON.parse(text);
    } catch {
      input = { text };
    }
    content = [{ type: "tool_use", id: `toolu_${Date.now()}`, name: forced, input }];
  }
  return {
    id: `msg_${Math.random().toString(36).slice(2, 10)}`,
    type: "message",
    role: "assistant",
    model: body.model,
    content,
    stop_reason: forced === undefined ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: { input_tokens: tokens(prompt), output_tokens: tokens(text) },
  };
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/** The `file` part of a multipart/form-data body, and its other fields. */
function parseMultipart(buffer, contentType) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return { fields: {}, file: undefined };
  const marker = `--${boundary[1] ?? boundary[2]}`;
  const text = buffer.toString("utf8");
  const fields = {};
  let file;
  for (const chunk of text.split(marker)) {
    const split = chunk.indexOf("\r\n\r\n");
    if (split < 0) continue;
    const head = chunk.slice(0, split);
    const value = chunk.slice(split + 4).replace(/\r\n$/, "");
    const name = /name="([^"]+)"/.exec(head)?.[1];
    if (!name) continue;
    if (/filename="/.test(head))
      file = { filename: /filename="([^"]*)"/.exec(head)[1], text: value };
    else fields[name] = value;
  }
  return { fields, file };
}

function sendJson(response, status, value, headers = {}) {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    ...headers,
  });
  response.end(body);
}

function providerError(provider, status, message) {
  if (provider === "anthropic") {
    const type =
      status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error";
    return { type: "error", error: { type, message } };
  }
  return {
    error: {
      message,
      type: status === 429 ? "rate_limit_exceeded" : "server_error",
      param: null,
      code: null,
    },
  };
}

/**
 * Starts the server. `options.latencyMs` delays every model answer; `options.batchPolls` is how
 * many status checks a batch takes to finish (default 2).
 */
export async function startLlmServer(options = {}) {
  const state = {
    latencyMs: options.latencyMs ?? 0,
    batchPolls: options.batchPolls ?? 2,
    requests: [],
    inFlight: 0,
    maxInFlight: 0,
    faults: [],
    answer: options.answer ?? (() => ({ reason: "The calls fit the request.", score: 1 })),
    batchFailures: options.batchFailures ?? (() => undefined),
    files: new Map(),
    batches: new Map(),
    counter: 0,
  };
  const sockets = new Set();

  /** The model's answer text for one request, after faults of kind `answer` / `invalid-json`. */
  const answerText = (provider, body, fault) => {
    if (fault?.kind === "invalid-json") return "Sure! The score is high.";
    const prompt = promptText(provider, body);
    const value =
      fault?.kind === "answer"
        ? fault.output
        : state.answer({
            provider,
            body,
            prompt,
            schema: schemaOf(provider, body),
            images: images(provider, body),
          });
    return typeof value === "string" ? value : JSON.stringify(value);
  };

  const modelResponse = (provider, body, fault) => {
    const text = answerText(provider, body, fault);
    const prompt = promptText(provider, body);
    return provider === "openai"
      ? chatCompletion(body, text, prompt)
      : anthropicMessage(body, text, prompt);
  };

  const nextId = (prefix) => `${prefix}_${String(++state.counter).padStart(6, "0")}`;

  const openaiBatchView = (batch) => ({
    id: batch.id,
    object: "batch",
    endpoint: batch.endpoint,
    errors: null,
    input_file_id: batch.inputFileId,
    completion_window: "24h",
    status: batch.status,
    output_file_id: batch.outputFileId ?? null,
    error_file_id: batch.errorFileId ?? null,
    created_at: batch.createdAt,
    request_counts: batch.counts,
    metadata: batch.metadata ?? null,
  });

  const anthropicBatchView = (batch, origin) => ({
    id: batch.id,
    type: "message_batch",
    processing_status: batch.status,
    request_counts: batch.counts,
    ended_at: batch.status === "ended" ? new Date().toISOString() : null,
    created_at: new Date(batch.createdAt * 1000).toISOString(),
    expires_at: new Date(batch.createdAt * 1000 + 86_400_000).toISOString(),
    archived_at: null,
    cancel_initiated_at: null,
    results_url:
      batch.status === "ended" ? `${origin}/v1/messages/batches/${batch.id}/results` : null,
  });

  /** Runs every request of a batch through the answerer; some fail on request. */
  const completeOpenaiBatch = (batch) => {
    const output = [];
    const errors = [];
    for (const line of batch.lines) {
      const failure = state.batchFailures(line.custom_id);
      if (failure) {
        errors.push({
          id: nextId("batch_req"),
          custom_id: line.custom_id,
          response: {
            status_code: failure.status ?? 500,
            request_id: nextId("req"),
            body: providerError("openai", failure.status ?? 500, failure.message ?? "failed"),
          },
          error: null,
        });
        continue;
      }
      output.push({
        id: nextId("batch_req"),
        custom_id: line.custom_id,
        response: {
          status_code: 200,
          request_id: nextId("req"),
          body: modelResponse("openai", line.body),
        },
        error: null,
      });
    }
    batch.outputFileId = nextId("file");
    state.files.set(
      batch.outputFileId,
      output.map((line) => JSON.stringify(line)).join("\n") + "\n",
    );
    if (errors.length > 0) {
      batch.errorFileId = nextId("file");
      state.files.set(
        batch.errorFileId,
        errors.map((line) => JSON.stringify(line)).join("\n") + "\n",
      );
    }
    batch.counts = { total: batch.lines.length, completed: output.length, failed: errors.length };
  };

  const completeAnthropicBatch = (batch) => {
    batch.results = batch.requests.map((entry) => {
      const failure = state.batchFailures(entry.custom_id);
      if (failure?.kind === "expired")
        return { custom_id: entry.custom_id, result: { type: "expired" } };
      if (failure) {
        return {
          custom_id: entry.custom_id,
          result: {
            type: "errored",
            error: providerError("anthropic", failure.status ?? 500, failure.message ?? "failed"),
          },
        };
      }
      return {
        custom_id: entry.custom_id,
        result: { type: "succeeded", message: modelResponse("anthropic", entry.params) },
      };
    });
    const count = (type) => batch.results.filter((r) => r.result.type === type).length;
    batch.counts = {
      processing: 0,
      succeeded: count("succeeded"),
      errored: count("errored"),
      canceled: 0,
      expired: count("expired"),
    };
  };

  const handle = async (request, response) => {
    const url = new URL(request.url, `http://${request.headers.host}`);
    const origin = `http://${request.headers.host}`;
    const raw = await readBody(request);
    const contentType = request.headers["content-type"] ?? "";
    let body;
    if (contentType.includes("application/json") && raw.length > 0)
      body = JSON.parse(raw.toString("utf8"));
    const path = url.pathname;
    const provider = path.startsWith("/v1/messages") ? "anthropic" : "openai";
    const record = { method: request.method, path, headers: request.headers, body, provider };
    state.requests.push(record);

    const isModelCall =
      request.method === "POST" && (path === "/v1/chat/completions" || path === "/v1/messages");
    const fault = isModelCall ? state.faults.shift() : undefined;
    if (fault?.kind === "reset") {
      request.socket.destroy();
      return;
    }
    if (fault?.kind === "status") {
      const headers = {};
      if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
      if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
      sendJson(
        response,
        fault.status,
        providerError(provider, fault.status, fault.message ?? `injected ${fault.status}`),
        headers,
      );
      return;
    }

    if (isModelCall) {
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      try {
        const delay = fault?.kind === "timeout" ? (fault.ms ?? 60_000) : state.latencyMs;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        if (response.destroyed || request.socket.destroyed) return;
        const payload = modelResponse(provider, body, fault);
        if (fault?.kind === "truncated") {
          const text = JSON.stringify(payload);
          response.writeHead(200, {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(text),
          });
          response.write(text.slice(0, Math.floor(text.length / 2)));
          request.socket.destroy();
          return;
        }
        sendJson(response, 200, payload);
      } finally {
        state.inFlight--;
      }
      return;
    }

    // OpenAI files and batches.
    if (request.method === "POST" && path === "/v1/files") {
      const { fields, file } = parseMultipart(raw, contentType);
      const id = nextId("file");
      state.files.set(id, file?.text ?? "");
      sendJson(response, 200, {
        id,
        object: "file",
        bytes: Buffer.byteLength(file?.text ?? ""),
        created_at: Math.floor(Date.now() / 1000),
        filename: file?.filename ?? "upload.jsonl",
        purpose: fields.purpose ?? "batch",
        status: "processed",
      });
      return;
    }
    const fileContent = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (request.method === "GET" && fileContent) {
      const text = state.files.get(fileContent[1]);
      if (text === undefined)
        return sendJson(response, 404, providerError("openai", 404, "no such file"));
      response.writeHead(200, { "content-type": "application/jsonl" });
      response.end(text);
      return;
    }
    if (request.method === "POST" && path === "/v1/batches") {
      const input = state.files.get(body.input_file_id);
      if (input === undefined)
        return sendJson(response, 400, providerError("openai", 400, "unknown input file"));
      const lines = input
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line));
      const batch = {
        id: nextId("batch"),
        endpoint: body.endpoint,
        inputFileId: body.input_file_id,
        status: "validating",
        createdAt: Math.floor(Date.now() / 1000),
        counts: { total: lines.length, completed: 0, failed: 0 },
        metadata: body.metadata,
        lines,
        polls: 0,
      };
      state.batches.set(batch.id, batch);
      sendJson(response, 200, openaiBatchView(batch));
      return;
    }
    const openaiBatch = /^\/v1\/batches\/([^/]+)$/.exec(path);
    if (request.method === "GET" && openaiBatch) {
      const batch = state.batches.get(openaiBatch[1]);
      if (!batch) return sendJson(response, 404, providerError("openai", 404, "no such batch"));
      batch.polls++;
      if (batch.failWith) {
        batch.status = "failed";
      } else if (batch.polls >= state.batchPolls && batch.status !== "completed") {
        completeOpenaiBatch(batch);
        batch.status = "completed";
      } else if (batch.status !== "completed") {
        batch.status = batch.polls === 1 ? "in_progress" : "finalizing";
      }
      sendJson(response, 200, openaiBatchView(batch));
      return;
    }

    // Anthropic message batches.
    if (request.method === "POST" && path === "/v1/messages/batches") {
      const batch = {
        id: nextId("msgbatch"),
        status: "in_progress",
        createdAt: Math.floor(Date.now() / 1000),
        requests: body.requests,
        counts: {
          processing: body.requests.length,
          succeeded: 0,
          errored: 0,
          canceled: 0,
          expired: 0,
        },
        polls: 0,
      };
      state.batches.set(batch.id, batch);
      sendJson(response, 200, anthropicBatchView(batch, origin));
      return;
    }
    const anthropicResults = /^\/v1\/messages\/batches\/([^/]+)\/results$/.exec(path);
    if (request.method === "GET" && anthropicResults) {
      const batch = state.batches.get(anthropicResults[1]);
      if (!batch?.results)
        return sendJson(response, 404, providerError("anthropic", 404, "no results yet"));
      response.writeHead(200, { "content-type": "application/binary" });
      response.end(batch.results.map((line) => JSON.stringify(line)).join("\n") + "\n");
      return;
    }
    const anthropicBatch = /^\/v1\/messages\/batches\/([^/]+)$/.exec(path);
    if (request.method === "GET" && anthropicBatch) {
      const batch = state.batches.get(anthropicBatch[1]);
      if (!batch) return sendJson(response, 404, providerError("anthropic", 404, "no such batch"));
      batch.polls++;
      if (batch.polls >= state.batchPolls && batch.status !== "ended") {
        completeAnthropicBatch(batch);
        batch.status = "ended";
      }
      sendJson(response, 200, anthropicBatchView(batch, origin));
      return;
    }

    sendJson(response, 404, providerError(provider, 404, `no route for ${request.method} ${path}`));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent)
        sendJson(response, 500, providerError("openai", 500, String(error)));
      else response.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    /** Base URL for the OpenAI SDK (`…/v1`). */
    openaiBaseURL: `${url}/v1`,
    /** Base URL for the Anthropic SDK (it appends `/v1/...` itself). */
    anthropicBaseURL: url,
    get requests() {
      return state.requests;
    },
    /** Model calls only (chat completions and messages). */
    get modelCalls() {
      return state.requests.filter(
        (r) =>
          r.method === "POST" && (r.path === "/v1/chat/completions" || r.path === "/v1/messages"),
      );
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    set latencyMs(value) {
      state.latencyMs = value;
    },
    set answer(fn) {
      state.answer = fn;
    },
    set batchFailures(fn) {
      state.batchFailures = fn;
    },
    set batchPolls(value) {
      state.batchPolls = value;
    },
    /** Queues faults for the next model calls, one each, in order. */
    fail(...faults) {
      state.faults.push(...faults);
    },
    /** Makes a batch fail as a whole at its next status check. */
    failBatch(id) {
      const batch = state.batches.get(id);
      if (batch) batch.failWith = "failed";
    },
    reset() {
      state.requests.length = 0;
      state.faults.length = 0;
      state.maxInFlight = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
