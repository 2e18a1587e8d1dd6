/**
 * Simulated tools: a run's tool calls answered from fixtures instead of the real systems, with
 * faults on cue. Pure given the tools, the fixtures, the seed and the calls: the same calls get
 * the same answers, so a recorded run replays exactly. A simulator keeps one run's state.
 */
import { jsonEquals } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { ToolSpec } from "../core/test-case.js";
import { SchemaValidator } from "../matchers/schema-validation.js";
import { satisfies } from "../matchers/value-matchers.js";
import { exampleOfSchema } from "./schema-example.js";
import type { FaultKind, ToolFixture } from "./tool-outputs.js";

/** A tool the simulator serves: its definition, and what its output looks like, when known. */
export interface SimulatedToolSpec extends ToolSpec {
  /** The JSON Schema of its output (MCP's `outputSchema`): an answer made when no entry answers. */
  readonly outputSchema?: JsonObject;
}

export interface ToolSimulatorOptions {
  /** The tools served; a call of another tool is refused. Empty: any tool the fixtures answer. */
  readonly tools: readonly SimulatedToolSpec[];
  /** The entries, in the order they are tried: the first that picks a call answers it. */
  readonly fixtures: readonly ToolFixture[];
  /** The run's seed: the draws of `share` entries follow from it, the run and the call. */
  readonly seed: number;
  /** Which run this is (case and attempt): runs of one seed draw apart. */
  readonly run: string;
  /** Where the tools' schemas are compiled; runs that share one compile each schema once. */
  readonly schemas?: SchemaValidator;
}

/** How the simulator answered a call. */
export type ToolAnswer =
  | {
      readonly kind: "output";
      readonly output: JsonValue;
      /** The entry that answered, or `outputSchema` when the answer was made from the schema. */
      readonly from: string;
      readonly latencyMs: number;
    }
  | {
      readonly kind: "fault";
      readonly fault: Exclude<FaultKind, "latency">;
      /** What the agent is told (a malformed output's cut text). */
      readonly text: string;
      readonly from: string;
      readonly latencyMs: number;
      /** Whether the call's effect happened despite the fault. */
      readonly applied: boolean;
    }
  | {
      /** Not a tool served, or arguments its schema refuses: the agent is told why. */
      readonly kind: "refused";
      readonly text: string;
      readonly latencyMs: number;
    }
  | {
      /** No entry answers the call and the tool has no output schema: a gap in the fixtures. */
      readonly kind: "unanswered";
      readonly text: string;
      readonly latencyMs: number;
    };

/** A call as the simulator recorded it. */
export interface SimulatedCall {
  readonly tool: string;
  readonly arguments: JsonObject;
  /** Which call of the tool in the run, from 1. */
  readonly call: number;
  readonly answer: ToolAnswer["kind"];
  readonly fault?: Exclude<FaultKind, "latency">;
  readonly from?: string;
  readonly latencyMs?: number;
}

export interface ToolSimulator {
  /** Answers one call, and records it. */
  call(tool: string, args: JsonObject): ToolAnswer;
  /** The calls answered so far, in order. */
  readonly calls: readonly SimulatedCall[];
  /** The run's state as the entries set it. */
  readonly state: Readonly<JsonObject>;
}

/** The text the agent is told for an answer: an output's JSON (text as it is), or why it failed. */
export function answerText(answer: ToolAnswer): string {
  if (answer.kind !== "output") return answer.text;
  return typeof answer.output === "string" ? answer.output : JSON.stringify(answer.output);
}

