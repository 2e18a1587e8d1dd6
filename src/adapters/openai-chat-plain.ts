import { DEFAULT_MAX_DEPTH, isJsonObject } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import { numberSpellings } from "../core/number-spellings.js";
import type { ToolCall } from "../core/tool-call.js";
import type {
  Trajectory,
  TrajectoryStep,
  TrajectoryTurn,
  TrajectoryWarning,
} from "../core/trajectory.js";
import { cleanJson } from "./trajectory-builder.js";

/** A call as it is built: the public fields, in the order `parseTrajectory` gives them. */
interface PlainCall {
  name: string;
  inputParameters: JsonObject;
  output: string | null;
  type: "FUNCTION";
  id: string;
  isError: boolean;
}

// The key checks below: whether every own and inherited enumerable key of an object is one a
// plain message (call, function) may have. Any other key sends the list to the general reader.
// One loop each, with the keys written out: a shared loop taking the test as a function costs
// a tenth of the whole read.

function onlyMessageKeys(record: object): boolean {
  for (const key in record) {
    if (
      key !== "role" &&
      key !== "content" &&
      key !== "tool_calls" &&
      key !== "tool_call_id" &&
      key !== "name" &&
      key !== "refusal"
    ) {
      return false;
    }
  }
  return true;
}

function onlyCallKeys(record: object): boolean {
  for (const key in record) if (key !== "id" && key !== "type" && key !== "function") return false;
  return true;
}

function onlyFunctionKeys(record: object): boolean {
  for (const key in record) if (key !== "name" && key !== "arguments") return false;
  return true;
}

/** Text content as the general reader keeps it: a string, or nothing (null or absent). */
function isPlainText(content: unknown): content is string | null | undefined {
  return content === undefined || content === null || typeof content === "string";
}

/** Up to this many entries, an entry is found with a scan: a Map costs more to fill. */
const SCAN_LIMIT = 16;

/**
 * Arguments parsed from JSON text, kept by their text for lists read together
 * (`parseTrajectories`): a text seen again is not parsed again, and its calls share the object.
 * Looked up by a scan while there are few (a Map costs more to fill), through a Map beyond.
 */
export class ParsedArguments {
  readonly #texts: string[] = [];
  readonly #values: JsonObject[] = [];
  #byText: Map<string, JsonObject> | undefined;

