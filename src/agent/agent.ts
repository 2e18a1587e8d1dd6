/**
 * The agent under test, as toolscore runs it: a module, a command or an HTTP endpoint given by the
 * run (never by a dataset), asked one case at a time for a transcript in any format toolscore
 * reads. Each kind lives in a file of its own; this file holds what they share.
 */
import { parseTrajectory } from "../adapters/parse-trajectory.js";
import { estimatedCostUsd, turnUsageOf } from "../adapters/case-spend.js";
import type { Content } from "../core/test-case.js";
import type { Trajectory } from "../core/trajectory.js";
import type { Toolbox } from "./toolbox.js";

/** What the agent is given for one run of a case. */
export interface AgentRequest {
  /** The case's id. */
  readonly caseId: string;
  /** What the user asked. */
  readonly input: Content;
  /** Which run of the case this is, from 0 (`--repeat k` runs each case k times). */
  readonly attempt: number;
  /** The user turn, from 0; a case without turns has one. */
  readonly turn: number;
  /** The conversation so far: each earlier turn's input and the transcript the agent returned. */
  readonly history: readonly AgentTurn[];
  /**
   * An id of this run of the case, the same at each of its turns and new for every run (a UUID):
   * for an agent that keeps its conversations by id.
   */
  readonly session: string;
  /**
   * Where the run's simulated tools are served over MCP (streamable HTTP), for an agent that
   * takes its tools from toolscore: a command or an endpoint. A module is given them in its context.
   */
  readonly mcp?: string;
}

/** An earlier turn of the conversation: what the user said, and what the agent returned. */
export interface AgentTurn {
  readonly input: Content;
  readonly transcript: unknown;
}

/**
 * What an agent may say of its run, kept with the recording: the model it used, its own version,
 * the tokens it spent and what they cost. A run of several turns adds the turns' tokens and costs.
 */
export interface AgentRunDetails {
  readonly model?: string;
  readonly version?: string;
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number };
  readonly costUsd?: number;
  /**
   * What the tokens cost at the model's list price, when the agent reported no cost: set by
   * toolscore, never read from an agent's answer.
   */
  readonly estimatedCostUsd?: number;
}

/** What a run of an agent is given beside its request. */
export interface RunContext {
  /** Aborted when the run's timeout passes or the run stops: stop working then. */
  readonly signal: AbortSignal;
  /** A line for the case's record of the run (kept with the recording). */
  readonly log: (message: string) => void;
  /** Details of the run (model, tokens, cost), kept with the recording. */
  readonly report: (details: AgentRunDetails) => void;
  /**
   * The run's simulated tools, when the run or the case simulates them: their definitions, and a
   * call of one that resolves to what the simulator answered (docs/guides/simulated-tools.md).
   */
  readonly tools?: Pick<Toolbox, "tools" | "call">;
}

/** What a module agent's function is given beside the input. */
export interface AgentContext extends Omit<AgentRequest, "input">, RunContext {}

/**
 * A module agent: the default export (or one named `agent`) of a JavaScript or TypeScript module,
 * given a case's input and context; it returns what the agent did, as a transcript (OpenAI or
 * Anthropic messages, AI SDK steps, spans, ... any format `parseTrajectory` reads).
 *
 * @example
 * export default async function agent(input: string, { signal }: AgentContext) {
 *   const result = await generateText({ model, tools, prompt: input, abortSignal: signal });
 *   return result.response.messages;
 * }
 */
export type AgentFunction = (input: Content, context: AgentContext) => unknown;

/** A run of the agent on one case: what it answered, or how it failed. */
export type AgentOutcome =
  | {
      readonly status: "answered";
      readonly transcript: unknown;
      readonly durationMs: number;
      readonly log: readonly string[];
      /** What the agent reported of the run (`context.report`, or its answer's envelope). */
      readonly details: AgentRunDetails;
    }
  | { readonly status: "failed"; readonly message: string; readonly durationMs: number };

