/**
 * Simulated tools at the edge: a run's simulator, its answers given the time their latency says
 * (bounded by the run's deadline), as a module agent calls them from its context and the MCP
 * server serves them.
 */
import { isJsonObject } from "../core/json.js";
import type { JsonValue } from "../core/json.js";
import { answerText, createToolSimulator } from "../simulate/simulate-tools.js";
import type {
  SimulatedCall,
  SimulatedToolSpec,
  ToolSimulatorOptions,
} from "../simulate/simulate-tools.js";

/** What a simulated tool answered: the text the agent reads, and whether it is an error. */
export interface ToolResult {
  readonly text: string;
  readonly isError: boolean;
  /** The output as JSON, when the tool answered one. */
  readonly output?: JsonValue;
}

/** A run's simulated tools: what they are, and a call of one. */
export interface Toolbox {
  readonly tools: readonly SimulatedToolSpec[];
  /** Calls a tool; resolves after the answer's latency (sooner when `signal` aborts). */
  call(name: string, args: unknown, signal?: AbortSignal): Promise<ToolResult>;
  /** The calls answered so far, as the simulator recorded them. */
  readonly calls: readonly SimulatedCall[];
}

/** A toolbox over a new simulator; latencies longer than `maxLatencyMs` are cut to it. */
export function createToolbox(
  options: ToolSimulatorOptions & { readonly maxLatencyMs: number },
): Toolbox {
  const simulator = createToolSimulator(options);
  return {
    tools: options.tools,
    calls: simulator.calls,
    async call(name, args, signal) {
      if (args !== undefined && !isJsonObject(args)) {
        return { text: `the arguments of ${name} must be an object`, isError: true };
      }
      const answer = simulator.call(name, args ?? {});
      await pause(Math.min(answer.latencyMs, options.maxLatencyMs), signal);
      const text = answerText(answer);
      return answer.kind === "output"
        ? { text, isError: false, output: answer.output }
        : { text, isError: true };
    },
  };
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || signal?.aborted === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
