import { InvalidInputError } from "./errors.js";
import { childPath, isJsonObject, toJsonValue } from "./json.js";
import type { JsonObject, JsonValue } from "./json.js";

/** How a tool was reached: a plain function tool, or a tool served over MCP. */
export type ToolCallType = "FUNCTION" | "MCP";

const toolCallTypes: readonly ToolCallType[] = ["FUNCTION", "MCP"];

/**
 * One tool call, made by an agent or expected of it: the model every metric works on.
 * Values are validated JSON, so metrics never meet cycles, functions or `NaN`.
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
}

/**
 * What toolscore accepts as a tool call: its own {@link ToolCall}, deepeval's shape, the
 * snake_case shape of dataset files (`input_parameters`), or axion's (`args`). Exactly one of
 * `inputParameters`, `input_parameters` and `args` may be given.
 */
export interface ToolCallInput {
  name: string;
  inputParameters?: Record<string, unknown> | null;
  input_parameters?: Record<string, unknown> | null;
  args?: Record<string, unknown> | null;
  output?: unknown;
  type?: ToolCallType;
  id?: string;
  description?: string;
  reasoning?: string;
  isError?: boolean;
  invalidArguments?: string;
}

export interface ToToolCallOptions {
  /** Where the value sits in the caller's input, for error messages. Default `"toolCall"`. */
  field?: string;
  /** Deepest nesting accepted in arguments and output. */
  maxDepth?: number;
}

const parameterAliases = ["inputParameters", "input_parameters", "args"] as const;

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
  const field = options.field ?? "toolCall";
  if (!isJsonObject(value)) {
    throw new InvalidInputError({
      field,
      message: `${field} must be a tool call object like { name: "search" }, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`,
    });
  }
  const record = value as Record<string, unknown>;
  const name = record.name;
  if (typeof name !== "string") {
    const path = childPath(field, "name");
    throw new InvalidInputError({
      field: path,
      message: `${path} must be a string (the tool's name), got ${name === null ? "null" : typeof name}`,
    });
  }

  // Exactly one spelling of the parameters may be used; counted by hand, this runs per call.
  let parameterKey: (typeof parameterAliases)[number] = "inputParameters";
  let spellings = 0;
  for (const key of parameterAliases) {
    if (record[key] !== undefined) {
      parameterKey = key;
      spellings++;
    }
  }
  if (spellings > 1) {
    throw new InvalidInputError({
      field,
      message: `${field} gives its parameters twice (${parameterAliases.filter((key) => record[key] !== undefined).join(" and ")}); keep one`,
    });
  }
  const rawParameters = record[parameterKey];
  const depth = options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth };
  let inputParameters: JsonObject = {};
  if (rawParameters !== undefined && rawParameters !== null) {
    const parametersField = `${field}.${parameterKey}`;
    if (!isJsonObject(rawParameters)) {
      throw new InvalidInputError({
        field: parametersField,
        message: `${parametersField} must be an object of named arguments, got ${Array.isArray(rawParameters) ? "an array" : typeof rawParameters}`,
      });
    }
    inputParameters = toJsonValue(rawParameters, {
      field: parametersField,
      ...depth,
    }) as JsonObject;
  }

  const rawOutput = record.output;
  const output =
    rawOutput === undefined || rawOutput === null
      ? null
      : typeof rawOutput === "string"
        ? rawOutput
        : (toJsonValue(rawOutput, { field: `${field}.output`, ...depth }) ?? null);

  const rawType = record.type ?? "FUNCTION";
  if (!toolCallTypes.includes(rawType as ToolCallType)) {
    const path = childPath(field, "type");
    throw new InvalidInputError({
      field: path,
      message: `${path} must be "FUNCTION" or "MCP", got ${typeof rawType === "string" ? JSON.stringify(rawType) : typeof rawType}`,
    });
  }

  const call: {
    -readonly [K in keyof ToolCall]: ToolCall[K];
  } = { name, inputParameters, output, type: rawType as ToolCallType };
  const id = optionalString(record, "id", field);
  if (id !== undefined) call.id = id;
  const description = optionalString(record, "description", field);
  if (description !== undefined) call.description = description;
  const reasoning = optionalString(record, "reasoning", field);
  if (reasoning !== undefined) call.reasoning = reasoning;
  const invalidArguments = optionalString(record, "invalidArguments", field);
  if (invalidArguments !== undefined) call.invalidArguments = invalidArguments;
  const isError = record.isError;
  if (isError !== undefined && isError !== null) {
    if (typeof isError !== "boolean") {
      throw new InvalidInputError({
        field: `${field}.isError`,
        message: `${field}.isError must be true or false when given, got ${typeof isError}`,
      });
    }
    call.isError = isError;
  }
  return call;
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
  return value.map((item: unknown, index) =>
    toToolCall(item, { ...options, field: `${options.field}[${index}]` }),
  );
}