/** An agent ready to run: a module loaded, a command or an endpoint checked. */
export interface Agent {
  /** What the recordings name it by: the module's path, the command, the endpoint. */
  readonly name: string;
  /**
   * Runs the agent once; resolves to its transcript. Throws `AgentFailure` (or anything) when the
   * agent failed, with a message that says how (the command's stderr tail, the module's error).
   */
  run(request: AgentRequest, context: RunContext): Promise<unknown>;
  /** Ends what the agent keeps between runs (long-lived processes); call it once the runs are done. */
  readonly close?: () => Promise<void>;
  /**
   * Whether simulated tools reach the agent in its run's context (a module); else they are
   * served over MCP at the URL its request names.
   */
  readonly toolsInContext?: boolean;
}

/**
 * A run's request as a command or an endpoint reads it (docs/guides/agent-protocol.md): the case's
 * id, what the user says, and where the run stands.
 */
export function requestBody(request: AgentRequest): Record<string, unknown> {
  const { caseId, input, attempt, turn, session, history, mcp } = request;
  const body: Record<string, unknown> = { id: caseId, input, attempt, turn, session, history };
  if (mcp !== undefined) body.mcp = mcp;
  return body;
}

/** How an agent failed, in its own words: the message a case's error shows. */
export class AgentFailure extends Error {}

/**
 * Runs `agent` once on `request`, within `timeoutMs` (and `signal`): its transcript, or why
 * there is none. Never throws: a failed run is an outcome of the case.
 */
export async function runAgentOnce(
  agent: Agent,
  request: AgentRequest,
  options: {
    readonly timeoutMs: number;
    readonly signal?: AbortSignal | undefined;
    /** The run's simulated tools, given to a module in its context. */
    readonly tools?: Toolbox | undefined;
  },
): Promise<AgentOutcome> {
  // A timer of our own, not AbortSignal.timeout: that one's timer lets the process exit while a
  // hung agent is awaited.
  const timeout = new AbortController();
  const timer = setTimeout(() => {
    timeout.abort();
  }, options.timeoutMs);
  const signal =
    options.signal === undefined
      ? timeout.signal
      : AbortSignal.any([timeout.signal, options.signal]);
  const log: string[] = [];
  const reported: AgentRunDetails[] = [];
  const { tools } = options;
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 1000) / 1000;
  // The agent may not heed its signal: the run ends at the deadline all the same.
  let stop = (): void => undefined;
  const stopped = new Promise<never>((_, reject) => {
    stop = () => {
      reject(new AgentFailure("aborted"));
    };
  });
  signal.addEventListener("abort", stop, { once: true });
  if (signal.aborted) stop();
  try {
    const context: RunContext = {
      signal,
      // A JavaScript agent may log anything: kept as text.
      log: (message: unknown) => log.push(String(message)),
      // An estimate is toolscore's to make, from the tokens: never the agent's to give.
      report: (details) => reported.push({ ...details, estimatedCostUsd: undefined }),
      ...(tools === undefined
        ? {}
        : {
            // A call the agent gives no signal of its own ends with the run.
            tools: {
              tools: tools.tools,
              call: (name: string, args: unknown, callSignal?: AbortSignal) =>
                tools.call(name, args, callSignal ?? signal),
            },
          }),
    };
    const ran = Promise.resolve().then(() => agent.run(request, context));
    // What the agent does after its deadline is not the case's outcome.
    ran.catch(() => undefined);
    const answer = unwrap(await Promise.race([ran, stopped]), context);
    if (answer === undefined || answer === null) {
      return {
        status: "failed",
        message: "the agent returned nothing: return the run's transcript (its messages)",
        durationMs: elapsed(),
      };
    }
    return {
      status: "answered",
      transcript: answer,
      durationMs: elapsed(),
      log,
      details: withTranscriptDetails(sumDetails(reported, log), answer, request.turn > 0),
    };
  } catch (error) {
    const message = timeout.signal.aborted
      ? `the agent did not answer within ${options.timeoutMs} ms (--agent-timeout)`
      : signal.aborted
        ? "the run was stopped before the agent answered"
        : error instanceof Error
          ? error.message
          : String(error);
    return { status: "failed", message, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", stop);
    stopped.catch(() => undefined);
  }
}

