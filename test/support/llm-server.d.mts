/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies of two providers, read freely by tests */
/** Types of llm-server.mjs: a loopback OpenAI- and Anthropic-compatible server for tests. */

export type Provider = "openai" | "anthropic";

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The JSON body, when there was one. */
  readonly body: any;
  readonly provider: Provider;
}

export interface AnswerContext {
  readonly provider: Provider;
  readonly body: any;
  /** Every text part of the request's messages (and Anthropic's system prompt), joined. */
  readonly prompt: string;
  /** The JSON Schema the answer was asked to fit, if any. */
  readonly schema: unknown;
  /** The images sent: URLs or data URIs. */
  readonly images: readonly string[];
}

export type Fault =
  | { kind: "status"; status: number; retryAfter?: number; retryAfterMs?: number; message?: string }
  | { kind: "reset" }
  | { kind: "timeout"; ms?: number }
  | { kind: "truncated" }
  | { kind: "invalid-json" }
  | { kind: "answer"; output: unknown };

export interface BatchFailure {
  kind?: "expired";
  status?: number;
  message?: string;
}

export interface LlmServerOptions {
  latencyMs?: number;
  batchPolls?: number;
  answer?: (context: AnswerContext) => unknown;
  batchFailures?: (customId: string) => BatchFailure | undefined;
}

export interface LlmServer {
  readonly url: string;
  readonly openaiBaseURL: string;
  readonly anthropicBaseURL: string;
  readonly requests: readonly RecordedRequest[];
  readonly modelCalls: readonly RecordedRequest[];
  readonly maxInFlight: number;
  latencyMs: number;
  answer: (context: AnswerContext) => unknown;
  batchFailures: (customId: string) => BatchFailure | undefined;
  batchPolls: number;
  fail(...faults: Fault[]): void;
  failBatch(id: string): void;
  reset(): void;
  close(): Promise<void>;
}

export function startLlmServer(options?: LlmServerOptions): Promise<LlmServer>;
