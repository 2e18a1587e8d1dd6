import { observe } from "./observe.js";
import type { ObserveOptions } from "./observe.js";

/** A tool as the Vercel AI SDK defines it (`tool({ ... })`): what matters here is `execute`. */
export interface ExecutableTool {
  execute?: (...args: never[]) => unknown;
}

/** The AI SDK passes `{ toolCallId, messages, abortSignal }` as the second argument. */
const aiSdkCallId = (args: readonly unknown[]): string | undefined => {
  const id = (args.at(1) as { toolCallId?: unknown } | undefined)?.toolCallId;
  return typeof id === "string" ? id : undefined;
};

/**
 * One AI SDK tool (`tool({ description, inputSchema, execute })`) whose calls are recorded as
 * tool spans named `name`, with the SDK's `toolCallId`; the rest of the tool is left as it is.
 * A tool without `execute` (client-side) is returned unchanged.
 */
export function observeTool<T extends ExecutableTool>(
  name: string,
  tool: T,
  options: Omit<ObserveOptions, "name" | "type"> = {},
): T {
  if (typeof tool.execute !== "function") return tool;
  return {
    ...tool,
    execute: observe(tool.execute, { toolCallId: aiSdkCallId, ...options, name, type: "tool" }),
  };
}

/**
 * The `tools` map given to `generateText` / `streamText` with every tool observed under its key,
 * so `toolsCalled` fills itself as the model calls them.
 *
 * @example
 * const result = await generateText({ model, tools: observeTools({ getWeather, bookFlight }), prompt });
 */
export function observeTools<T extends Record<string, ExecutableTool>>(tools: T): T {
  const out: Record<string, ExecutableTool> = {};
  for (const [name, tool] of Object.entries(tools)) out[name] = observeTool(name, tool);
  return out as T;
}

/**
 * Plain functions by tool name (an OpenAI function-calling loop's dispatch table), each
 * observed as a tool: `functions[call.function.name](JSON.parse(call.function.arguments))`.
 */
export function observeFunctions<T extends Record<string, (...args: never[]) => unknown>>(
  functions: T,
): T {
  const out: Record<string, (...args: never[]) => unknown> = {};
  for (const [name, fn] of Object.entries(functions)) {
    out[name] = observe(fn, { name, type: "tool" });
  }
  return out as T;
}
