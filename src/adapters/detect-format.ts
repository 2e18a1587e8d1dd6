import type { TrajectoryFormat } from "../core/trajectory.js";
import { asArray, asRecord, asString } from "./read.js";
import { isAgentsTraceRecord } from "./openai-agents.js";
import { isAdkEvent, isAdkInvocation } from "./adk.js";
import { isMastraSpan } from "./mastra.js";
import type { Record_ } from "./read.js";

/** What `detectFormat` concluded, and why; `format` is undefined when it could not tell. */
export type FormatDetection =
  | { readonly format: TrajectoryFormat; readonly evidence: string }
  | { readonly format: undefined; readonly reason: string };

const responsesItemTypes: ReadonlySet<string> = new Set([
  "function_call",
  "function_call_output",
  "reasoning",
  "custom_tool_call",
  "custom_tool_call_output",
  "mcp_call",
  "mcp_list_tools",
  "mcp_approval_request",
  "mcp_approval_response",
  "item_reference",
]);
const responsesTextParts: ReadonlySet<string> = new Set([
  "input_text",
  "output_text",
  "refusal",
  "input_image",
  "input_file",
]);
const langchainTypes: ReadonlySet<string> = new Set([
  "human",
  "ai",
  "tool",
  "system",
  "chat",
  "function",
  "HumanMessage",
  "AIMessage",
  "AIMessageChunk",
  "ToolMessage",
  "SystemMessage",
]);
const anthropicBlocks: ReadonlySet<string> = new Set([
  "tool_use",
  "tool_result",
  "server_tool_use",
  "mcp_tool_use",
  "mcp_tool_result",
  "thinking",
  "redacted_thinking",
]);
const aiSdkParts: ReadonlySet<string> = new Set([
  "tool-call",
  "tool-result",
  "tool-error",
  "tool-approval-request",
  "tool-approval-response",
]);
const bedrockBlockKeys: ReadonlySet<string> = new Set([
  "toolUse",
  "toolResult",
  "reasoningContent",
  "cachePoint",
  "guardContent",
]);
const geminiPartKeys = [
  "functionCall",
  "functionResponse",
  "function_call",
  "function_response",
  "executableCode",
  "codeExecutionResult",
  "inlineData",
  "fileData",
];

/** Items only the OpenAI Agents SDK writes: its results and hosted calls, and its run items. */
const agentsItemTypes: ReadonlySet<string> = new Set([
  "function_call_result",
  "hosted_tool_call",
  "computer_call_result",
  "program",
  "program_output",
]);

/** Whether an item is the Agents SDK's: its own item types, `callId`, or a run item. */
function isAgentsItem(message: Record_, type: string | undefined): boolean {
  if (type === undefined) return false;
  if (agentsItemTypes.has(type)) return true;
  if (type.endsWith("_item") && asRecord(message.rawItem) !== undefined) return true;
  return (type === "function_call" || type.endsWith("_call")) && typeof message.callId === "string";
}

/** The format one message or item points to, if it says anything distinctive. */
function voteOf(message: Record_): TrajectoryFormat | undefined {
  if (isAgentsItem(message, asString(message.type))) return "openai-agents";
  const stored = asRecord(message.content);
  if (stored !== undefined && (stored.format === 2 || stored.format === 3) && asArray(stored.parts))
    return "mastra";
  if (message.jsonrpc !== undefined || asRecord(message.message)?.jsonrpc !== undefined)
    return "mcp";
  if (message.lc !== undefined && message.type === "constructor") return "langchain";
  const type = asString(message.type);
  if (type !== undefined) {
    if (responsesItemTypes.has(type) || type.endsWith("_call") || type.endsWith("_call_output"))
      return "openai-responses";
    const content = asArray(message.content);
    if (
      type === "message" &&
      content?.some((part) => responsesTextParts.has(String(asRecord(part)?.type)))
    ) {
      return "openai-responses";
    }
    if (langchainTypes.has(type) && message.role === undefined) return "langchain";
  }
  if (asArray(message.toolInvocations)) return "ai-sdk";
  const parts = asArray(message.parts);
  if (parts) {
    for (const part of parts) {
      const record = asRecord(part);
      if (!record) continue;
      if (geminiPartKeys.some((key) => key in record)) return "gemini";
      const partType = asString(record.type);
      if (
        partType !== undefined &&
        (partType.startsWith("tool-") || partType === "dynamic-tool" || partType === "step-start")
      ) {
        return "ai-sdk";
      }
    }
    if (message.role === "model") return "gemini";
    if (parts.some((part) => asRecord(part)?.type !== undefined)) return "ai-sdk";
    return "gemini";
  }
  if (message.role === "model") return "gemini";
  const content = asArray(message.content);
  if (content) {
    for (const block of content) {
      const record = asRecord(block);
      if (!record) continue;
      const blockType = asString(record.type);
      if (blockType !== undefined) {
        if (anthropicBlocks.has(blockType) || blockType.endsWith("_tool_result"))
          return "anthropic";
        if (aiSdkParts.has(blockType)) return "ai-sdk";
      } else if (Object.keys(record).some((key) => bedrockBlockKeys.has(key))) {
        return "bedrock";
      }
    }
  }
  const toolCalls = asArray(message.tool_calls);
  if (toolCalls && toolCalls.length > 0) {
    const first = asRecord(toolCalls[0]);
    if (first && ("function" in first || "custom" in first)) return "openai-chat";
    if (first && ("args" in first || "name" in first)) return "langchain";
  }
  if (message.function_call !== undefined) return "openai-chat";
  // A `tool` message with a tool_call_id is OpenAI's and LangGraph's alike: the assistant
  // messages' tool_calls tell the two apart, so it casts no vote.
  if (message.role === "function") return "openai-chat";
  if (message.role === undefined && (asArray(message.toolCalls) || asArray(message.toolResults)))
    return "ai-sdk";
  return undefined;
}

