import { InvalidInputError } from "./errors.js";
import { childPath, isJsonObject } from "./json.js";
import { didYouMean } from "./suggest.js";

/**
 * Every spelling of a call's arguments toolscore reads, and the one place that says so:
 * toolscore's and deepeval's `inputParameters`, deepeval's Python `input_parameters`, OpenAI's
 * `arguments`, axion's and LangChain's `args`, Anthropic's and the AI SDK's `input`.
 */
export const ARGUMENT_KEYS = [
  "inputParameters",
  "input_parameters",
  "arguments",
  "args",
  "input",
] as const;

export type ArgumentKey = (typeof ARGUMENT_KEYS)[number];

/** Which side a call is read for: a call made (a result may come with it) or an expected one. */
export type CallSide = "called" | "expected";

/**
 * The keys a call may carry besides its arguments (how long it took, never compared: a run may be
 * another's expected calls); an expected call may also list `after`.
 */
const calledKeys: ReadonlySet<string> = new Set<string>([
  ...ARGUMENT_KEYS,
  "name",
  "output",
  "type",
  "id",
  "description",
  "reasoning",
  "isError",
  "invalidArguments",
  "numberSpellings",
  "durationMs",
]);
const expectedKeys: ReadonlySet<string> = new Set<string>([...calledKeys, "after"]);

/**
 * A call item as a provider writes it, read into toolscore's spelling: the keys each format may
 * carry, where the name, arguments and id are, and the inner object that holds them, if any.
 */
interface ProviderItem {
  readonly format: string;
  readonly keys: ReadonlySet<string>;
  readonly inner?: string;
  readonly innerKeys?: ReadonlySet<string>;
  readonly name: string;
  readonly arguments: ArgumentKey;
  readonly id?: string;
}

const openAiChat: ProviderItem = {
  format: "an OpenAI tool_calls item",
  keys: new Set(["id", "type", "function", "index"]),
  inner: "function",
  innerKeys: new Set(["name", "arguments"]),
  name: "name",
  arguments: "arguments",
};
const gemini: ProviderItem = {
  format: "a Gemini functionCall part",
  keys: new Set(["functionCall", "thoughtSignature", "thought"]),
  inner: "functionCall",
  innerKeys: new Set(["name", "args", "id"]),
  name: "name",
  arguments: "args",
  id: "id",
};
const bedrock: ProviderItem = {
  format: "a Bedrock toolUse block",
  keys: new Set(["toolUse"]),
  inner: "toolUse",
  innerKeys: new Set(["toolUseId", "name", "input"]),
  name: "name",
  arguments: "input",
  id: "toolUseId",
};
const anthropic: ProviderItem = {
  format: "an Anthropic tool_use block",
  keys: new Set(["type", "id", "name", "input", "cache_control", "caller"]),
  name: "name",
  arguments: "input",
  id: "id",
};
const responses: ProviderItem = {
  format: "an OpenAI Responses function_call item",
  keys: new Set(["type", "id", "call_id", "name", "arguments", "status"]),
  name: "name",
  arguments: "arguments",
  id: "call_id",
};
const aiSdk: ProviderItem = {
  format: "an AI SDK tool-call part",
  keys: new Set([
    "type",
    "toolCallId",
    "toolName",
    "input",
    "args",
    "providerExecuted",
    "providerOptions",
    "providerMetadata",
    "dynamic",
  ]),
  name: "toolName",
  arguments: "input",
  id: "toolCallId",
};

/** The provider format of `record`, when it is a provider's call item rather than a plain call. */
function providerItemOf(record: Record<string, unknown>): ProviderItem | undefined {
  const type = record.type;
  if (type === undefined || type === "FUNCTION" || type === "MCP") {
    if (record.functionCall !== undefined) return gemini;
    if (record.toolUse !== undefined) return bedrock;
    // An OpenAI tool_calls item without its type, as transcripts (and promptfoo) write them.
    if (type === undefined && isJsonObject(record.function) && record.name === undefined)
      return openAiChat;
    return undefined;
  }
  if (type === "function" && record.function !== undefined) return openAiChat;
  if (type === "tool_use") return anthropic;
  if (type === "function_call") return responses;
  if (type === "tool-call") return aiSdk;
  return undefined;
}

/**
 * The keys of a call as a person writes them: the argument spellings as one, and no key that
 * toolscore writes for itself (`numberSpellings`, kept so that a call read back is the same).
 */
function shownKeys(known: ReadonlySet<string>): string {
  const plain = !known.has("arguments");
  const written = [...known].filter(
    (key) =>
      key !== "numberSpellings" && (plain || !(ARGUMENT_KEYS as readonly string[]).includes(key)),
  );
  if (plain) return written.join(", ");
  const spellings = ARGUMENT_KEYS.filter((key) => known.has(key) && key !== "arguments");
  return [`arguments (or ${spellings.join(", ")})`, ...written].join(", ");
}

function unknownKeyError(
  key: string,
  known: ReadonlySet<string>,
  where: string,
): InvalidInputError {
  const path = childPath(where, key);
  return new InvalidInputError({
    field: path,
    message: `${path} is not a field of a tool call${didYouMean(key, known)}; a call has ${shownKeys(known)}`,
  });
}

