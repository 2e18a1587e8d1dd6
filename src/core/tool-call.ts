import { parseArgumentsText, readCallFields } from "./call-fields.js";
import { InvalidInputError } from "./errors.js";
import { numberSpellings } from "./number-spellings.js";
import type { NumberSpellings } from "./number-spellings.js";
import { childPath, isCleanJson, isJsonObject, toJsonValue } from "./json.js";
import type { JsonObject, JsonValue } from "./json.js";

/** How a tool was reached: a plain function tool, or a tool served over MCP. */
export type ToolCallType = "FUNCTION" | "MCP";

/**
 * One tool call, made by an agent or expected of it: the model every metric works on.
 * Values are validated JSON, so metrics never meet cycles, functions or `NaN`. Values that
 * already are plain JSON are kept as given, not copied: treat calls as immutable.
 *
 * @example
 * const call = toToolCall({ name: "search", inputParameters: { query: "weather" } });
 * // { name: "search", inputParameters: { query: "weather" }, output: null, type: "FUNCTION" }
 */
export interface ToolCall {
  readonly name: string;
  /** The arguments; a missing or `null` value is `{}`. */
  readonly inputParameters: JsonObject;
  /** What the tool returned; missing is `null`. */
  readonly output: JsonValue;
  readonly type: ToolCallType;
  /** The provider's call id, when known (joins a call to its result). */
  readonly id?: string;
  /** Free text about the tool; never compared. */
  readonly description?: string;
  /** The agent's stated reason for the call; never compared. */
  readonly reasoning?: string;
  /** Whether the tool reported an error (its output then holds the error). */
  readonly isError?: boolean;
  /**
   * The raw argument text, when the agent's arguments were not a JSON object (malformed JSON,
   * or JSON of another type); `inputParameters` is then `{}`.
   */
  readonly invalidArguments?: string;
  /**
   * How whole numbers among the arguments were written when written with a fraction or an
   * exponent (`{ "$.limit": "3.0" }`), by JSON path: kept from arguments read as JSON text, so that
   * a schema declaring `integer` can refuse a float the parsed value cannot show.
   */
  readonly numberSpellings?: NumberSpellings;
  /**
   * How long the tool took to answer, in milliseconds, when the transcript says (a span's start
   * and end; a recording's simulated latency); read by `efficiency`, never compared.
   */
  readonly durationMs?: number;
}

/**
 * What toolscore accepts as a tool call: its own {@link ToolCall}, deepeval's shape, the
 * snake_case shape of dataset files (`input_parameters`), OpenAI's (`arguments`, also as JSON
 * text), axion's (`args`) or Anthropic's (`input`); provider call items (OpenAI `tool_calls`,
 * Anthropic `tool_use`, Gemini `functionCall`, ...) too. At most one spelling of the arguments
 * may be given, and a key toolscore does not know is an error.
 */
export interface ToolCallInput {
  name: string;
  inputParameters?: Record<string, unknown> | null;
  input_parameters?: Record<string, unknown> | null;
  arguments?: Record<string, unknown> | string | null;
  args?: Record<string, unknown> | null;
  input?: Record<string, unknown> | null;
  output?: unknown;
  type?: ToolCallType;
  id?: string;
  description?: string;
  reasoning?: string;
  isError?: boolean;
  invalidArguments?: string;
  numberSpellings?: Record<string, string>;
  durationMs?: number;
}

export interface ToToolCallOptions {
  /** Where the value sits in the caller's input, for error messages. Default `"toolCall"`. */
  field?: string;
  /** Deepest nesting accepted in arguments and output. */
  maxDepth?: number;
}

function optionalString(
  record: Record<string, unknown>,
  key: string,
  field: string,
): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    const path = childPath(field, key);
    throw new InvalidInputError({
      field: path,
      message: `${path} must be a string when given, got ${typeof value}`,
    });
  }
  return value;
}

/**
 * Validates one tool call and returns toolscore's normalized form. Throws `InvalidInputError`
 * naming the field when the value is not a tool call.
 */
export function toToolCall(value: unknown, options: ToToolCallOptions = {}): ToolCall {
  return readToolCall(value, options.field ?? "toolCall", undefined, options.maxDepth);
}

/** `parent[index]`, or `parent` itself; built only when an error needs it. */
function fieldAt(parent: string, index: number | undefined): string {
  return index === undefined ? parent : `${parent}[${index}]`;
}

/** Reads clean JSON as given; anything else through the validating copy. */
function jsonAt(
  value: unknown,
  field: () => string,
  maxDepth: number | undefined,
): JsonValue | undefined {
  if (isCleanJson(value, maxDepth)) return value as JsonValue;
  return toJsonValue(
    value,
    maxDepth === undefined ? { field: field() } : { field: field(), maxDepth },
  );
}

