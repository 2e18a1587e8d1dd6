import { jsonlTextLines } from "../core/jsonl-lines.js";
import { rememberSource } from "../core/number-spellings.js";
import {
  InvalidInputError,
  InvalidOptionError,
  LimitExceededError,
  UnknownFormatError,
} from "../core/errors.js";
import { DEFAULT_MAX_DEPTH, nestsDeeperThan, setKey } from "../core/json.js";
import type { ToolCall } from "../core/tool-call.js";
import { trajectoryFormats } from "../core/trajectory.js";
import type { NameMapping, Trajectory, TrajectoryFormat } from "../core/trajectory.js";
import { readAiSdk } from "./ai-sdk.js";
import { readAnthropic } from "./anthropic.js";
import { readBedrock } from "./bedrock.js";
import { detectFormatOnly } from "./detect-format.js";
import { readGemini } from "./gemini.js";
import { readLangChain } from "./langchain.js";
import { readMcp } from "./mcp.js";
import { createNameNormalizer } from "../core/normalize-tool-name.js";
import type { NameNormalizationOptions } from "../core/normalize-tool-name.js";
import { readOpenAIChat } from "./openai-chat.js";
import { ParsedArguments, readPlainOpenAIChat } from "./openai-chat-plain.js";
import { readOpenAIResponses } from "./openai-responses.js";
import { readOpenAIAgents } from "./openai-agents.js";
import { readAdk } from "./adk.js";
import { readMastra } from "./mastra.js";
import { readOpenInference } from "./openinference.js";
import { readOtel } from "./otel.js";
import { TrajectoryBuilder } from "./trajectory-builder.js";

export interface ParseTrajectoryOptions {
  /** The transcript's format; detected when omitted (see `detectFormat`). */
  format?: TrajectoryFormat;
  /**
   * Normalize tool names (of calls and tool definitions): `true` removes random-looking
   * suffixes such as `_xg7c`; an object sets the rules. Default false: names as they are.
   */
  normalizeNames?: boolean | NameNormalizationOptions;
  /**
   * Of a transcript of spans (OpenTelemetry GenAI, OpenInference) that holds several traces, the
   * one to read. Without it, spans of several traces are read as one run, with a
   * `several-traces` warning.
   */
  traceId?: string;
}

/** The formats whose transcripts are spans, which may hold several traces. */
const spanFormats: ReadonlySet<TrajectoryFormat> = new Set([
  "otel",
  "openinference",
  "openai-agents",
  "mastra",
]);

const readers: Record<TrajectoryFormat, (input: unknown, builder: TrajectoryBuilder) => void> = {
  "openai-chat": readOpenAIChat,
  "openai-responses": readOpenAIResponses,
  "openai-agents": readOpenAIAgents,
  adk: readAdk,
  anthropic: readAnthropic,
  gemini: readGemini,
  bedrock: readBedrock,
  langchain: readLangChain,
  "ai-sdk": readAiSdk,
  mastra: readMastra,
  otel: readOtel,
  openinference: readOpenInference,
  mcp: readMcp,
};

/**
 * A transcript's text as a value, by the one rule every reader of transcripts follows (files named
 * by datasets, `toolscore parse`, recordings, text given to `parseTrajectory`): with `lines`, one
 * JSON value per line (JSON Lines); otherwise the whole text as JSON, and JSON Lines when it is
 * not. The text is remembered for readers that need how its numbers were written. Throws
 * `InvalidInputError` naming the first line that is not JSON.
 */
export function decodeTranscript(text: string, options: { lines?: boolean } = {}): unknown {
  if (options.lines !== true) {
    const whole = text.trim();
    try {
      const value = JSON.parse(whole) as unknown;
      rememberSource(value, whole);
      return value;
    } catch {
      // JSON Lines: one message, item or span per line.
    }
  }
  return jsonlTextLines(text).map(({ text: line, line: number }) => {
    let value: unknown;
    try {
      value = JSON.parse(line) as unknown;
    } catch {
      throw new InvalidInputError({
        field: `line ${number}`,
        message:
          options.lines === true
            ? `line ${number} is not valid JSON`
            : `the transcript is neither JSON nor JSON Lines: line ${number} is not valid JSON`,
      });
    }
    rememberSource(value, line);
    return value;
  });
}

function resolveFormat(format: unknown): TrajectoryFormat | undefined {
  if (format === undefined) return undefined;
  if (!trajectoryFormats.includes(format as TrajectoryFormat)) {
    throw new InvalidOptionError({
      option: "format",
      value: format,
      message: `format must be one of ${trajectoryFormats.join(", ")}; got ${JSON.stringify(format)}`,
    });
  }
  return format as TrajectoryFormat;
}

/** Applies a name normalizer to a trajectory's calls and tools, recording what changed. */
export function normalizeTrajectoryNames(
  trajectory: Trajectory,
  options: NameNormalizationOptions = {},
): Trajectory {
  const normalize = createNameNormalizer(options);
  const mapping = new Map<string, string>();
  const rename = (name: string): string => {
    const normalized = normalize(name);
    if (normalized !== name) mapping.set(name, normalized);
    return normalized;
  };
  const calls: ToolCall[] = trajectory.calls.map((call) => ({ ...call, name: rename(call.name) }));
  const seen = new Set<string>();
  const tools = trajectory.tools.flatMap((tool) => {
    const name = rename(tool.name);
    if (seen.has(name)) return [];
    seen.add(name);
    return [{ ...tool, name }];
  });
  const nameMapping: NameMapping[] = [...mapping].map(([original, normalized]) => ({
    original,
    normalized,
  }));
  return { ...trajectory, calls, tools, nameMapping };
}

