import type { ToolSpec } from "../core/test-case.js";
import { DEFAULT_MAX_DEPTH, isCleanJson, isJsonObject, toJsonValue } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import { numberSpellings } from "../core/number-spellings.js";
import type { NumberSpellings } from "../core/number-spellings.js";
import type { ToolCall, ToolCallType } from "../core/tool-call.js";
import { jsonText, usageOf } from "./read.js";
import type {
  TokenUsage,
  TraceContext,
  Trajectory,
  TrajectoryFormat,
  TrajectoryStep,
  TrajectoryTurn,
  TrajectoryWarning,
  TrajectoryWarningCode,
} from "../core/trajectory.js";

/** A tool call as a format reader found it, before validation. */
export interface RawCall {
  name: string;
  /** The arguments: an object, a JSON text, or absent. */
  arguments: unknown;
  id?: string | undefined;
  type?: ToolCallType;
  /** Where the call is in the input, for warnings. */
  path: string;
  /**
   * How whole numbers in object arguments were written in the transcript's text (`3.0`), when
   * the reader knows it; arguments given as text are scanned here.
   */
  spellings?: NumberSpellings | undefined;
  /** Set when the format carries the result with the call itself (UI parts, spans). */
  result?: RawResult | undefined;
  /**
   * Set when the source already judged the arguments invalid (LangChain's invalid_tool_calls,
   * the AI SDK's invalid calls): why. The raw text is then kept as is.
   */
  invalid?: string | undefined;
  /** How long the tool took, when the format times it (a span's start and end). */
  durationMs?: number | undefined;
}

/** A tool result as a format reader found it. */
export interface RawResult {
  output: unknown;
  isError: boolean;
}

/** A value as JSON: kept as it is when it already is clean JSON (what JSON.parse gives), else copied. */
export function cleanJson(value: unknown, path: string): JsonValue | undefined {
  return isCleanJson(value) ? (value as JsonValue) : toJsonValue(value, { field: path });
}

interface MutableCall {
  name: string;
  inputParameters: JsonObject;
  output: JsonValue;
  type: ToolCallType;
  id?: string;
  isError: boolean;
  invalidArguments?: string;
  numberSpellings?: NumberSpellings;
  durationMs?: number;
  resolved: boolean;
  path: string;
}

/** A call as the trajectory gives it: optional fields only when set, in a fixed order. */
function publicCall(call: MutableCall): ToolCall {
  const result: { -readonly [K in keyof ToolCall]: ToolCall[K] } = {
    name: call.name,
    inputParameters: call.inputParameters,
    output: call.output,
    type: call.type,
  };
  if (call.id !== undefined) result.id = call.id;
  result.isError = call.isError;
  if (call.invalidArguments !== undefined) result.invalidArguments = call.invalidArguments;
  if (call.numberSpellings !== undefined) result.numberSpellings = call.numberSpellings;
  if (call.durationMs !== undefined) result.durationMs = call.durationMs;
  return result;
}

/**
 * Collects what a format reader finds (calls, results, tool definitions, user turns, oddities)
 * and turns it into a `Trajectory`: results are joined to their calls by id, or, for formats
 * without ids, to the earliest unanswered call of the same tool.
 */
export class TrajectoryBuilder {
  private readonly calls: MutableCall[] = [];
  private readonly steps: number[][] = [];
  private readonly turns: {
    input?: string;
    steps: number[];
    calls: number[];
    replies?: number[];
    usage?: TokenUsage;
  }[] = [];
  private usage: TokenUsage | undefined;
  private readonly models: string[] = [];
  private readonly tools: ToolSpec[] = [];
  private readonly toolNames = new Set<string>();
  private readonly warnings: TrajectoryWarning[] = [];
  private readonly replies: string[] = [];

  /** An assistant message's text, when it has any. */
  addReply(text: string | undefined): void {
    if (text === undefined || text === "") return;
    const turn = this.currentTurn();
    (turn.replies ??= []).push(this.replies.length);
    this.replies.push(text);
  }

  /**
   * A model response's usage record (any SDK's spelling, see `usageOf`) and the model that
   * answered, counted in the run and in the current turn; a record whose counts are not numbers
   * is a warning at `path`.
   */
  addUsage(value: unknown, model: unknown, path: string): void {
    if (typeof model === "string" && model !== "" && !this.models.includes(model))
      this.models.push(model);
    const usage = usageOf(value);
    if (usage === undefined) return;
    if (usage === "invalid") {
      this.warn("invalid-usage", "a usage record whose counts are not numbers was left out", path);
      return;
    }
    const add = (to: TokenUsage | undefined): TokenUsage => ({
      inputTokens: (to?.inputTokens ?? 0) + usage.inputTokens,
      outputTokens: (to?.outputTokens ?? 0) + usage.outputTokens,
    });
    this.usage = add(this.usage);
    // Tokens spent before any turn (a response without its request) count in the run only.
    const turn = this.turns.at(-1);
    if (turn !== undefined) turn.usage = add(turn.usage);
  }