  get(text: string): JsonObject | undefined {
    if (this.#byText !== undefined) return this.#byText.get(text);
    const texts = this.#texts;
    for (let index = 0; index < texts.length; index++) {
      if (texts[index] === text) return this.#values[index];
    }
    return undefined;
  }

  set(text: string, value: JsonObject): void {
    if (this.#byText !== undefined) {
      this.#byText.set(text, value);
      return;
    }
    this.#texts.push(text);
    this.#values.push(value);
    if (this.#texts.length > SCAN_LIMIT) {
      this.#byText = new Map(this.#texts.map((known, index) => [known, this.#values[index]]));
    }
  }
}

/** The arguments of a call as `TrajectoryBuilder` keeps them; undefined when they need a warning. */
function plainArguments(
  text: unknown,
  message: number,
  index: number,
  parsedBefore: ParsedArguments | undefined,
): JsonObject | undefined {
  if (typeof text !== "string") return undefined;
  if (text === "") return {};
  // Parsed JSON is clean; only a long text can nest deeper than the limit (and is not kept).
  const short = text.length < 2 * DEFAULT_MAX_DEPTH;
  if (short && parsedBefore !== undefined) {
    const known = parsedBefore.get(text);
    if (known !== undefined) return known;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Whole numbers written as 3.0 are recorded by the general reader.
  if (!isJsonObject(parsed) || numberSpellings(text) !== undefined) return undefined;
  if (!short) return cleanJson(parsed, callPath(message, index)) as JsonObject;
  parsedBefore?.set(text, parsed);
  return parsed;
}

function callPath(message: number, index: number): string {
  return `$[${message}].tool_calls[${index}]`;
}

/** The numbers `start` to `end - 1`, in a list made at its size (pushing would grow it). */
function range(start: number, end: number): number[] {
  const list = new Array<number>(end - start);
  for (let at = start; at < end; at++) list[at - start] = at;
  return list;
}

/** Where each call of a list the reader took is, in order (for the rare warning that needs it). */
function callPaths(list: readonly unknown[]): string[] {
  const paths: string[] = [];
  list.forEach((message, at) => {
    const toolCalls = (message as { tool_calls?: unknown }).tool_calls;
    if (Array.isArray(toolCalls)) toolCalls.forEach((_, index) => paths.push(callPath(at, index)));
  });
  return paths;
}

/** The call with `id` among `calls`, by a scan from the newest or, in a long list, `byId`. */
function findCall(
  calls: readonly PlainCall[],
  byId: ReadonlyMap<string, PlainCall> | undefined,
  id: string,
): PlainCall | undefined {
  if (byId !== undefined) return byId.get(id);
  for (let index = calls.length - 1; index >= 0; index--) {
    if (calls[index].id === id) return calls[index];
  }
  return undefined;
}

/**
 * Reads a list of OpenAI chat messages of the plainest shape (system, user, assistant messages
 * with text content and `function` tool calls whose arguments are JSON text, `tool` messages
 * answering them by id) in one pass, without the format vote or the JSON paths the general
 * reader builds for warnings it might give. Returns undefined as soon as the list has anything
 * else: another key or role, content parts, custom tools, a result without its call, arguments
 * that are not a JSON object, a call id used twice. `parseTrajectory` then reads the list the
 * general way. Both ways give the same trajectory; a property test holds them to it.
 * `parsedBefore`: arguments of lists read with this one, reused when their text is the same.
 */
export function readPlainOpenAIChat(
  list: readonly unknown[],
  parsedBefore?: ParsedArguments,
): Trajectory | undefined {
  const calls: PlainCall[] = [];
  const steps: TrajectoryStep[] = [];
  // Per turn, its text (if any) and where its steps, calls and replies begin (each runs on to the
  // next turn's), in one list: the turns' own lists are made at the end, at their size.
  const turnMarks: (string | number | undefined)[] = [];
  // The assistant's texts, as the general reader keeps them.
  let replies: string[] | undefined;
  // Filled once the list has more calls than a scan should look through.
  let byId: Map<string, PlainCall> | undefined;
  for (let at = 0; at < list.length; at++) {
    const value: unknown = list[at];
    if (!isJsonObject(value) || !onlyMessageKeys(value)) return undefined;
    // Its keys may be there and undefined: read as unknown.
    const message: Record<string, unknown> = value;
    const { role, content } = message;
    if (!isPlainText(content)) return undefined;
    if (role === "system" || role === "developer" || role === "user") {
      if (message.tool_calls !== undefined || message.tool_call_id !== undefined) return undefined;
      if (role !== "user") continue;
      turnMarks.push(
        typeof content === "string" ? content : undefined,
        steps.length,
        calls.length,
        replies?.length ?? 0,
      );
    } else if (role === "assistant") {
      const toolCalls = message.tool_calls;
      if (message.tool_call_id !== undefined) return undefined;
      if (typeof content === "string" && content !== "") {
        if (turnMarks.length === 0) turnMarks.push(undefined, 0, 0, 0);
        (replies ??= []).push(content);
      }
      if (toolCalls === undefined) continue;
      if (!Array.isArray(toolCalls)) return undefined;
      if (toolCalls.length === 0) continue;
      if (turnMarks.length === 0) turnMarks.push(undefined, 0, 0, 0);
      const first = calls.length;
      for (let index = 0; index < toolCalls.length; index++) {
        const item: unknown = (toolCalls as unknown[])[index];
        if (!isJsonObject(item) || !onlyCallKeys(item)) return undefined;
        const { id, function: fn } = item;
        if (typeof id !== "string" || id === "" || findCall(calls, byId, id) !== undefined)
          return undefined;
        if (!isJsonObject(fn) || !onlyFunctionKeys(fn)) return undefined;
        const name = fn.name;
        if (typeof name !== "string") return undefined;
        const inputParameters = plainArguments(fn.arguments, at, index, parsedBefore);
        if (inputParameters === undefined) return undefined;
        const call: PlainCall = {
          name,
          inputParameters,
          output: null,
          type: "FUNCTION",
          id,
          isError: false,
        };
        calls.push(call);
        if (byId !== undefined) byId.set(id, call);
        else if (calls.length > SCAN_LIMIT) byId = new Map(calls.map((known) => [known.id, known]));
      }
      steps.push({ index: steps.length, calls: range(first, calls.length) });
    } else if (role === "tool") {
      const id = message.tool_call_id;
      if (message.tool_calls !== undefined || typeof content !== "string") return undefined;
      if (typeof id !== "string") return undefined;
      const call = findCall(calls, byId, id);
      // A result without its call, or a second one: the general reader warns about it.
      if (call === undefined || call.output !== null) return undefined;
      call.output = content;
    } else {
      return undefined;
    }
  }
  const warnings: TrajectoryWarning[] = [];
  let paths: string[] | undefined;
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index];
    if (call.output !== null) continue;
    paths ??= callPaths(list);
    warnings.push({
      code: "call-without-result",
      message: `the call to ${call.name} has no result`,
      path: paths[index],
    });
  }
  const turns: TrajectoryTurn[] = [];
  for (let at = 0; at < turnMarks.length; at += 4) {
    const last = at + 4 === turnMarks.length;
    const input = turnMarks[at] as string | undefined;
    const stepList = range(
      turnMarks[at + 1] as number,
      last ? steps.length : (turnMarks[at + 5] as number),
    );
    const callList = range(
      turnMarks[at + 2] as number,
      last ? calls.length : (turnMarks[at + 6] as number),
    );
    const replyList = range(
      turnMarks[at + 3] as number,
      last ? (replies?.length ?? 0) : (turnMarks[at + 7] as number),
    );
    const index = at / 4;
    const turn: { -readonly [K in keyof TrajectoryTurn]: TrajectoryTurn[K] } =
      input === undefined
        ? { index, steps: stepList, calls: callList }
        : { index, input, steps: stepList, calls: callList };
    if (replyList.length > 0) turn.replies = replyList;
    turns.push(turn);
  }
  const publicCalls: ToolCall[] = calls;
  // Two literals, not a spread: each keeps one shape, which the readers of a case rely on.
  return replies === undefined
    ? {
        format: "openai-chat",
        calls: publicCalls,
        steps,
        turns,
        tools: [],
        warnings,
        nameMapping: [],
      }
    : {
        format: "openai-chat",
        calls: publicCalls,
        steps,
        turns,
        tools: [],
        warnings,
        nameMapping: [],
        replies,
      };
}
