import { DEFAULT_MAX_DEPTH, isJsonObject } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import { markValidated } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import type { Trajectory, TrajectoryStep, TrajectoryWarning } from "../core/trajectory.js";
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

/** The arguments of a call as `TrajectoryBuilder` keeps them; undefined when they need a warning. */
function plainArguments(text: unknown, message: number, index: number): JsonObject | undefined {
  if (typeof text !== "string") return undefined;
  if (text === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(parsed)) return undefined;
  // Parsed JSON is clean; only a long text can nest deeper than the limit.
  return text.length < 2 * DEFAULT_MAX_DEPTH
    ? parsed
    : (cleanJson(parsed, callPath(message, index)) as JsonObject);
}

/** Up to this many calls, a call is found by id with a scan: a Map costs more to fill. */
const SCAN_LIMIT = 16;

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

function callPath(message: number, index: number): string {
  return `$[${message}].tool_calls[${index}]`;
}

/**
 * Reads a list of OpenAI chat messages of the plainest shape (system, user, assistant messages
 * with text content and `function` tool calls whose arguments are JSON text, `tool` messages
 * answering them by id) in one pass, without the format vote or the JSON paths the general
 * reader builds for warnings it might give. Returns undefined as soon as the list has anything
 * else: another key or role, content parts, custom tools, a result without its call, arguments
 * that are not a JSON object, a call id used twice. `parseTrajectory` then reads the list the
 * general way. Both ways give the same trajectory; a property test holds them to it.
 */
export function readPlainOpenAIChat(list: readonly unknown[]): Trajectory | undefined {
  const calls: PlainCall[] = [];
  const steps: TrajectoryStep[] = [];
  const turns: { input?: string; index: number; steps: number[]; calls: number[] }[] = [];
  // Filled once the list has more calls than a scan should look through.
  let byId: Map<string, PlainCall> | undefined;
  // Where each call is in the list, for the warning of a call that gets no result.
  const places: number[] = [];
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
      turns.push(
        typeof content === "string"
          ? { index: turns.length, input: content, steps: [], calls: [] }
          : { index: turns.length, steps: [], calls: [] },
      );
    } else if (role === "assistant") {
      const toolCalls = message.tool_calls;
      if (message.tool_call_id !== undefined) return undefined;
      if (toolCalls === undefined) continue;
      if (!Array.isArray(toolCalls)) return undefined;
      if (toolCalls.length === 0) continue;
      if (turns.length === 0) turns.push({ index: 0, steps: [], calls: [] });
      const turn = turns[turns.length - 1];
      const members: number[] = [];
      for (let index = 0; index < toolCalls.length; index++) {
        const item: unknown = (toolCalls as unknown[])[index];
        if (!isJsonObject(item) || !onlyCallKeys(item)) return undefined;
        const { id, function: fn } = item;
        if (typeof id !== "string" || id === "" || findCall(calls, byId, id) !== undefined)
          return undefined;
        if (!isJsonObject(fn) || !onlyFunctionKeys(fn)) return undefined;
        const name = fn.name;
        if (typeof name !== "string") return undefined;
        const inputParameters = plainArguments(fn.arguments, at, index);
        if (inputParameters === undefined) return undefined;
        const call: PlainCall = {
          name,
          inputParameters,
          output: null,
          type: "FUNCTION",
          id,
          isError: false,
        };
        members.push(calls.length);
        turn.calls.push(calls.length);
        calls.push(call);
        if (byId !== undefined) byId.set(id, call);
        else if (calls.length > SCAN_LIMIT) byId = new Map(calls.map((known) => [known.id, known]));
        places.push(at, index);
      }
      turn.steps.push(steps.length);
      steps.push({ index: steps.length, calls: members });
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
  calls.forEach((call, index) => {
    if (call.output !== null) return;
    warnings.push({
      code: "call-without-result",
      message: `the call to ${call.name} has no result`,
      path: callPath(places[2 * index], places[2 * index + 1]),
    });
  });
  const publicCalls: ToolCall[] = calls;
  markValidated(publicCalls);
  return {
    format: "openai-chat",
    calls: publicCalls,
    steps,
    turns,
    tools: [],
    warnings,
    nameMapping: [],
  };
}