  /** Unanswered calls by id, earliest first. */
  private readonly pendingById = new Map<string, number[]>();
  /** Unanswered calls without an id, by name, earliest first. */
  private readonly pendingByName = new Map<string, number[]>();
  private readonly seenIds = new Set<string>();
  private currentStep: number[] | undefined;

  /**
   * `traceId`: of a transcript of spans, read only the spans of that trace (exports often hold
   * several runs).
   */
  constructor(
    private readonly format: TrajectoryFormat,
    readonly traceId?: string,
  ) {}

  warn(code: TrajectoryWarningCode, message: string, path: string): void {
    this.warnings.push({ code, message, path });
  }

  /** A warning that a message with a role this format does not have was skipped. */
  unknownRole(role: unknown, path: string, what = "a message"): void {
    this.warn("unknown-role", `${what} with role ${JSON.stringify(role)} was skipped`, path);
  }

  /** `value` as an object, or undefined after a warning that `what` was skipped. */
  objectAt(value: unknown, path: string, what: string): Record<string, unknown> | undefined {
    if (isJsonObject(value)) return value;
    this.warn("not-an-object", `${what} that is not an object was skipped`, path);
    return undefined;
  }

  /** A user message with real content: a new turn begins. */
  startTurn(input?: string): void {
    this.endStep();
    // Built directly: spreading a conditional object costs more than the rest of a turn.
    this.turns.push(
      input === undefined ? { steps: [], calls: [] } : { input, steps: [], calls: [] },
    );
  }

  /**
   * Calls added from now on were issued together (one assistant message, one model response),
   * until the next `startStep`, `endStep` or `startTurn`. Calls added outside any step are a step
   * each.
   */
  startStep(): void {
    this.stepOpen = true;
    // Made on the first call, so that a message without calls leaves no empty step.
    this.currentStep = undefined;
  }

  endStep(): void {
    this.stepOpen = false;
    this.currentStep = undefined;
  }

  private stepOpen = false;

  /** Whether calls are currently being grouped into one step. */
  get stepIsOpen(): boolean {
    return this.stepOpen;
  }

  private currentTurn(): { steps: number[]; calls: number[]; replies?: number[] } {
    if (this.turns.length === 0) this.turns.push({ steps: [], calls: [] });
    return this.turns[this.turns.length - 1];
  }

  addCall(raw: RawCall): number {
    const index = this.calls.length;
    const call: MutableCall = {
      name: raw.name,
      inputParameters: {},
      output: null,
      type: raw.type ?? "FUNCTION",
      isError: false,
      resolved: false,
      path: raw.path,
    };
    if (raw.durationMs !== undefined) call.durationMs = raw.durationMs;
    if (raw.invalid !== undefined) {
      call.invalidArguments =
        typeof raw.arguments === "string" ? raw.arguments : jsonText(raw.arguments);
      this.warn(
        "invalid-arguments",
        `the arguments of ${raw.name} are invalid: ${raw.invalid}`,
        raw.path,
      );
    } else {
      this.readArguments(call, raw.arguments, raw.path);
      const spellings =
        typeof raw.arguments === "string" && call.invalidArguments === undefined
          ? numberSpellings(raw.arguments)
          : raw.spellings;
      if (spellings !== undefined) call.numberSpellings = spellings;
    }
    if (raw.id !== undefined && raw.id !== "") {
      call.id = raw.id;
      // One lookup: the set grows unless the id was seen before.
      const seen = this.seenIds.size;
      if (this.seenIds.add(raw.id).size === seen) {
        this.warn(
          "duplicate-call-id",
          `call id ${JSON.stringify(raw.id)} is used by more than one call`,
          raw.path,
        );
      }
    }
    this.calls.push(call);

    const turn = this.currentTurn();
    let step = this.stepOpen ? this.currentStep : undefined;
    if (!step) {
      step = [];
      this.steps.push(step);
      turn.steps.push(this.steps.length - 1);
      if (this.stepOpen) this.currentStep = step;
    }
    step.push(index);
    turn.calls.push(index);
    this.attachResult(call, raw);
    return index;
  }

  private attachResult(call: MutableCall, raw: RawCall): void {
    if (raw.result) {
      this.resolve(call, raw.result, raw.path);
      return;
    }
    const index = this.calls.length - 1;
    const queue = call.id !== undefined ? this.pendingById : this.pendingByName;
    const key = call.id ?? call.name;
    const list = queue.get(key);
    if (list) list.push(index);
    else queue.set(key, [index]);
  }

  private readArguments(call: MutableCall, value: unknown, path: string): void {
    if (value === undefined || value === null || value === "") return;
    let parsed: unknown = value;
    if (typeof value === "string") {
      try {
        parsed = JSON.parse(value);
      } catch {
        call.invalidArguments = value;
        this.warn("invalid-arguments", `the arguments of ${call.name} are not valid JSON`, path);
        return;
      }
    }
    if (!isJsonObject(parsed)) {
      call.invalidArguments = typeof value === "string" ? value : JSON.stringify(value);
      this.warn("invalid-arguments", `the arguments of ${call.name} are not a JSON object`, path);
      return;
    }
    // What JSON.parse gives is clean JSON; only its depth could be over the limit, and a text
    // needs two characters per level to nest that deep.
    call.inputParameters =
      typeof value === "string" && value.length < 2 * DEFAULT_MAX_DEPTH
        ? parsed
        : (cleanJson(parsed, path) as JsonObject);
  }

