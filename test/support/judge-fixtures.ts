/**
 * What the judge tests share: a verdict schema, requests built from it, and a loopback model
 * server started once per test file and reset before each test.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { JsonObject } from "../../src/core/json.js";
import type { JudgeContent, JudgeRequest, JudgeSchema } from "../../src/core/judge.js";
import { startLlmServer } from "./llm-server.mjs";
import type { LlmServer, LlmServerOptions } from "./llm-server.mjs";

/** `{ reason, score }` when `reason` is true, else `{ score }`: strict-mode JSON Schema. */
export function verdictSchema(withReason = true): JudgeSchema {
  const properties: JsonObject = withReason
    ? { reason: { type: "string" }, score: { type: "number" } }
    : { score: { type: "number" } };
  return {
    name: "verdict",
    schema: {
      type: "object",
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    },
  };
}

/** A request: an optional system message, then the user content. */
export function judgeRequest(
  user: JudgeContent,
  options: { system?: string; withReason?: boolean } = {},
): JudgeRequest {
  return {
    messages: [
      ...(options.system === undefined
        ? []
        : [{ role: "system" as const, content: options.system }]),
      { role: "user", content: user },
    ],
    schema: verdictSchema(options.withReason ?? true),
  };
}

/**
 * Starts a loopback model server for this test file; before each test it is reset and answers
 * with `answer` (default `{ reason: "fine", score: 1 }`).
 */
export function useLlmServer(
  options: LlmServerOptions & { answer?: LlmServerOptions["answer"] } = {},
): () => LlmServer {
  let server: LlmServer | undefined;
  beforeAll(async () => {
    server = await startLlmServer(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    if (!server) return;
    server.reset();
    server.latencyMs = options.latencyMs ?? 0;
    server.answer = options.answer ?? (() => ({ reason: "fine", score: 1 }));
  });
  return () => {
    if (!server) throw new Error("the loopback server starts in beforeAll");
    return server;
  };
}

/** A loopback port that was listening and is closed again: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) =>
    closed.close(() => {
      resolve();
    }),
  );
  return port;
}
