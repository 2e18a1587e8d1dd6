/**
 * The agent under test, as toolscore runs it: a module, a command or an HTTP endpoint given by the
 * run (never by a dataset), asked one case at a time for a transcript in any format toolscore
 * reads. Each kind lives in a file of its own; this file holds what they share.
 */
import type { Content } from "../core/test-case.js";

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
}

/** An earlier turn of the conversation: what the user said, and what the agent returned. */
export interface AgentTurn {
  readonly input: Content;
  readonly transcript: unknown;
}

/** What a module agent's function is given beside the input. */
export interface AgentContext extends Omit<AgentRequest, "input"> {
  /** Aborted when the run's timeout passes or the run stops: stop working then. */
  readonly signal: AbortSignal;
  /** A line for the case's record of the run (kept with the recording). */
  log(message: string): void;
}

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
  run(request: AgentRequest, signal: AbortSignal, log: (message: string) => void): Promise<unknown>;
  /** Ends what the agent keeps between runs (long-lived processes); call it once the runs are done. */
  readonly close?: () => Promise<void>;
}

/**
 * A run's request as a command or an endpoint reads it (docs/guides/agent-protocol.md): the case's
 * id, what the user says, and where the run stands.
 */
export function requestBody(request: AgentRequest): Record<string, unknown> {
  const { caseId, input, attempt, turn, session, history } = request;
  return { id: caseId, input, attempt, turn, session, history };
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
  options: { readonly timeoutMs: number; readonly signal?: AbortSignal | undefined },
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
    const ran = Promise.resolve().then(() =>
      agent.run(request, signal, (message) => log.push(message)),
    );
    // What the agent does after its deadline is not the case's outcome.
    ran.catch(() => undefined);
    const transcript = await Promise.race([ran, stopped]);
    if (transcript === undefined || transcript === null) {
      return {
        status: "failed",
        message: "the agent returned nothing: return the run's transcript (its messages)",
        durationMs: elapsed(),
      };
    }
    return { status: "answered", transcript, durationMs: elapsed(), log };
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