  private resolve(call: MutableCall, result: RawResult, path: string): void {
    call.output = cleanJson(result.output, path) ?? null;
    call.isError = result.isError;
    call.resolved = true;
  }

  /**
   * A result: joined to the call with the same id, or (without an id) to the earliest unanswered
   * call of `name`, or of any name when `name` is unknown too.
   */
  addResult(
    result: RawResult & { id?: string | undefined; name?: string | undefined; path: string },
  ): void {
    let index: number | undefined;
    if (result.id !== undefined && result.id !== "") {
      index = this.pendingById.get(result.id)?.shift();
      if (index === undefined) {
        const answered = this.calls.some((call) => call.id === result.id);
        this.warn(
          answered ? "duplicate-result" : "result-without-call",
          answered
            ? `a second result for call id ${JSON.stringify(result.id)}; the first one is kept`
            : `a result for call id ${JSON.stringify(result.id)}, which no call has`,
          result.path,
        );
        return;
      }
    } else {
      index = this.takeWithoutId(result.name);
      if (index === undefined) {
        this.warn(
          "result-without-call",
          `a result${result.name === undefined ? "" : ` of ${result.name}`} with no unanswered call to join it to`,
          result.path,
        );
        return;
      }
    }
    this.resolve(this.calls[index], result, result.path);
  }

  private takeWithoutId(name: string | undefined): number | undefined {
    if (name !== undefined) {
      const byName = this.pendingByName.get(name)?.shift();
      if (byName !== undefined) return byName;
      // A result without an id for a call that had one: join by name among those too.
      for (const [, list] of this.pendingById) {
        const position = list.findIndex((i) => this.calls[i].name === name);
        if (position >= 0) return list.splice(position, 1)[0];
      }
      return undefined;
    }
    let earliest: { list: number[]; index: number } | undefined;
    for (const list of [...this.pendingByName.values(), ...this.pendingById.values()]) {
      const first = list.at(0);
      if (first !== undefined && (!earliest || first < earliest.index))
        earliest = { list, index: first };
    }
    return earliest?.list.shift();
  }

  /** A tool definition; the first one of a name wins. */
  addTool(spec: ToolSpec): void {
    if (this.toolNames.has(spec.name)) return;
    this.toolNames.add(spec.name);
    this.tools.push(spec);
  }

  /** Whether any call has been added. */
  get callCount(): number {
    return this.calls.length;
  }

  private root: TraceContext | undefined;

  private durationMs: number | undefined;

  /** The run's root span, when the transcript is one trace of spans. */
  setTrace(root: TraceContext): void {
    this.root = root;
  }

  /** How long the run took, when the transcript times it (a trace from first start to last end). */
  setDuration(durationMs: number): void {
    this.durationMs = durationMs;
  }

  build(options: { expectResults: boolean }): Trajectory {
    if (options.expectResults) {
      for (const call of this.calls) {
        if (!call.resolved) {
          this.warn("call-without-result", `the call to ${call.name} has no result`, call.path);
        }
      }
    }
    const calls: ToolCall[] = this.calls.map(publicCall);
    // Built valid: scoring them later needs no second validation.
    const steps: TrajectoryStep[] = this.steps.map((members, index) => ({ index, calls: members }));
    const turns: TrajectoryTurn[] = this.turns.map((turn, index) => {
      const built: { -readonly [K in keyof TrajectoryTurn]: TrajectoryTurn[K] } =
        turn.input === undefined
          ? { index, steps: turn.steps, calls: turn.calls }
          : { index, input: turn.input, steps: turn.steps, calls: turn.calls };
      if (turn.replies !== undefined) built.replies = turn.replies;
      if (turn.usage !== undefined) built.usage = turn.usage;
      return built;
    });
    const { format, tools, warnings, replies, root, usage, models, durationMs } = this;
    // Literals, not spreads: each keeps one shape, which the readers of a case rely on.
    const built: Trajectory =
      root !== undefined
        ? replies.length === 0
          ? { format, calls, steps, turns, tools, warnings, nameMapping: [], trace: root }
          : { format, calls, steps, turns, tools, warnings, nameMapping: [], replies, trace: root }
        : replies.length === 0
          ? { format, calls, steps, turns, tools, warnings, nameMapping: [] }
          : { format, calls, steps, turns, tools, warnings, nameMapping: [], replies };
    if (usage === undefined && models.length === 0 && durationMs === undefined) return built;
    return {
      ...built,
      ...(usage === undefined ? {} : { usage }),
      ...(models.length === 0 ? {} : { models }),
      ...(durationMs === undefined ? {} : { durationMs }),
    };
  }
}