/**
 * Reads an agent transcript in any supported format into toolscore's model: the tool calls in
 * order with their outputs joined by call id, grouped into steps (calls issued together) and
 * turns (split at user messages), the tool definitions found, and a warning for every oddity.
 * Accepts the transcript as a value, as JSON text, or as JSON Lines.
 *
 * @example
 * const { calls, warnings } = parseTrajectory(messages); // OpenAI, Anthropic, Gemini, ... detected
 * const trajectory = parseTrajectory(otlpJson, { format: "otel", normalizeNames: true });
 */
export function parseTrajectory(input: unknown, options: ParseTrajectoryOptions = {}): Trajectory {
  const format = readOptions(options, "parseTrajectory");
  return readOne(input, format, options.normalizeNames ?? false, undefined, options.traceId);
}

/**
 * Reads several transcripts at once, given by name, each as {@link parseTrajectory} reads it with
 * the same options: an agent's transcript and its reference, or a batch. Arguments written the
 * same way (the same JSON text) are parsed once, and the calls that carry them share the object:
 * faster, and less memory. Treat the calls as read-only, as everywhere in toolscore. A transcript
 * that cannot be read throws an error naming it.
 *
 * @example
 * const { actual, reference } = parseTrajectories({ actual: messages, reference: expected });
 * const { score } = scoreToolCalls(actual, reference, { order: "any" });
 */
export function parseTrajectories<Name extends string>(
  inputs: Readonly<Record<Name, unknown>>,
  options: ParseTrajectoryOptions = {},
): Record<Name, Trajectory> {
  const format = readOptions(options, "parseTrajectories");
  const given: unknown = inputs;
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw new InvalidInputError({
      field: "inputs",
      message:
        "parseTrajectories takes transcripts by name, like { actual, reference }; for one transcript, use parseTrajectory",
    });
  }
  const normalizeNames = options.normalizeNames ?? false;
  const parsedBefore = new ParsedArguments();
  const read: Record<string, Trajectory> = {};
  for (const name of Object.keys(inputs) as Name[]) {
    let trajectory: Trajectory;
    try {
      trajectory = readOne(inputs[name], format, normalizeNames, parsedBefore, options.traceId);
    } catch (error) {
      throw namingInput(error, name);
    }
    setKey(read, name, trajectory);
  }
  return read;
}

/** Checks `parseTrajectory`'s options object; gives the format it names, if any. */
function readOptions(options: unknown, caller: string): TrajectoryFormat | undefined {
  if (typeof options !== "object" || options === null) {
    throw new InvalidOptionError({
      option: "options",
      value: options,
      message: `${caller} takes an options object`,
    });
  }
  const { traceId } = options as ParseTrajectoryOptions;
  if (traceId !== undefined && (typeof traceId !== "string" || traceId === "")) {
    throw new InvalidOptionError({
      option: "traceId",
      value: traceId,
      message: `${caller}'s traceId must be a trace id (text), got ${JSON.stringify(traceId)}`,
    });
  }
  return resolveFormat((options as ParseTrajectoryOptions).format);
}

function readOne(
  input: unknown,
  format: TrajectoryFormat | undefined,
  normalizeNames: boolean | NameNormalizationOptions,
  parsedBefore: ParsedArguments | undefined,
  traceId: string | undefined,
): Trajectory {
  const value = typeof input === "string" ? decodeTranscript(input) : input;
  // The shape most agents log reads in one pass; anything unusual in it takes the general way.
  const plain =
    (format === undefined || format === "openai-chat") &&
    traceId === undefined &&
    Array.isArray(value)
      ? readPlainOpenAIChat(value, parsedBefore)
      : undefined;
  const trajectory = plain ?? readTrajectory(value, format, traceId);
  if (normalizeNames === false) return trajectory;
  return normalizeTrajectoryNames(trajectory, normalizeNames === true ? {} : normalizeNames);
}

/** An error about one of several transcripts, its message and field naming which one. */
function namingInput(error: unknown, name: string): unknown {
  if (InvalidInputError.isInstance(error)) {
    return new InvalidInputError({
      field: `${name} ${error.field}`,
      message: `${name}: ${error.message}`,
      cause: error,
    });
  }
  if (UnknownFormatError.isInstance(error)) {
    return new UnknownFormatError({ message: `${name}: ${error.message}`, cause: error });
  }
  return error;
}

/**
 * `parseTrajectory`'s general way, by the format's reader: every shape and every oddity. Exported
 * for the test that holds the one-pass reader of plain OpenAI chat lists to it.
 */
export function readTrajectory(
  value: unknown,
  given: TrajectoryFormat | undefined,
  traceId?: string,
): Trajectory {
  // Before any reader walks it: nothing a transcript holds need nest deeper than calls may.
  if (nestsDeeperThan(value, DEFAULT_MAX_DEPTH)) {
    throw new LimitExceededError({
      limit: "maxDepth",
      maximum: DEFAULT_MAX_DEPTH,
      message: `the transcript is nested more than ${DEFAULT_MAX_DEPTH} levels deep (see docs/reference/limits.md)`,
    });
  }
  let format = given;
  if (format === undefined) {
    const detection = detectFormatOnly(value);
    if (detection.format === undefined) {
      throw new UnknownFormatError({
        message: `cannot tell the transcript's format: ${detection.reason}; pass options.format (one of ${trajectoryFormats.join(", ")})`,
      });
    }
    format = detection.format;
  }
  if (traceId !== undefined && !spanFormats.has(format)) {
    throw new InvalidOptionError({
      option: "traceId",
      value: traceId,
      message: `traceId chooses a trace of spans (otel, openinference, an OpenAI Agents SDK or Mastra trace export); this transcript is ${format}`,
    });
  }
  const builder = new TrajectoryBuilder(format, traceId);
  readers[format](value, builder);
  return builder.build({ expectResults: true });
}
