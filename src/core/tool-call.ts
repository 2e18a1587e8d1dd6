import { parseArgumentsText, readCallFields, usesOwnSpelling } from "./call-fields.js";
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

/**
 * A validated list: its normalized calls first, then each element with its name, parameters,
 * output and type ({@link SNAPSHOT_WIDTH} entries per element). One array, so that the check
 * touches little memory. Only lists that spell parameters `inputParameters` are remembered.
 */
type ValidatedList = readonly unknown[];

const SNAPSHOT_WIDTH = 5;

/** Gives back the object it is constructed on: how a class adds its private field to any object. */
// eslint-disable-next-line @typescript-eslint/no-extraneous-class -- a base whose constructor returns its argument
class ReturnsTarget {
  constructor(target: object) {
    return target;
  }
}

/**
 * Where a list's snapshot is kept: a private field added to the list itself, which nothing
 * outside this class can see (not JSON, keys, symbols, copies, deep equality or a debugger's
 * enumeration of properties). A WeakMap lookup costs about as much as scoring a small case, weak
 * tables slow the collector down, and a defined property costs ten times a private field; the
 * WeakMap is kept for lists that cannot take a field (frozen, sealed or non-extensible).
 */
class ListNote extends ReturnsTarget {
  #snapshot: ValidatedList;

  private constructor(target: object, snapshot: ValidatedList) {
    super(target);
    this.#snapshot = snapshot;
  }

  static read(list: readonly unknown[]): ValidatedList | undefined {
    if (#snapshot in list) return (list as unknown as ListNote).#snapshot;
    return Object.isExtensible(list) ? undefined : validatedLists.get(list);
  }

  static write(list: readonly unknown[], snapshot: ValidatedList): void {
    if (#snapshot in list) (list as unknown as ListNote).#snapshot = snapshot;
    else if (Object.isExtensible(list)) new ListNote(list, snapshot);
    else validatedLists.set(list, snapshot);
  }
}

const validatedLists = new WeakMap<readonly unknown[], ValidatedList>();

function isUnchanged(list: readonly unknown[], known: ValidatedList): boolean {
  if (list.length * SNAPSHOT_WIDTH + 1 !== known.length) return false;
  for (let index = 0, at = 1; index < list.length; index++, at += SNAPSHOT_WIDTH) {
    const record = list[index] as Record<string, unknown>;
    if (
      record !== known[at] ||
      record.name !== known[at + 1] ||
      record.inputParameters !== known[at + 2] ||
      record.output !== known[at + 3] ||
      record.type !== known[at + 4] ||
      !usesOwnSpelling(record)
    ) {
      return false;
    }
  }
  return true;
}

/** The calls validated before for `list`, if it has a note and is unchanged since. */
function unchangedCalls(list: readonly unknown[]): readonly ToolCall[] | undefined {
  const known = ListNote.read(list);
  return known !== undefined && isUnchanged(list, known)
    ? (known[0] as readonly ToolCall[])
    : undefined;
}

/** The list to remember after validation, or `undefined` if it uses another spelling. */
function snapshotOf(
  list: readonly unknown[],
  calls: readonly ToolCall[],
): ValidatedList | undefined {
  // Sized up front: grown push by push, it would be copied several times over.
  const known = new Array<unknown>(1 + list.length * SNAPSHOT_WIDTH);
  known[0] = calls;
  for (let index = 0, at = 1; index < list.length; index++, at += SNAPSHOT_WIDTH) {
    const record = list[index] as Record<string, unknown>;
    if (!usesOwnSpelling(record)) return undefined;
    known[at] = record;
    known[at + 1] = record.name;
    known[at + 2] = record.inputParameters;
    known[at + 3] = record.output;
    known[at + 4] = record.type;
  }
  return known;
}

/**
 * {@link toToolCalls}, remembered per list: a list read before is not validated again while it
 * holds the same call objects with the same name, parameters, output and type. For metrics that
 * measure one test case many times (several metrics, or one metric with several option sets).
 * Values inside the parameters and output are not re-checked: as everywhere in toolscore, treat
 * calls as immutable once scored. The result is shared; do not change it. The note is kept on the
 * list itself, in a private field nothing else can see (frozen lists: in a WeakMap instead).
 */
export function toToolCallsRemembered(
  value: unknown,
  options: ToToolCallOptions & { field: string },
): readonly ToolCall[] {
  // Lists read with another depth limit are validated every time (rare, and kept simple).
  if (!Array.isArray(value) || options.maxDepth !== undefined) return toToolCalls(value, options);
  const list = value as readonly unknown[];
  const known = ListNote.read(list);
  if (known !== undefined && isUnchanged(list, known)) return known[0] as readonly ToolCall[];
  const calls = toToolCalls(list, options);
  // A list read for the first time is only noted among the last few read: most lists are read
  // once (a fresh case per measure), and a snapshot costs more than validating them again. One
  // read again soon (several metrics on one case) is remembered then.
  if (known !== undefined || readRecently(list)) {
    const remembered = snapshotOf(list, calls);
    if (remembered !== undefined) ListNote.write(list, remembered);
  }
  return calls;
}

/** The lists read last, by identity only (a list read again is validated again, then noted). */
const recent: (readonly unknown[] | undefined)[] = new Array<undefined>(16).fill(undefined);
let recentAt = 0;

/** Whether `list` is among the last lists read; if not, it is now. */
function readRecently(list: readonly unknown[]): boolean {
  for (let at = 0; at < recent.length; at++) {
    if (recent[at] === list) {
      recent[at] = undefined;
      return true;
    }
  }
  recent[recentAt] = list;
  recentAt = (recentAt + 1) % recent.length;
  return false;
}

/**
 * Notes that `calls` are valid tool calls as they are (a reader built them), so that
 * {@link toToolCallsKnown} and {@link toToolCallsRemembered} take them without a copy while
 * they stay unchanged.
 */
export function markValidated(calls: readonly ToolCall[]): void {
  const remembered = snapshotOf(calls, calls);
  if (remembered !== undefined) ListNote.write(calls, remembered);
}

/** The calls of `value` if it is a list validated before and unchanged since; else undefined. */
export function knownToolCalls(value: unknown): readonly ToolCall[] | undefined {
  return Array.isArray(value) ? unchangedCalls(value as readonly unknown[]) : undefined;
}

/**
 * {@link toToolCalls}, except that a list validated before (by a reader, or remembered) and
 * unchanged since is taken as it was then. Unlike {@link toToolCallsRemembered}, a list seen for
 * the first time is validated without being remembered: for lists most likely read once.
 */
export function toToolCallsKnown(
  value: unknown,
  options: ToToolCallOptions & { field: string },
): readonly ToolCall[] {
  if (Array.isArray(value) && options.maxDepth === undefined) {
    const known = unchangedCalls(value as readonly unknown[]);
    if (known !== undefined) return known;
  }
  return toToolCalls(value, options);
}