function readToolCall(
  value: unknown,
  parent: string,
  index: number | undefined,
  maxDepth: number | undefined,
): ToolCall {
  const where = () => fieldAt(parent, index);
  const { record, argumentsKey } = readCallFields(value, "called", where);
  const name = record.name as string;
  let inputParameters: JsonObject = {};
  let invalidText: string | undefined;
  let spellings: NumberSpellings | undefined;
  let rawParameters = argumentsKey === undefined ? undefined : record[argumentsKey];
  if (typeof rawParameters === "string" && argumentsKey === "arguments") {
    // JSON text, as OpenAI gives arguments: read; text that is not a JSON object is kept as
    // the call's invalid arguments, as the transcript readers keep it.
    const text = rawParameters;
    const parsed = parseArgumentsText(text);
    rawParameters = parsed?.value;
    if (parsed === undefined || (rawParameters !== undefined && !isJsonObject(rawParameters))) {
      invalidText = text;
      rawParameters = undefined;
    } else {
      spellings = numberSpellings(text);
    }
  }
  if (rawParameters !== undefined && rawParameters !== null) {
    const parametersField = () => childPath(where(), argumentsKey as string);
    if (!isJsonObject(rawParameters)) {
      throw new InvalidInputError({
        field: parametersField(),
        message: `${parametersField()} must be an object of named arguments, got ${Array.isArray(rawParameters) ? "an array" : typeof rawParameters}`,
      });
    }
    inputParameters = jsonAt(rawParameters, parametersField, maxDepth) as JsonObject;
  }

  const rawOutput = record.output;
  const output =
    rawOutput === undefined || rawOutput === null
      ? null
      : typeof rawOutput === "string"
        ? rawOutput
        : (jsonAt(rawOutput, () => `${fieldAt(parent, index)}.output`, maxDepth) ?? null);

  const rawType = record.type ?? "FUNCTION";
  if (rawType !== "FUNCTION" && rawType !== "MCP") {
    const path = childPath(fieldAt(parent, index), "type");
    throw new InvalidInputError({
      field: path,
      message: `${path} must be "FUNCTION" or "MCP", got ${typeof rawType === "string" ? JSON.stringify(rawType) : typeof rawType}`,
    });
  }

  const call: {
    -readonly [K in keyof ToolCall]: ToolCall[K];
  } = { name, inputParameters, output, type: rawType };
  // Optional fields, read only when present (most calls have none of them).
  if (record.id !== undefined) {
    const id = optionalString(record, "id", fieldAt(parent, index));
    if (id !== undefined) call.id = id;
  }
  if (record.description !== undefined) {
    const description = optionalString(record, "description", fieldAt(parent, index));
    if (description !== undefined) call.description = description;
  }
  if (record.reasoning !== undefined) {
    const reasoning = optionalString(record, "reasoning", fieldAt(parent, index));
    if (reasoning !== undefined) call.reasoning = reasoning;
  }
  if (record.invalidArguments !== undefined) {
    const invalidArguments = optionalString(record, "invalidArguments", fieldAt(parent, index));
    if (invalidArguments !== undefined) call.invalidArguments = invalidArguments;
  }
  if (invalidText !== undefined) {
    if (call.invalidArguments !== undefined && call.invalidArguments !== invalidText) {
      const field = childPath(where(), "invalidArguments");
      throw new InvalidInputError({
        field,
        message: `${field} disagrees with the arguments' text, which is not a JSON object; keep one`,
      });
    }
    call.invalidArguments = invalidText;
  }
  if (record.numberSpellings !== undefined) {
    const given = readSpellings(record.numberSpellings, () =>
      childPath(where(), "numberSpellings"),
    );
    if (given !== undefined)
      spellings = spellings === undefined ? given : { ...given, ...spellings };
  }
  if (spellings !== undefined) call.numberSpellings = spellings;
  const isError = record.isError;
  if (isError !== undefined && isError !== null) {
    if (typeof isError !== "boolean") {
      const field = fieldAt(parent, index);
      throw new InvalidInputError({
        field: `${field}.isError`,
        message: `${field}.isError must be true or false when given, got ${typeof isError}`,
      });
    }
    call.isError = isError;
  }
  const durationMs = record.durationMs;
  if (durationMs !== undefined && durationMs !== null) {
    if (typeof durationMs !== "number" || !Number.isFinite(durationMs) || durationMs < 0) {
      const field = `${fieldAt(parent, index)}.durationMs`;
      throw new InvalidInputError({
        field,
        message: `${field} must be a number of milliseconds (0 or more) when given, got ${JSON.stringify(durationMs)}`,
      });
    }
    call.durationMs = durationMs;
  }
  return call;
}

/** `numberSpellings` as given: an object of JSON paths to number texts; empty is none. */
function readSpellings(value: unknown, field: () => string): NumberSpellings | undefined {
  if (value === null) return undefined;
  if (!isJsonObject(value) || Object.values(value).some((text) => typeof text !== "string")) {
    throw new InvalidInputError({
      field: field(),
      message: `${field()} must map JSON paths to how their numbers were written, like { "$.limit": "3.0" }`,
    });
  }
  return Object.keys(value).length === 0 ? undefined : (value as NumberSpellings);
}

/**
 * Validates a list of tool calls. Throws `InvalidInputError` when the list is not an array or an
 * element is not a tool call, naming the element (`toolsCalled[3].name`).
 */
export function toToolCalls(
  value: unknown,
  options: ToToolCallOptions & { field: string },
): ToolCall[] {
  if (!Array.isArray(value)) {
    throw new InvalidInputError({
      field: options.field,
      message: `${options.field} must be an array of tool calls, got ${value === null ? "null" : typeof value}`,
    });
  }
  const calls = new Array<ToolCall>(value.length);
  for (let index = 0; index < value.length; index++) {
    calls[index] = readToolCall(value[index], options.field, index, options.maxDepth);
  }
  return calls;
}