/** Makes a run's simulator (see the file's head). */
export function createToolSimulator(options: ToolSimulatorOptions): ToolSimulator {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const validator = options.schemas ?? new SchemaValidator();
  const state: JsonObject = {};
  const calls: SimulatedCall[] = [];
  const counts = new Map<string, number>();
  const picks = (fixture: ToolFixture, tool: string, args: JsonObject, call: number): boolean =>
    (fixture.tool === "*" || fixture.tool === tool) &&
    (fixture.calls === undefined || fixture.calls.includes(call)) &&
    (fixture.arguments === undefined ||
      Object.keys(fixture.arguments).every((key) =>
        satisfies(
          (fixture.arguments as Record<string, never>)[key],
          Object.hasOwn(args, key) ? args[key] : undefined,
        ),
      )) &&
    (fixture.when === undefined ||
      Object.keys(fixture.when).every((key) =>
        jsonEquals((fixture.when as JsonObject)[key], state[key] ?? null),
      )) &&
    (fixture.share === undefined ||
      draw(options.seed, options.run, tool, call, fixture.source) < fixture.share);
  const set = (values: JsonObject | undefined) => {
    if (values !== undefined) for (const key of Object.keys(values)) state[key] = values[key];
  };
  const answer = (tool: string, args: JsonObject, call: number): ToolAnswer => {
    const spec = byName.get(tool);
    if (spec === undefined && byName.size > 0) {
      return {
        kind: "refused",
        text: `there is no tool named ${JSON.stringify(tool)}`,
        latencyMs: 0,
      };
    }
    if (spec?.parameters !== undefined) {
      const violations = validator.validate(spec.parameters, args);
      if (violations.length > 0) {
        const why = violations.map((v) => `${v.path}: ${v.message}`).join("; ");
        return { kind: "refused", text: `invalid arguments for ${tool}: ${why}`, latencyMs: 0 };
      }
    }
    // In order: latency entries add their delay; the first other entry that picks the call answers.
    let latencyMs = 0;
    let chosen: ToolFixture | undefined;
    for (const fixture of options.fixtures) {
      if (!picks(fixture, tool, args, call)) continue;
      latencyMs += fixture.latencyMs ?? 0;
      if (fixture.answer.kind === "output" || fixture.answer.fault !== "latency") {
        chosen = fixture;
        break;
      }
    }
    const fault = chosen?.answer.kind === "fault" ? chosen : undefined;
    // What the call would have answered, for a fault's state and a malformed output's text.
    const output =
      fault === undefined
        ? chosen
        : options.fixtures.find(
            (fixture) => fixture.answer.kind === "output" && picks(fixture, tool, args, call),
          );
    const value =
      output?.answer.kind === "output"
        ? output.answer.output
        : spec?.outputSchema === undefined
          ? undefined
          : exampleOfSchema(spec.outputSchema);
    if (fault?.answer.kind === "fault" && fault.answer.fault !== "latency") {
      const kind = fault.answer.fault;
      const applied = fault.answer.applied ?? (kind === "timeout" || kind === "malformed");
      set(fault.sets);
      if (applied) set(output?.sets);
      return {
        kind: "fault",
        fault: kind,
        text: faultText(fault.answer, tool, value),
        from: fault.source,
        latencyMs,
        applied,
      };
    }
    if (value === undefined) {
      return {
        kind: "unanswered",
        text: `no simulated output for ${tool} with these arguments: add an entry for them to the tool outputs`,
        latencyMs,
      };
    }
    set(output?.sets);
    return { kind: "output", output: value, from: output?.source ?? "outputSchema", latencyMs };
  };
  return {
    call(tool, args) {
      const call = (counts.get(tool) ?? 0) + 1;
      counts.set(tool, call);
      const given = answer(tool, args, call);
      const recorded: {
        -readonly [K in keyof SimulatedCall]: SimulatedCall[K];
      } = { tool, arguments: args, call, answer: given.kind };
      if (given.kind === "fault") recorded.fault = given.fault;
      if (given.kind === "fault" || given.kind === "output") recorded.from = given.from;
      if (given.latencyMs > 0) recorded.latencyMs = given.latencyMs;
      calls.push(recorded);
      return given;
    },
    calls,
    state,
  };
}

function faultText(
  answer: Extract<ToolFixture["answer"], { kind: "fault" }>,
  tool: string,
  output: JsonValue | undefined,
): string {
  switch (answer.fault) {
    case "malformed": {
      // Cut in the middle: what arrives does not parse.
      const whole = answer.message ?? JSON.stringify(output ?? { result: "ok" });
      return whole.slice(0, Math.max(1, Math.floor(whole.length / 2)));
    }
    case "timeout":
      return answer.message ?? `${tool} timed out before answering`;
    case "rate-limit":
      return (
        answer.message ?? `rate limit exceeded (429): retry after ${answer.retryAfterMs ?? 1000} ms`
      );
    default:
      return answer.message ?? `${tool} failed`;
  }
}

/**
 * A draw in [0, 1) from the seed, the run, the tool, its call number and the entry: the same
 * whatever other calls the run made, so that one call's fault does not move another's.
 */
export function draw(seed: number, run: string, tool: string, call: number, entry: string): number {
  // FNV-1a over the parts, then murmur3's finalizer to spread the bits.
  let hash = 0x811c9dc5;
  const text = `${seed}\u0000${run}\u0000${tool}\u0000${call}\u0000${entry}`;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 2 ** 32;
}