/**
 * The most common vote over a list of messages; plain role/content chat reads as OpenAI chat.
 * Without `explain`, the evidence is left empty (parsing needs only the format).
 */
function voteOver(items: readonly unknown[], where: string, explain: boolean): FormatDetection {
  const votes = new Map<TrajectoryFormat, number>();
  let counted = 0;
  for (const item of items) {
    const record = asRecord(item);
    const vote = record && voteOf(record);
    if (vote) {
      votes.set(vote, (votes.get(vote) ?? 0) + 1);
      // A few thousand votes settle it; reading on would only cost time on huge transcripts.
      if (++counted >= 2000) break;
    }
  }
  let best: [TrajectoryFormat, number] | undefined;
  for (const entry of votes) if (!best || entry[1] > best[1]) best = entry;
  // The Agents SDK's items are Responses items with its own beside them: any of its own decides.
  const agents = votes.get("openai-agents");
  if (agents !== undefined) best = ["openai-agents", agents];
  if (best && !explain) return { format: best[0], evidence: "" };
  if (best) {
    const others = [...votes]
      .filter(([format]) => format !== best[0])
      .map(([format, n]) => `${format} (${n})`);
    return {
      format: best[0],
      evidence: `${best[1]} ${where} look like ${best[0]}${others.length > 0 ? `; fewer look like ${others.join(", ")}` : ""}`,
    };
  }
  const plain =
    items.length > 0 &&
    items.every((item) => {
      const record = asRecord(item);
      return record !== undefined && typeof record.role === "string";
    });
  if (plain)
    return {
      format: "openai-chat",
      evidence: `plain chat ${where} with no tool calls, read as OpenAI chat`,
    };
  return {
    format: undefined,
    reason: `none of the ${items.length} ${where} has a shape toolscore knows (tool calls, tool results or parts of a known format)`,
  };
}

function looksLikeSpan(value: unknown): boolean {
  const record = asRecord(value);
  return (
    record !== undefined &&
    ("resourceSpans" in record ||
      "spanId" in record ||
      "span_id" in record ||
      "traceId" in record ||
      asRecord(record.context)?.span_id !== undefined)
  );
}

/** OTel GenAI or OpenInference, by the attribute names the spans use. */
function spanFormat(input: unknown): FormatDetection {
  const text = JSON.stringify(input);
  if (text.includes("openinference.span.kind")) {
    return { format: "openinference", evidence: "spans carry openinference.span.kind attributes" };
  }
  if (text.includes("gen_ai."))
    return { format: "otel", evidence: "spans carry gen_ai.* attributes" };
  return {
    format: "otel",
    evidence: "OpenTelemetry spans without GenAI or OpenInference attributes",
  };
}

/**
 * Works out which format a transcript is in, from its envelope (`resourceSpans`, `choices`,
 * `candidates`, `output.message`, `steps`, ...) or, for lists of messages, from a vote of the
 * messages' distinctive shapes. Returns `format: undefined` with the reason when it cannot tell;
 * `parseTrajectory` then asks for `options.format`.
 */
export function detectFormat(input: unknown): FormatDetection {
  return detectWith(input, true);
}

/** {@link detectFormat} for `parseTrajectory`, which needs the format, not the evidence. */
export function detectFormatOnly(input: unknown): FormatDetection {
  return detectWith(input, false);
}

