import { InvalidInputError } from "../core/errors.js";
import { childPath, isJsonObject } from "../core/json.js";

/** Safe readers for untyped transcript values; each returns undefined for the wrong type. */

export type Record_ = Record<string, unknown>;

export function asRecord(value: unknown): Record_ | undefined {
  return isJsonObject(value) ? value : undefined;
}

export function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A string field, or a number turned into a string (some SDKs emit numeric ids). */
export function asId(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** `path` extended by one key, as a JSON path: `$[3].content[1]`. */
export function at(path: string, key: string | number): string {
  return childPath(path, key);
}

/**
 * The text of message content given as a string or as a list of text parts (`{type: "text",
 * text}`, `{type: "input_text" | "output_text", text}`, `{text}`); undefined when there is no text.
 */
export function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  const parts = asArray(content);
  if (!parts) return undefined;
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === "string") texts.push(part);
    const record = asRecord(part);
    const text = record && asString(record.text);
    if (text !== undefined) texts.push(text);
  }
  return texts.length > 0 ? texts.join("\n") : undefined;
}

/**
 * The text of an assistant's message content, as `textOf` reads it, without reasoning parts
 * (the AI SDK's `reasoning`, Gemini's `thought` parts): what the agent said.
 */
export function replyTextOf(content: unknown): string | undefined {
  const parts = asArray(content);
  if (!parts) return textOf(content);
  return textOf(
    parts.filter((part) => {
      const record = asRecord(part);
      return record === undefined || (record.type !== "reasoning" && record.thought !== true);
    }),
  );
}

/**
 * A tool output given as content blocks: one text block is its text, text blocks only are their
 * texts joined by newlines, anything else is kept as the list of blocks.
 */
export function blocksOutput(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const allText = content.every((block) => {
    const record = asRecord(block);
    return (
      typeof block === "string" ||
      (record !== undefined &&
        asString(record.text) !== undefined &&
        (record.type === undefined ||
          record.type === "text" ||
          record.type === "input_text" ||
          record.type === "output_text"))
    );
  });
  if (allText && content.length > 0) return textOf(content);
  return content;
}

/** Parses JSON text; returns the text itself when it is not JSON. */
export function jsonOrText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * The list of messages of a transcript given as a list, as a request (`{messages, tools}`), as a
 * response (`{choices: [{message}]}`), or as one message; with its JSON path.
 */
export function messageList(
  input: unknown,
  keys: readonly string[],
  format: string,
): { items: unknown[]; path: string } {
  const list = asArray(input);
  if (list) return { items: list, path: "$" };
  const record = asRecord(input);
  if (record) {
    for (const key of keys) {
      const inner = asArray(record[key]);
      if (inner) return { items: inner, path: at("$", key) };
    }
    return { items: [record], path: "$" };
  }
  throw new InvalidInputError({
    field: "$",
    message: `a ${format} transcript must be a list of messages or an object holding one, got ${input === null ? "null" : typeof input}`,
  });
}

/** JSON text of a value; "" for values JSON has no text for (undefined, functions). */
export function jsonText(value: unknown): string {
  const text: unknown = JSON.stringify(value);
  return typeof text === "string" ? text : "";
}

/** The spellings of a usage record's two counts, by the SDKs that write them. */
const usageSpellings: readonly (readonly [input: string, output: string])[] = [
  // OpenAI Responses, Anthropic, LangChain's usage_metadata, OpenAI Agents spans.
  ["input_tokens", "output_tokens"],
  // OpenAI chat completions.
  ["prompt_tokens", "completion_tokens"],
  // The AI SDK 5 and later, Bedrock Converse.
  ["inputTokens", "outputTokens"],
  // The AI SDK 4, Mastra.
  ["promptTokens", "completionTokens"],
  // Gemini's usageMetadata, as the API and ADK's Python models write it.
  ["promptTokenCount", "candidatesTokenCount"],
  ["prompt_token_count", "candidates_token_count"],
];

/** Input counted apart from `input_tokens` by Anthropic, and thinking counted apart by Gemini. */
const extraInput = ["cache_creation_input_tokens", "cache_read_input_tokens"] as const;
const extraOutput = ["thoughtsTokenCount", "thoughts_token_count"] as const;

/**
 * A usage record's tokens, in any SDK's spelling; undefined when `value` is not one. `invalid`
 * when it names the counts but one is not a number of 0 or more.
 */
export function usageOf(
  value: unknown,
): { inputTokens: number; outputTokens: number } | "invalid" | undefined {
  const record = asRecord(value);
  if (record === undefined) return undefined;
  for (const [inputKey, outputKey] of usageSpellings) {
    if (record[inputKey] === undefined && record[outputKey] === undefined) continue;
    const counts = [inputKey, ...extraInput, outputKey, ...extraOutput].map((key) => record[key]);
    if (!counts.every((count) => count === undefined || count === null || isCount(count)))
      return "invalid";
    const sum = (values: readonly unknown[]): number =>
      values.reduce<number>((total, count) => total + (isCount(count) ? count : 0), 0);
    return {
      inputTokens: sum(counts.slice(0, 1 + extraInput.length)),
      outputTokens: sum(counts.slice(1 + extraInput.length)),
    };
  }
  return undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

/** Milliseconds from one date text to another (ISO 8601), when both parse and end is not before start. */
export function datesMs(start: unknown, end: unknown): number | undefined {
  if (typeof start !== "string" || typeof end !== "string") return undefined;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
