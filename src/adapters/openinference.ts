import { asId, asString, jsonOrText } from "./read.js";
import {
  addMessageCalls,
  addSpanUsage,
  historyCalls,
  readSpans,
  spanMs,
  stepGroups,
} from "./otlp.js";
import type { DecodedSpan, HistoryCall, MessageCall } from "./otlp.js";
import { readToolSpecs } from "./tool-spec.js";
import type { TrajectoryBuilder } from "./trajectory-builder.js";

interface FlatCall {
  id?: string;
  name?: string;
  arguments?: unknown;
}

const messageCall =
  /^llm\.(input|output)_messages\.(\d+)\.message\.tool_calls\.(\d+)\.tool_call\.(id|function\.name|function\.arguments)$/;
const inputMessage = /^llm\.input_messages\.(\d+)\.message\.(role|tool_call_id|content|name)$/;
const toolDefinition = /^llm\.tools\.(\d+)\.tool\.(json_schema|name|description)$/;

function kindOf(span: DecodedSpan): string | undefined {
  return asString(span.attributes.get("openinference.span.kind"))?.toUpperCase();
}

function byIndex<T>(map: Map<number, T>, index: number, create: () => T): T {
  let value = map.get(index);
  if (value === undefined) {
    value = create();
    map.set(index, value);
  }
  return value;
}

/**
 * OpenInference spans (OTLP JSON): `TOOL` spans (`tool.name`, arguments in `input.value`, output in
 * `output.value`, parsed when `output.mime_type` is JSON, errors from the span status) ordered by
 * start time; the flattened `llm.output_messages.*.message.tool_calls.*` of `LLM` spans group
 * them into steps and stand in for them (results from `tool` messages of later `LLM` spans) when
 * a trace has no `TOOL` spans; when no span gives any, the tool calls of `llm.input_messages`
 * (the conversation's history) do. Tools come from `llm.tools.*.tool.*` and `tool.parameters`.
 */
export function readOpenInference(input: unknown, builder: TrajectoryBuilder): void {
  const spans = readSpans(input, builder);
  readOpenInferenceCalls(spans, builder);
  addSpanUsage(spans, builder, {
    usage: {
      prompt_tokens: "llm.token_count.prompt",
      completion_tokens: "llm.token_count.completion",
    },
    model: ["llm.model_name"],
  });
}

function readOpenInferenceCalls(spans: readonly DecodedSpan[], builder: TrajectoryBuilder): void {
  const messageCalls: MessageCall[] = [];
  const inHistory: HistoryCall[] = [];
  const results: ToolResults = new Map();
  const state: LlmCalls = { messageCalls, inHistory, results, step: 0 };
  for (const [spanIndex, span] of spans.entries()) {
    if (kindOf(span) === "LLM") readLlmSpan(span, spanIndex, state, builder);
  }

  const toolSpans = spans.filter((span) => kindOf(span) === "TOOL");
  if (toolSpans.length === 0) {
    // Calls held only in the conversation's history count when nothing else gives them.
    addMessageCalls(
      builder,
      messageCalls.length > 0 ? messageCalls : historyCalls(inHistory),
      results,
    );
    return;
  }

  addToolSpans(toolSpans, messageCalls, results, builder);
}

type ToolResults = Map<string, { output: unknown; isError: boolean; path: string }>;

/** What the LLM spans give, read span by span: the calls made, those in the history, results. */
interface LlmCalls {
  readonly messageCalls: MessageCall[];
  readonly inHistory: HistoryCall[];
  readonly results: ToolResults;
  /** The step the next model turn with calls makes. */
  step: number;
}