/**
 * The details the agent reported, completed from its transcript where it said nothing: the last
 * model the transcript names, and its tokens (of a later turn, the part after the last user
 * message when the transcript holds the conversation so far); then, without a reported cost, the
 * tokens at the model's list price. A transcript that cannot be read adds nothing here: scoring
 * reports why.
 */
function withTranscriptDetails(
  reported: AgentRunDetails,
  transcript: unknown,
  laterTurn: boolean,
): AgentRunDetails {
  let trajectory: Trajectory;
  try {
    trajectory = parseTrajectory(transcript);
  } catch {
    return reported;
  }
  const turnUsage = turnUsageOf(trajectory, laterTurn);
  const model = reported.model ?? trajectory.models?.at(-1);
  const usage = reported.usage ?? turnUsage;
  const details = {
    ...reported,
    ...(model === undefined ? {} : { model }),
    ...(usage === undefined ? {} : { usage }),
  };
  if (reported.costUsd !== undefined || usage === undefined || model === undefined) return details;
  const { inputTokens = 0, outputTokens = 0 } = usage;
  const estimate = estimatedCostUsd(model, { inputTokens, outputTokens });
  return estimate === undefined ? details : { ...details, estimatedCostUsd: estimate };
}

/** The keys of an answer's envelope: the transcript, and the run's details. */
const envelopeKeys = new Set(["transcript", "model", "version", "usage", "costUsd"]);

/**
 * The transcript of an answer: the answer itself, or an envelope's `transcript` (an object with
 * that key, which no transcript format has at its top), whose other keys are reported details.
 */
function unwrap(answer: unknown, context: RunContext): unknown {
  if (typeof answer !== "object" || answer === null || !Object.hasOwn(answer, "transcript")) {
    return answer;
  }
  const envelope = answer as Record<string, unknown>;
  const { transcript, ...details } = envelope;
  for (const key of Object.keys(details)) {
    if (!envelopeKeys.has(key)) context.log(`the answer's ${JSON.stringify(key)} is not read`);
  }
  context.report(details);
  return transcript;
}

/**
 * The details reported over a run, checked: the last model and version said, tokens and cost
 * added up. A value of the wrong type is left out with a line in the run's log, never kept.
 */
export function sumDetails(reported: readonly AgentRunDetails[], log: string[]): AgentRunDetails {
  const details: {
    model?: string;
    version?: string;
    usage?: { inputTokens?: number; outputTokens?: number };
    costUsd?: number;
    estimatedCostUsd?: number;
  } = {};
  let unpriced = false;
  const count = (value: unknown, what: string): number | undefined => {
    if (value === undefined) return undefined;
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
    log.push(`the run's ${what} ${JSON.stringify(value)} is not a number of 0 or more: left out`);
    return undefined;
  };
  for (const item of reported) {
    for (const key of ["model", "version"] as const) {
      const value: unknown = item[key];
      if (typeof value === "string") details[key] = value;
      else if (value !== undefined)
        log.push(`the run's ${key} ${JSON.stringify(value)} is not text: left out`);
    }
    const usage: unknown = item.usage;
    if (usage !== undefined && (typeof usage !== "object" || usage === null)) {
      log.push(
        `the run's usage ${JSON.stringify(usage)} is not { inputTokens, outputTokens }: left out`,
      );
    } else if (usage !== undefined) {
      for (const key of ["inputTokens", "outputTokens"] as const) {
        const tokens = count((usage as Record<string, unknown>)[key], `usage.${key}`);
        if (tokens !== undefined) {
          details.usage ??= {};
          details.usage[key] = (details.usage[key] ?? 0) + tokens;
        }
      }
    }
    const cost = count(item.costUsd, "costUsd");
    if (cost !== undefined) details.costUsd = (details.costUsd ?? 0) + cost;
    const estimate = item.estimatedCostUsd;
    if (estimate !== undefined)
      details.estimatedCostUsd = (details.estimatedCostUsd ?? 0) + estimate;
    else if (item.usage !== undefined && cost === undefined) unpriced = true;
  }
  // An estimate of some turns only would pass for the run's: none then.
  if (unpriced) delete details.estimatedCostUsd;
  return details;
}