function detectWith(input: unknown, explain: boolean): FormatDetection {
  const list = asArray(input);
  if (list) {
    if (list.length === 0)
      return { format: "openai-chat", evidence: "an empty list, read as OpenAI chat" };
    if (list.some(isMastraSpan))
      return { format: "mastra", evidence: "Mastra AI tracing spans (spanType / type)" };
    if (list.some(isAgentsTraceRecord))
      return { format: "openai-agents", evidence: "OpenAI Agents SDK trace records (trace.span)" };
    if (list.some(isAdkEvent))
      return { format: "adk", evidence: "Google ADK events (author and content)" };
    if (list.some(isAdkInvocation))
      return { format: "adk", evidence: "Google ADK invocations (user_content)" };
    if (looksLikeSpan(list[0])) return spanFormat(input);
    return voteOver(list, "messages", explain);
  }
  const record = asRecord(input);
  if (!record) {
    return {
      format: undefined,
      reason: `a transcript is a list or an object, got ${input === null ? "null" : typeof input}`,
    };
  }
  if (asArray(record.spans)?.some(isMastraSpan))
    return { format: "mastra", evidence: "Mastra AI tracing spans (spans)" };
  if ("resourceSpans" in record || "resource_spans" in record) return spanFormat(input);
  if (asArray(record.spans)?.some(looksLikeSpan)) return spanFormat(input);
  if (asArray(record.data)?.some(isAgentsTraceRecord))
    return { format: "openai-agents", evidence: "an OpenAI Agents SDK trace export (data)" };
  if (asArray(record.events)?.some(isAdkEvent))
    return { format: "adk", evidence: "a Google ADK session (events)" };
  if (asArray(record.conversation)?.some(isAdkInvocation))
    return { format: "adk", evidence: "a Google ADK eval case (conversation)" };
  if (isAdkEvent(record)) return { format: "adk", evidence: "a Google ADK event" };
  if (asArray(record.history) || asArray(record.newItems))
    return {
      format: "openai-agents",
      evidence: "an OpenAI Agents SDK run result (history / newItems)",
    };
  if (record.object === "response")
    return {
      format: "openai-responses",
      evidence: 'a Responses API object ("object": "response")',
    };
  if (asArray(record.candidates))
    return { format: "gemini", evidence: "a Gemini response (candidates)" };
  if (asArray(record.contents))
    return { format: "gemini", evidence: "a Gemini request (contents)" };
  if (asArray(record.choices))
    return { format: "openai-chat", evidence: "a Chat Completions response (choices)" };
  if (asRecord(asRecord(record.output)?.message))
    return { format: "bedrock", evidence: "a Converse response (output.message)" };
  if (asRecord(record.toolConfig))
    return { format: "bedrock", evidence: "a Converse request (toolConfig)" };
  if (asArray(record.steps)) return { format: "ai-sdk", evidence: "an AI SDK result (steps)" };
  if (record.type === "message" && asArray(record.content))
    return { format: "anthropic", evidence: 'an Anthropic message ("type": "message")' };
  if (asArray(record.output) || asArray(record.input)) {
    return {
      format: "openai-responses",
      evidence: "a Responses API request or response (input / output items)",
    };
  }
  const messages = asArray(record.messages);
  if (messages) {
    // With the evidence: it tells a plain chat (no distinctive message) from a real vote.
    const vote = voteOver(messages, "messages", true);
    if (vote.format !== undefined && !vote.evidence.startsWith("plain")) return vote;
    const tools = asArray(record.tools)?.map(asRecord) ?? [];
    if (tools.some((tool) => tool?.input_schema !== undefined))
      return { format: "anthropic", evidence: "tools with input_schema (Anthropic)" };
    if (typeof record.system === "string" || asArray(record.system))
      return { format: "anthropic", evidence: "a top-level system prompt (Anthropic)" };
    return vote;
  }
  return voteOver([record], "messages", explain);
}

// What a file's first bytes say it holds, read without parsing it (`fileHead` of
// node/recordings.ts reads them): toolscore's results, its own file or a dataset, a transcript.

/** Whether a file's first bytes are a results file's header. */
export function isResultsHead(head: string): boolean {
  return /^\s*\{\s*"toolscore"\s*:\s*"results"/.test(head);
}

/**
 * Whether a file's first bytes are toolscore's own (a results file's header) or a dataset's (a
 * case naming `trajectoryFile` or its calls), not a transcript's.
 */
export function isDatasetHead(head: string): boolean {
  return (
    /^\s*\{\s*"toolscore"\s*:/.test(head) ||
    /"(?:trajectoryFile|trajectory_file|expectedTools|expected_tools|toolsCalled|tools_called)"\s*:/.test(
      head,
    )
  );
}

/**
 * Whether a file's first bytes are a transcript's as most are written: a message with a `role`
 * first in a JSON array, a `messages` list, or a JSONL line.
 */
export function isTranscriptHead(head: string): boolean {
  return /^\s*(?:\[\s*|\{\s*"messages"\s*:\s*\[\s*)?\{\s*"role"\s*:/.test(head);
}
