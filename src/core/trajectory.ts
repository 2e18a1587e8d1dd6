import type { ToolSpec } from "./test-case.js";
import type { ToolCall } from "./tool-call.js";

/** The transcript formats toolscore reads, by id. */
export const trajectoryFormats = [
  "openai-chat",
  "openai-responses",
  "openai-agents",
  "anthropic",
  "gemini",
  "adk",
  "bedrock",
  "langchain",
  "ai-sdk",
  "mastra",
  "otel",
  "openinference",
  "mcp",
] as const;

export type TrajectoryFormat = (typeof trajectoryFormats)[number];

/** Tool calls the agent issued together (parallel calls in one message or one model response). */
export interface TrajectoryStep {
  readonly index: number;
  /** Indices into `Trajectory.calls`, in order. */
  readonly calls: readonly number[];
}

/** The part of a conversation that follows one user message. */
export interface TrajectoryTurn {
  readonly index: number;
  /** The user's text that opened the turn, when the transcript has one. */
  readonly input?: string;
  /** Indices into `Trajectory.steps`. */
  readonly steps: readonly number[];
  /** Indices into `Trajectory.calls`. */
  readonly calls: readonly number[];
  /** Indices into `Trajectory.replies`: the agent's text replies in this turn, when it gave any. */
  readonly replies?: readonly number[];
  /** The model tokens of this turn, when the transcript says. */
  readonly usage?: TokenUsage;
}

/** Model tokens: what the model read and what it wrote. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Every oddity a parser met, by kind. */
export type TrajectoryWarningCode =
  | "result-without-call"
  | "call-without-result"
  | "duplicate-call-id"
  | "duplicate-result"
  | "invalid-arguments"
  | "unknown-block"
  | "unknown-role"
  | "not-an-object"
  | "missing-name"
  | "denied-call"
  | "several-traces"
  | "invalid-usage";

/** Something odd in a transcript, and where: a JSON path into the input (`$[3].content[1]`). */
export interface TrajectoryWarning {
  readonly code: TrajectoryWarningCode;
  readonly message: string;
  readonly path: string;
}

/** A tool name as the transcript had it, and as toolscore compares it. */
export interface NameMapping {
  readonly original: string;
  readonly normalized: string;
}

/**
 * A transcript read into toolscore's model: the tool calls in the order the agent made them
 * (outputs joined to their calls), how they group into steps and turns, the tool definitions the
 * transcript carried, and every oddity met on the way.
 */
export interface Trajectory {
  readonly format: TrajectoryFormat;
  readonly calls: readonly ToolCall[];
  readonly steps: readonly TrajectoryStep[];
  readonly turns: readonly TrajectoryTurn[];
  readonly tools: readonly ToolSpec[];
  readonly warnings: readonly TrajectoryWarning[];
  /** The tool names that normalization changed; empty when it changed none. */
  readonly nameMapping: readonly NameMapping[];
  /**
   * The agent's text replies (assistant messages' text, reasoning left out), in order; absent
   * when it gave none, or the format does not carry them (spans, MCP).
   */
  readonly replies?: readonly string[];
  /**
   * The run's root span, when the transcript is one trace of spans (OpenTelemetry GenAI,
   * OpenInference, an OpenAI Agents SDK export): where the scores of the run belong.
   */
  readonly trace?: TraceContext;
  /**
   * The model tokens of the run, added up over the transcript's responses (OpenAI and Anthropic
   * `usage`, the AI SDK's steps, Gemini's `usageMetadata`, `gen_ai.usage.*` of spans); absent when
   * it carries none.
   */
  readonly usage?: TokenUsage;
  /** The models that answered, as the transcript names them, in order of first mention. */
  readonly models?: readonly string[];
  /**
   * How long the run took in milliseconds, when the transcript times it (a trace of spans: from
   * the first span's start to the last one's end); absent otherwise.
   */
  readonly durationMs?: number;
}

/** A span of a trace, by OpenTelemetry's ids (hex). */
export interface TraceContext {
  readonly traceId: string;
  readonly spanId: string;
}

/**
 * The turns that follow a user's message, in order: a leading turn without one that made no
 * calls (the agent's greeting) follows none.
 */
export function userTurnsOf<TTurn extends Pick<TrajectoryTurn, "input" | "calls">>(
  turns: readonly TTurn[],
): readonly TTurn[] {
  const first = turns.at(0);
  return first !== undefined && first.input === undefined && first.calls.length === 0
    ? turns.slice(1)
    : turns;
}