/** Throws for the first key of `record` that is not in `known`, naming it. */
function checkKeys(
  record: Record<string, unknown>,
  known: ReadonlySet<string>,
  where: () => string,
) {
  for (const key in record) {
    if (!known.has(key) && Object.hasOwn(record, key)) throw unknownKeyError(key, known, where());
  }
}

/** A provider's call item as a plain call: its name, arguments and id under toolscore's keys. */
function fromProviderItem(
  record: Record<string, unknown>,
  item: ProviderItem,
  where: () => string,
): Record<string, unknown> {
  checkKeys(record, item.keys, where);
  let source = record;
  let at = where;
  if (item.inner !== undefined) {
    const inner = record[item.inner];
    const innerField = () => childPath(where(), item.inner as string);
    if (!isJsonObject(inner)) {
      throw new InvalidInputError({
        field: innerField(),
        message: `${innerField()} must be an object holding the call (${item.format})`,
      });
    }
    checkKeys(inner, item.innerKeys as ReadonlySet<string>, innerField);
    source = inner;
    at = innerField;
  }
  const argumentsKey = item === aiSdk && source.input === undefined ? "args" : item.arguments;
  const plain: Record<string, unknown> = { name: source[item.name] };
  if (source[argumentsKey] !== undefined) plain[argumentsKey] = source[argumentsKey];
  const id = item.id === undefined ? record.id : source[item.id];
  if (id !== undefined && id !== null && id !== "") plain.id = id;
  if (typeof plain.name !== "string") {
    const path = childPath(at(), item.name);
    throw new InvalidInputError({
      field: path,
      message: `${path} must be a string (the tool's name in ${item.format})`,
    });
  }
  return plain;
}

/**
 * Whether a list of expected calls is written as groups (`[[a, b], [c]]`: `a` and `b` in any
 * order, both before `c`) rather than as calls; a list mixing the two is an error naming `field`.
 */
export function isGroupList(list: readonly unknown[], field: string): boolean {
  let arrays = 0;
  for (const item of list) if (Array.isArray(item)) arrays++;
  if (arrays > 0 && arrays < list.length) {
    throw new InvalidInputError({
      field,
      message: `${field} mixes calls and groups; give either a list of calls or a list of groups (lists)`,
    });
  }
  return arrays > 0;
}

/**
 * Each expected call of a list, in order, whether written as calls or as groups, replaced by what
 * `visit` gives (`where` names it: `field[i]` or `field[g][i]`); the list's shape is kept.
 */
export function mapExpectedList(
  list: readonly unknown[],
  field: string,
  visit: (entry: unknown, where: string) => unknown,
): unknown[] {
  if (isGroupList(list, field)) {
    return list.map((group, g) =>
      (group as unknown[]).map((entry, i) => visit(entry, `${field}[${g}][${i}]`)),
    );
  }
  return list.map((entry, i) => visit(entry, `${field}[${i}]`));
}

/** A call's record in toolscore's spelling, and which key holds its arguments (if any). */
export interface CallFields {
  readonly record: Record<string, unknown>;
  readonly argumentsKey: ArgumentKey | undefined;
}

/**
 * The one reader of a call object's fields, for calls made and calls expected alike: a provider's
 * call item (OpenAI `tool_calls` and Responses `function_call` items, Anthropic `tool_use` and
 * Bedrock `toolUse` blocks, Gemini `functionCall` parts, AI SDK `tool-call` parts) is read into
 * toolscore's keys; the arguments may be under exactly one of {@link ARGUMENT_KEYS}; any other
 * key is an error naming it, so nothing a caller wrote is ever ignored. `where` names the call in
 * errors; it is called only when there is one.
 */
export function readCallFields(value: unknown, side: CallSide, where: () => string): CallFields {
  if (!isJsonObject(value)) {
    const field = where();
    throw new InvalidInputError({
      field,
      message: `${field} must be a tool call object like { name: "search" }, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`,
    });
  }
  let record = value as Record<string, unknown>;
  const item = providerItemOf(record);
  if (item !== undefined) record = fromProviderItem(record, item, where);
  else checkKeys(record, side === "called" ? calledKeys : expectedKeys, where);
  if (typeof record.name !== "string") {
    const path = childPath(where(), "name");
    const name = record.name;
    throw new InvalidInputError({
      field: path,
      message: `${path} must be a string (the tool's name), got ${name === null ? "null" : typeof name}`,
    });
  }
  // Named reads first (the engine makes them fast); the spellings are counted only when one of
  // the rarer ones is there.
  let argumentsKey: ArgumentKey | undefined =
    record.inputParameters === undefined ? undefined : "inputParameters";
  if (
    record.arguments !== undefined ||
    record.args !== undefined ||
    record.input_parameters !== undefined ||
    record.input !== undefined
  ) {
    const given = ARGUMENT_KEYS.filter((key) => record[key] !== undefined);
    if (given.length > 1) {
      const field = where();
      throw new InvalidInputError({
        field,
        message: `${field} gives its arguments twice (${given.join(" and ")}); keep one`,
      });
    }
    argumentsKey = given[0];
  }
  return { record, argumentsKey };
}

/**
 * Arguments given as JSON text (how OpenAI writes them) read into a value: `{ value }`, with
 * `value` undefined for blank text; `undefined` when the text is not JSON.
 */
export function parseArgumentsText(text: string): { value: unknown } | undefined {
  if (text.trim() === "") return { value: undefined };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