/** An LLM span's tools, tool results, history calls and calls made, from its flat attributes. */
function readLlmSpan(
  span: DecodedSpan,
  spanIndex: number,
  state: LlmCalls,
  builder: TrajectoryBuilder,
): void {
  const outputs = new Map<number, Map<number, FlatCall>>();
  const inputCalls = new Map<number, Map<number, FlatCall>>();
  const inputs = new Map<number, Record<string, unknown>>();
  const tools = new Map<number, Record<string, unknown>>();
  for (const [key, value] of span.attributes) {
    let match = messageCall.exec(key);
    if (match) {
      const call = byIndex(
        byIndex(
          match[1] === "output" ? outputs : inputCalls,
          Number(match[2]),
          () => new Map<number, FlatCall>(),
        ),
        Number(match[3]),
        (): FlatCall => ({}),
      );
      if (match[4] === "id") call.id = asId(value);
      else if (match[4] === "function.name") call.name = asString(value);
      else call.arguments = value;
      continue;
    }
    match = inputMessage.exec(key);
    if (match) {
      byIndex(inputs, Number(match[1]), (): Record<string, unknown> => ({}))[match[2]] = value;
      continue;
    }
    match = toolDefinition.exec(key);
    if (match)
      byIndex(tools, Number(match[1]), (): Record<string, unknown> => ({}))[match[2]] = value;
  }
  for (const [, tool] of [...tools].sort((a, b) => a[0] - b[0])) {
    const schema = jsonOrText(tool.json_schema);
    const specs = readToolSpecs(schema);
    const name = asString(tool.name);
    if (name !== undefined) {
      builder.addTool({
        name,
        ...(asString(tool.description) === undefined
          ? {}
          : { description: tool.description as string }),
        ...(specs[0]?.parameters ? { parameters: specs[0].parameters } : {}),
      });
    } else {
      for (const spec of specs) builder.addTool(spec);
    }
  }
  for (const [, message] of [...inputs].sort((a, b) => a[0] - b[0])) {
    const id = asId(message.tool_call_id);
    if (message.role === "tool" && id !== undefined && !state.results.has(id)) {
      state.results.set(id, { output: message.content ?? null, isError: false, path: span.path });
    }
  }
  // The conversation so far: calls the model made in earlier turns.
  for (const [message, calls] of [...inputCalls].sort((a, b) => a[0] - b[0])) {
    for (const [at, call] of [...calls].sort((a, b) => a[0] - b[0])) {
      const where = `${span.path}.attributes["llm.input_messages.${message}.message.tool_calls.${at}"]`;
      if (call.name === undefined || call.name === "") {
        builder.warn("missing-name", "a tool call without function.name was skipped", where);
        continue;
      }
      state.inHistory.push({
        id: call.id,
        name: call.name,
        arguments: call.arguments,
        span: spanIndex,
        message,
        path: where,
      });
    }
  }
  for (const [message, calls] of [...outputs].sort((a, b) => a[0] - b[0])) {
    let found = false;
    for (const [at, call] of [...calls].sort((a, b) => a[0] - b[0])) {
      if (call.name === undefined || call.name === "") {
        builder.warn(
          "missing-name",
          "a tool call without function.name was skipped",
          `${span.path}.attributes["llm.output_messages.${message}.message.tool_calls.${at}"]`,
        );
        continue;
      }
      state.messageCalls.push({
        id: call.id,
        name: call.name,
        arguments: call.arguments,
        step: state.step,
        path: span.path,
      });
      found = true;
    }
    if (found) state.step++;
  }
}

/** TOOL spans as the run's calls, joined to the calls the model made for ids and steps. */
function addToolSpans(
  toolSpans: readonly DecodedSpan[],
  messageCalls: readonly MessageCall[],
  results: ToolResults,
  builder: TrajectoryBuilder,
): void {
  // Join tool spans to the calls the model made: by id when the span has one, else by name in order.
  const unmatched = [...messageCalls];
  const items = toolSpans.map((span) => {
    const id =
      asId(span.attributes.get("tool_call.id")) ?? asId(span.attributes.get("tool.call_id"));
    const name = asString(span.attributes.get("tool.name")) ?? span.name;
    const position = unmatched.findIndex((call) =>
      id !== undefined ? call.id === id : call.name === name,
    );
    const call = position >= 0 ? unmatched.splice(position, 1)[0] : undefined;
    return { span, name, id: id ?? call?.id, step: call?.step };
  });
  for (const group of stepGroups(items)) {
    builder.startStep();
    for (const { span, name, id } of group) {
      if (name === "") {
        builder.warn("missing-name", "a TOOL span without tool.name was skipped", span.path);
        continue;
      }
      const description = asString(span.attributes.get("tool.description"));
      const parameters = readToolSpecs({
        name,
        parameters: span.attributes.get("tool.parameters"),
      })[0]?.parameters;
      builder.addTool({
        name,
        ...(description === undefined ? {} : { description }),
        ...(parameters === undefined ? {} : { parameters }),
      });
      const mime = asString(span.attributes.get("output.mime_type")) ?? "";
      const output = span.attributes.get("output.value");
      builder.addCall({
        name,
        arguments: span.attributes.get("input.value"),
        id,
        path: span.path,
        durationMs: spanMs(span),
        result: {
          output: mime.includes("json")
            ? jsonOrText(output)
            : (output ?? (id === undefined ? null : (results.get(id)?.output ?? null))),
          isError: span.isError,
        },
      });
    }
    builder.endStep();
  }
}
